import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AccountEmail } from '../../contract/accountEmail';
import { EmailPanel } from '../../src/portal/dashboard/account/EmailPanel';
import { bodyOf, currentLocation, deferred, expectToast, json, renderScreen, stubFetch } from './render';

const LEGACY: AccountEmail = { email: 'ada@example.com', verified: false, epicDisplayName: null, proof: 'current_password', pending: null };
const EPIC: AccountEmail = {
  email: 'ada@example.com',
  verified: true,
  epicDisplayName: 'AdaPlays',
  proof: 'recent_sign_in',
  pending: null,
};
const EXPIRES = '2026-11-26T12:00:00.000Z';

const panel = () => screen.getByRole('region', { name: 'E-mail' });
const newEmail = () => screen.getByLabelText(/^New e-mail/);
const currentPassword = () => screen.queryByLabelText(/^Current password/);
/** Submitted as a script would: the browser's own `required` check is not the rule under test. */
const submit = () => fireEvent.submit(screen.getByRole('button', { name: 'Send link' }).closest('form') as HTMLFormElement);
const posts = (spy: ReturnType<typeof stubFetch>) => spy.mock.calls.filter(([, init]) => init?.method === 'POST');

async function openPanel(account: AccountEmail, routes: Parameters<typeof stubFetch>[0] = {}, path = '/dashboard#account') {
  const spy = stubFetch({ 'GET /api/account/email': () => json(account), ...routes });
  renderScreen(<EmailPanel />, path);
  await within(await screen.findByRole('region', { name: 'E-mail' })).findByText('Current e-mail');
  return spy;
}

describe('E-mail panel (issue 27)', () => {
  it('shows a legacy account its address and whether it is verified, and asks for the password to change it', async () => {
    await openPanel(LEGACY);
    expect(screen.getByRole('heading', { level: 2, name: 'E-mail' })).toBeInTheDocument();
    expect(within(panel()).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(panel()).getByText('Not verified')).toBeInTheDocument();
    expect(within(panel()).queryByText('Linked Epic account')).not.toBeInTheDocument();
    expect(newEmail()).toHaveAttribute('type', 'email');
    expect(newEmail()).toHaveAttribute('autocomplete', 'email');
    expect(currentPassword()).toHaveAttribute('autocomplete', 'current-password');
    expect(within(panel()).getByText(/we send a link to the new address/)).toBeInTheDocument();
  });

  it('sends the new address and the password, then shows the link waiting at the new address', async () => {
    const answer = deferred<Response>();
    const spy = await openPanel(LEGACY, { 'POST /api/account/email': () => answer.promise });
    const u = userEvent.setup();
    await u.type(newEmail(), 'ada.new@example.com');
    await u.type(currentPassword() as HTMLElement, 'correct horse');
    await u.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(bodyOf(posts(spy)[0]?.[1])).toEqual({ newEmail: 'ada.new@example.com', currentPassword: 'correct horse' });

    const message = 'We sent a link to ada.new@example.com. Open it within an hour to confirm the change.';
    answer.resolve(json({ ok: true, message, pending: { newEmail: 'ada.new@example.com', expiresAt: EXPIRES } }));
    await expectToast('Check your new inbox', message);
    const waiting = await within(panel()).findByRole('status');
    expect(waiting).toHaveTextContent(/^A link was sent to ada\.new@example\.com\. Open it before Nov 2\d, 2026, \d\d:\d\d to confirm/);
    expect(newEmail()).toHaveValue('');
    expect(currentPassword()).toHaveValue('');
  });

  it('shows an Epic account its linked Epic name and changes its address without a password', async () => {
    const spy = await openPanel(EPIC, {
      'POST /api/account/email': () =>
        json({ ok: true, message: 'Sent.', pending: { newEmail: 'ada.new@example.com', expiresAt: EXPIRES } }),
    });
    expect(within(panel()).getByText('Linked Epic account')).toBeInTheDocument();
    expect(within(panel()).getByText('AdaPlays')).toBeInTheDocument();
    expect(within(panel()).getByText('Verified')).toBeInTheDocument();
    expect(currentPassword()).not.toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(newEmail(), 'ada.new@example.com');
    await u.click(screen.getByRole('button', { name: 'Send link' }));
    await expectToast('Check your new inbox', 'Sent.');
    expect(bodyOf(posts(spy)[0]?.[1])).toEqual({ newEmail: 'ada.new@example.com' });
  });

  it('asks an Epic account whose sign-in is old to sign in with Epic again', async () => {
    await openPanel({ ...EPIC, proof: 'sign_in_again' });
    expect(within(panel()).getByRole('link', { name: 'Sign in with Epic again' })).toHaveAttribute('href', '/api/auth/login?client=web');
    expect(screen.queryByLabelText(/^New e-mail/)).not.toBeInTheDocument();
  });

  it("checks the form by the contract's rules before anything is sent", async () => {
    const spy = await openPanel(LEGACY);
    submit();
    await expectToast('Error', 'Email is required');
    await userEvent.setup().type(newEmail(), 'not-an-address');
    submit();
    await expectToast('Error', 'Invalid email address');
    await userEvent.setup().type(newEmail(), '{selectall}ada.new@example.com');
    submit();
    await expectToast('Error', 'Current password is required');
    expect(posts(spy)).toHaveLength(0);
  });

  it("shows the server's refusal and puts the focus where it can be put right", async () => {
    await openPanel(LEGACY, {
      'POST /api/account/email': () =>
        json({ error: 'wrong_password', message: 'The current password is not correct.' }, 400, 'Bad Request'),
    });
    const u = userEvent.setup();
    await u.type(newEmail(), 'ada.new@example.com');
    await u.type(currentPassword() as HTMLElement, 'wrong');
    await u.click(screen.getByRole('button', { name: 'Send link' }));
    await expectToast('Error', 'The current password is not correct.');
    await waitFor(() => expect(currentPassword()).toHaveFocus());
  });

  it('says how the mail’s link went, once, and takes the outcome out of the address', async () => {
    await openPanel(EPIC, {}, '/dashboard?emailChange=changed#account');
    await expectToast('E-mail changed', 'Your e-mail address has been changed. Use it the next time you sign in.');
    await waitFor(() => expect(currentLocation()).toBe('/dashboard#account'));
  });

  it('says when the link was refused', async () => {
    await openPanel(EPIC, {}, '/dashboard?emailChange=expired_token#account');
    await expectToast('E-mail not changed', 'This e-mail change link has expired. Please ask for a new one.');
  });

  it('shows no words of a crafted address', async () => {
    await openPanel(EPIC, {}, '/dashboard?emailChange=You%20won#account');
    await waitFor(() => expect(currentLocation()).toBe('/dashboard#account'));
    expect(screen.queryByRole('region', { name: /notifications/i })?.textContent ?? '').not.toContain('You won');
  });

  it('says so when the settings cannot be loaded', async () => {
    stubFetch({ 'GET /api/account/email': () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    renderScreen(<EmailPanel />, '/dashboard#account');
    expect(await screen.findByText('Unable to load your e-mail settings')).toBeInTheDocument();
  });
});
