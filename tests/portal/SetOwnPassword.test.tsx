import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bodyOf, expectToast, json, renderPortal, stubFetch } from './render';

const admin = { id: 'a1', username: 'boss', email: 'boss@example.com', status: 'Active', isAdmin: true };
const flagged = { ...admin, passwordChangeRequired: true };

/** The server's answers: the user is flagged until the password is set. */
function stubServer() {
  let user: object = flagged;
  const spy = stubFetch({
    'GET /api/user': () => json(user),
    'POST /api/account/password': () => {
      user = admin;
      return json({ ok: true, message: 'Your password was changed.' });
    },
    'GET /api/stripe/user-subscriptions': () => json({ error: 'no_subscription', message: 'No subscription found' }, 404),
    'GET /api/stripe/subscription-status': () => json({ ok: true, hasSubscription: false, trialEligible: true, subscriptions: [] }),
  });
  const calls = () => spy.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`);
  return { spy, calls };
}

const formHeading = () => screen.findByRole('heading', { level: 1, name: 'Set your own password' });

describe('an account with a one-time password (issue 27)', () => {
  it('sees only the form that sets its own password, then the page it asked for', async () => {
    const { spy } = stubServer();
    renderPortal('/dashboard');
    await formHeading();
    expect(screen.queryByRole('heading', { name: 'General' })).not.toBeInTheDocument();
    expect(screen.getByText(/The account boss@example.com was created with a one-time password/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/api/logout');

    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Current password/), 'one-time-secret');
    await u.type(screen.getByLabelText(/^New password/), 'a-password-of-my-own');
    await u.type(screen.getByLabelText(/^Confirm new password/), 'a-password-of-my-own');
    await u.click(screen.getByRole('button', { name: 'Set my password' }));

    await expectToast('Password set', 'Your password was changed.');
    expect(await screen.findByRole('heading', { level: 1, name: 'General' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Set your own password' })).not.toBeInTheDocument();
    const post = spy.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(bodyOf(post?.[1])).toEqual({ currentPassword: 'one-time-secret', newPassword: 'a-password-of-my-own', signOutPlugin: true });
  }, 20_000);

  it('is stopped at the door of the console too: the console does not load', async () => {
    const { calls } = stubServer();
    renderPortal('/admin');
    await formHeading();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin');
    expect(calls().filter((call) => call.includes('/api/admin'))).toEqual([]);
  });

  it('is sent from the sign-in page to the dashboard, and the form', async () => {
    stubServer();
    renderPortal('/login');
    await formHeading();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
  });
});
