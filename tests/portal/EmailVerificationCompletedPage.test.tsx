import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as BrowserModule from '../../src/browser';
import { closeWindow } from '../../src/browser';
import { EmailVerificationCompletedPage } from '../../src/portal/epicSignIn/EmailVerificationCompletedPage';
import { VERIFY_LINK_MESSAGES } from '../../contract/emailVerification';
import { renderScreen } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

beforeEach(() => vi.mocked(closeWindow).mockClear());

const HINT = 'If the tab is still open, you can close it yourself.';

describe('EmailVerificationCompletedPage (§2 Verification completed)', () => {
  it.each([
    [
      'success with the server message',
      `?success=true&message=${encodeURIComponent(VERIFY_LINK_MESSAGES.verified)}`,
      'Email Verified',
      VERIFY_LINK_MESSAGES.verified,
    ],
    ['success without a message', '?success=true', 'Email Verified', 'Your email has been verified.'],
    [
      'failure with the server message',
      '?success=false&message=Verification%20code%20has%20expired',
      'Verification Failed',
      'Verification code has expired',
    ],
    [
      'failure because the Epic account took another e-mail',
      `?success=false&message=${encodeURIComponent(VERIFY_LINK_MESSAGES.epicAccountLinked)}`,
      'Verification Failed',
      VERIFY_LINK_MESSAGES.epicAccountLinked,
    ],
    // A crafted link cannot put its own words on the page.
    [
      'a message the server never sends',
      '?success=true&message=Call%20555-0100%20for%20support',
      'Email Verified',
      'Your email has been verified.',
    ],
    [
      'a failure with made-up words',
      '?success=false&message=Your%20account%20is%20locked',
      'Verification Failed',
      VERIFY_LINK_MESSAGES.invalid,
    ],
    ['failure without a message', '?success=false', 'Verification Failed', 'This verification link is invalid or has already been used.'],
    ['no query at all', '', 'Verification Failed', 'This verification link is invalid or has already been used.'],
  ])('%s', (_name, query, title, message) => {
    renderScreen(<EmailVerificationCompletedPage />, `/email-verification-completed${query}`);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    const resendHint = screen.queryByText(/use Resend Email to get a new link/i);
    if (title === 'Verification Failed') expect(resendHint).toBeInTheDocument();
    else expect(resendHint).not.toBeInTheDocument();
  });

  it('Close this tab closes the window, then offers the hint', async () => {
    renderScreen(<EmailVerificationCompletedPage />, '/email-verification-completed?success=true');
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close this tab' }));
    expect(closeWindow).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status')).toHaveTextContent(HINT);
  });
});
