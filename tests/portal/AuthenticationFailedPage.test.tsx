import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { json, renderPortal, stubFetch, testConfig } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
  stubFetch({
    'GET /api/user': () => json({ error: 'Unauthorized', message: 'Not signed in' }, 401),
    'GET /api/current-sage-build': () => json(testConfig.defaultBuild),
    'GET /api/plugin/releases': () => json({ releases: [] }),
  });
});

const UNEXPECTED = 'An unexpected error occurred. Please try again.';

describe('AuthenticationFailedPage (§2 Authentication failed)', () => {
  it.each<[string, string, string | RegExp]>([
    ['canceled', 'Login Canceled', 'Epic Login was canceled'],
    ['state_mismatch', 'Authentication Failed', 'Security validation failed. Please try again.'],
    ['token_exchange_failed', 'Authentication Failed', /failed to exchange authorization code/],
    ['user_info_failed', 'Authentication Failed', /failed to retrieve user information from Epic Games/],
    ['server_error', 'Authentication Failed', /a server error occurred/],
    ['invalid_redirect_uri', 'Plugin Sign-in Refused', /must be localhost or 127\.0\.0\.1 over http/],
    ['invalid_plugin_request', 'Plugin Sign-in Refused', /incomplete or malformed/],
    ['verification_required', 'Email Not Verified', /has not been verified yet/],
    ['something_else', 'Authentication Failed', UNEXPECTED],
  ])('reason=%s shows its title and description', async (reason, title, description) => {
    renderPortal(`/authentication_failed?reason=${reason}`);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(description);
    if (reason !== 'something_else') expect(screen.getByRole('alert')).not.toHaveTextContent(UNEXPECTED);
  });

  it('without a reason shows the unexpected-error text', async () => {
    renderPortal('/authentication_failed');
    expect(await screen.findByRole('heading', { level: 1, name: 'Authentication Failed' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(UNEXPECTED);
  });

  it('Try Again starts a web Epic sign-in', async () => {
    renderPortal('/authentication_failed?reason=state_mismatch');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Try Again' }));
    expect(assignLocation).toHaveBeenCalledTimes(1);
    expect(assignLocation).toHaveBeenCalledWith('/api/auth/login?client=web');
  });

  it('a suspended account is sent to support rather than asked to try again', async () => {
    renderPortal('/authentication_failed?reason=account_suspended');
    expect(await screen.findByRole('heading', { level: 1, name: 'Account Suspended' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This account is suspended. Please contact support.');
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Start the sign-in again/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Contact Support' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Get Support' })).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('Return to Home goes to / and on to the download page', async () => {
    renderPortal('/authentication_failed?reason=canceled');
    const home = await screen.findByRole('link', { name: 'Return to Home' });
    expect(home).toHaveAttribute('href', '/');
    await userEvent.setup().click(home);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/download$/));
    expect(await screen.findByRole('heading', { name: 'Download Sage' })).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });
});
