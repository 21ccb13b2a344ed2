/** /invitations/{token} (issue 38): the invitation's page, for each state and visitor. */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { InvitationPreview } from '../../contract/orgInvitations';
import { pendingInvitationPath } from '../../src/portal/orgs/pendingInvitation';
import { bodyOf, json, renderPortal, stubFetch } from './render';

const ada = { id: 'u1', username: 'ada', email: 'ada@studio.example', status: 'Active', isAdmin: false };
const invitation: InvitationPreview = {
  orgName: 'Grove Studio',
  email: 'ada@studio.example',
  role: 'billing',
  invitedBy: 'owner@studio.example',
  expiresAt: '2026-12-06T12:00:00.000Z',
  state: 'pending',
};
const SIGNED_OUT = () => json({ error: 'unauthorized', message: 'Authentication required' }, 401);

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });

beforeEach(() => localStorage.clear());

describe('InvitationPage', () => {
  it('signed in with the invited address: accepts it and says so', async () => {
    const calls: unknown[] = [];
    stubFetch({
      'GET /api/user': () => json(ada),
      'GET /api/invitations/tok-1': () => json(invitation),
      'POST /api/invitations/tok-1/accept': (init) => {
        calls.push(init?.body === undefined ? null : bodyOf(init));
        return json({ orgId: 'o1', orgName: 'Grove Studio', role: 'billing' });
      },
    });
    renderPortal('/invitations/tok-1');
    expect(await heading('Join Grove Studio')).toBeInTheDocument();
    expect(
      screen.getByText('owner@studio.example invited ada@studio.example to join Grove Studio on Sage as a billing manager.'),
    ).toBeInTheDocument();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await heading('You joined Grove Studio')).toBeInTheDocument();
    expect(screen.getByText('You are a billing manager of Grove Studio.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(calls).toHaveLength(1);
  });

  it("shows the server's refusal and keeps the button", async () => {
    stubFetch({
      'GET /api/user': () => json(ada),
      'GET /api/invitations/tok-2': () => json(invitation),
      'POST /api/invitations/tok-2/accept': () =>
        json({ error: 'already_member', message: 'This person is already a member of the organisation.' }, 409),
    });
    renderPortal('/invitations/tok-2');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This person is already a member of the organisation.');
    expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeEnabled();
  });

  it('signed out: asks to sign in or create an account with the address, and remembers the invitation for after', async () => {
    stubFetch({ 'GET /api/user': SIGNED_OUT, 'GET /api/invitations/tok-3': () => json(invitation) });
    renderPortal('/invitations/tok-3');
    expect(await screen.findByText(/Sign in or create an account with ada@studio.example to accept/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/login?mode=register');
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
    expect(pendingInvitationPath()).toBe('/invitations/tok-3');
  });

  it('signed in with another address: says whose it is and offers to sign out, with no Accept', async () => {
    stubFetch({ 'GET /api/user': () => json({ ...ada, email: 'ada@home.example' }), 'GET /api/invitations/tok-4': () => json(invitation) });
    renderPortal('/invitations/tok-4');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You are signed in as ada@home.example. This invitation was sent to ada@studio.example: sign in with the account of that address to accept it.',
    );
    expect(screen.getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/logout');
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
  });

  it.each([
    ['accepted', 'Invitation already accepted', 'This invitation has already been accepted.'],
    ['revoked', 'Invitation withdrawn', 'This invitation was withdrawn. Ask for a new one.'],
    ['expired', 'Invitation expired', 'This invitation has expired (it is valid 7 days). Ask for a new one.'],
  ] as const)('%s: says so, and forgets a remembered invitation', async (state, title, text) => {
    localStorage.setItem('sage.pendingInvitation', 'tok-5');
    stubFetch({ 'GET /api/user': () => json(ada), 'GET /api/invitations/tok-5': () => json({ ...invitation, state }) });
    renderPortal('/invitations/tok-5');
    expect(await heading(title)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
    expect(pendingInvitationPath()).toBeNull();
  });

  it('an unknown link: not valid', async () => {
    stubFetch({
      'GET /api/user': SIGNED_OUT,
      'GET /api/invitations/nope': () => json({ error: 'not_found', message: 'This invitation link is not valid.' }, 404),
    });
    renderPortal('/invitations/nope');
    expect(await heading('Invitation not valid')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This invitation link is not valid.');
  });
});
