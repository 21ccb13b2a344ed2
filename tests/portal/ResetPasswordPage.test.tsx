import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ResetPasswordPage } from '../../src/portal/ResetPasswordPage';
import { expectToast, json, renderScreen, stubFetch } from './render';

async function fill(newPassword: string, confirm: string) {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText(/^New Password/), newPassword);
  await u.type(screen.getByLabelText(/^Confirm Password/), confirm);
  await u.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('ResetPasswordPage', () => {
  it('asks for the new password twice, both required', () => {
    renderScreen(<ResetPasswordPage />, '/reset-password?token=abc');
    expect(screen.getByLabelText(/^New Password/)).toBeRequired();
    expect(screen.getByLabelText(/^New Password/)).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText(/^Confirm Password/)).toBeRequired();
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
  });

  it('explains a link without a token and offers the sign-in page', () => {
    renderScreen(<ResetPasswordPage />, '/reset-password');
    expect(screen.getByText(/has no reset token/i)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'sign-in page' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText(/^New Password/)).not.toBeInTheDocument();
  });

  it('refuses mismatched passwords without calling the server', async () => {
    const fetchSpy = stubFetch({});
    renderScreen(<ResetPasswordPage />, '/reset-password?token=abc');
    await fill('new-secret-1', 'new-secret-2');
    await expectToast('Error', 'Passwords do not match');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it.each([
    ['no new password', '', 'new-secret-1', 'New password is required', /^New Password/],
    ['no confirmation', 'new-secret-1', '', 'Please confirm your new password', /^Confirm Password/],
    ['different passwords', 'new-secret-1', 'new-secret-2', 'Passwords do not match', /^Confirm Password/],
    ['short, different passwords', 'short', 'shorT', 'Passwords do not match', /^Confirm Password/],
  ])("refuses %s with its rule's toast and focus on the field, sending nothing", async (_name, newPassword, confirm, message, invalid) => {
    const fetchSpy = stubFetch({});
    renderScreen(<ResetPasswordPage />, '/reset-password?token=abc');
    const u = userEvent.setup();
    if (newPassword) await u.type(screen.getByLabelText(/^New Password/), newPassword);
    if (confirm) await u.type(screen.getByLabelText(/^Confirm Password/), confirm);
    // Submitted as a script would see it: the browser's own `required` check is not the rule under test.
    fireEvent.submit(screen.getByRole('button', { name: 'Reset password' }).closest('form') as HTMLFormElement);
    await expectToast('Error', message);
    await waitFor(() => expect(screen.getByLabelText(invalid)).toHaveFocus());
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('resets the password, confirms and goes home', async () => {
    let resolve!: (r: Response) => void;
    const fetchSpy = stubFetch({
      'POST /api/reset-password': () =>
        new Promise<Response>((r) => {
          resolve = r;
        }),
    });
    renderScreen(<ResetPasswordPage />, '/reset-password?token=abc');
    await fill('new-secret-1', 'new-secret-1');

    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(screen.getByLabelText(/^New Password/)).toBeDisabled();
    expect(screen.getByLabelText(/^Confirm Password/)).toBeDisabled();
    resolve(json({ ok: true, message: 'Password updated' }));

    await expectToast('Success', 'Password reset successful. Please login with your new password.');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(JSON.parse(String(fetchSpy.mock.calls[0]?.[1]?.body))).toEqual({ token: 'abc', newPassword: 'new-secret-1' });
  });

  it.each([
    [
      'the server message',
      () => json({ error: 'Bad Request', message: 'This reset link is invalid or has expired.' }, 400, 'Bad Request'),
      'This reset link is invalid or has expired.',
    ],
    ['a fallback without one', () => new Response('', { status: 400, statusText: 'Bad Request' }), 'Failed to reset password'],
  ])('shows %s when the reset fails and stays on the page', async (_name, respond, message) => {
    stubFetch({ 'POST /api/reset-password': () => respond() });
    renderScreen(<ResetPasswordPage />, '/reset-password?token=old');
    await fill('new-secret-1', 'new-secret-1');
    await expectToast('Error', message);
    expect(screen.getByTestId('location')).toHaveTextContent('/reset-password?token=old');
    expect(screen.getByRole('button', { name: 'Reset password' })).toBeEnabled();
  });
});
