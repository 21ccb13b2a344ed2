import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PasswordPanel } from '../../src/portal/dashboard/account/PasswordPanel';
import { bodyOf, deferred, expectToast, json, renderScreen, stubFetch } from './render';

const current = () => screen.getByLabelText(/^Current password/);
const next = () => screen.getByLabelText(/^New password/);
const confirm = () => screen.getByLabelText(/^Confirm new password/);

async function openPanel(routes: Parameters<typeof stubFetch>[0] = {}) {
  const spy = stubFetch({ 'GET /api/account/password': () => json({ hasPassword: true }), ...routes });
  renderScreen(<PasswordPanel />, '/dashboard#account');
  await screen.findByLabelText(/^Current password/);
  return spy;
}

async function fill(currentPassword: string, newPassword: string, confirmation = newPassword) {
  const u = userEvent.setup();
  if (currentPassword) await u.type(current(), currentPassword);
  if (newPassword) await u.type(next(), newPassword);
  if (confirmation) await u.type(confirm(), confirmation);
  return u;
}

/** Submitted as a script would: the browser's own `required` check is not the rule under test. */
const submit = () => fireEvent.submit(screen.getByRole('button', { name: 'Change password' }).closest('form') as HTMLFormElement);

const posts = (spy: ReturnType<typeof stubFetch>) => spy.mock.calls.filter(([, init]) => init?.method === 'POST');

describe('Password panel (issue 27)', () => {
  it('asks for the current password and the new one twice, under its heading', async () => {
    await openPanel();
    expect(screen.getByRole('region', { name: 'Password' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Password' })).toBeInTheDocument();
    for (const field of [current(), next(), confirm()]) {
      expect(field).toBeRequired();
      expect(field).toHaveAttribute('type', 'password');
    }
    expect(current()).toHaveAttribute('autocomplete', 'current-password');
    expect(next()).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByText(/Every other browser signed in to your account is signed out/)).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Show password' }));
    for (const field of [current(), next(), confirm()]) expect(field).toHaveAttribute('type', 'text');
  });

  it('is not shown to an account without a password (Epic sign-in only)', async () => {
    stubFetch({ 'GET /api/account/password': () => json({ hasPassword: false }) });
    renderScreen(<PasswordPanel />, '/dashboard#account');
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading your password settings' })).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Password' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Current password/)).not.toBeInTheDocument();
  });

  it('says so when it cannot tell', async () => {
    stubFetch({ 'GET /api/account/password': () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    renderScreen(<PasswordPanel />, '/dashboard#account');
    expect(await screen.findByText('Unable to load your password settings')).toBeInTheDocument();
  });

  it.each([
    ['no current password', '', 'a-new-password', 'a-new-password', 'Current password is required', current],
    ['a short new password', 'old-password', 'short', 'short', 'Password must be at least 8 characters', next],
    [
      'the current password again',
      'old-password',
      'old-password',
      'old-password',
      'Choose a new password that differs from the current one',
      next,
    ],
    ['a confirmation that differs', 'old-password', 'a-new-password', 'a-new-passwort', 'Passwords do not match', confirm],
  ])(
    'refuses %s with its rule, focus on the field, sending nothing',
    async (_name, currentPassword, newPassword, confirmation, message, field) => {
      const spy = await openPanel();
      await fill(currentPassword, newPassword, confirmation);
      submit();
      await expectToast('Error', message);
      await waitFor(() => expect(field()).toHaveFocus());
      expect(posts(spy)).toEqual([]);
    },
  );

  it('changes the password: busy while it is sent, then says so and empties the form', async () => {
    const answer = deferred<Response>();
    const spy = await openPanel({ 'POST /api/account/password': () => answer.promise });
    const u = await fill('old-password', 'a-new-password');
    await u.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(current()).toBeDisabled();
    answer.resolve(json({ ok: true, message: 'Your password was changed. You were signed out everywhere else.' }));

    await expectToast('Password changed', 'Your password was changed. You were signed out everywhere else.');
    expect(bodyOf(posts(spy)[0]?.[1])).toEqual({ currentPassword: 'old-password', newPassword: 'a-new-password', signOutPlugin: true });
    await waitFor(() => expect(current()).toHaveValue(''));
    expect(next()).toHaveValue('');
    expect(confirm()).toHaveValue('');
  });

  it('offers to sign the Sage plugin out too, checked to start with; unchecked, the body says so (issue 36)', async () => {
    const spy = await openPanel({ 'POST /api/account/password': () => json({ ok: true, message: 'Your password was changed.' }) });
    const box = screen.getByRole('checkbox', { name: 'Also sign the Sage plugin out (it will ask you to sign in again)' });
    expect(box).toBeChecked();
    const u = await fill('old-password', 'a-new-password');
    await u.click(box);
    expect(box).not.toBeChecked();
    await u.click(screen.getByRole('button', { name: 'Change password' }));
    await expectToast('Password changed', 'Your password was changed.');
    expect(bodyOf(posts(spy)[0]?.[1])).toEqual({ currentPassword: 'old-password', newPassword: 'a-new-password', signOutPlugin: false });
    // The form starts afresh: the box is checked again.
    await waitFor(() => expect(box).toBeChecked());
  });

  it('says a wrong current password in the server’s words and puts the focus back on it', async () => {
    await openPanel({
      'POST /api/account/password': () =>
        json({ error: 'wrong_password', message: 'The current password is not correct.' }, 400, 'Bad Request'),
    });
    const u = await fill('not-my-password', 'a-new-password');
    await u.click(screen.getByRole('button', { name: 'Change password' }));
    await expectToast('Error', 'The current password is not correct.');
    await waitFor(() => expect(current()).toHaveFocus());
  });
});
