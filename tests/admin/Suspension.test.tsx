import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, type AdminUser } from '../../contract/admin';
import { SUSPENSION_REASON_REQUIRED } from '../../contract/suspension';
import { UserShow } from '../../src/admin/users/UserShow';
import { bodyOf, json, stubFetch } from '../portal/render';
import { ada, admin, emptyUsage, expectNotification, noAccountDetails, renderConsolePage, setUpAdminTests, signedInAdmin } from './render';

setUpAdminTests({ wholeConsole: false });

/** The user's page (UserShow) at `/admin/users/{id}/show`, without the rest of the console. */
const renderUserPage = (id = 'u1') =>
  renderConsolePage(<UserShow />, { path: `/admin/users/${id}/show`, route: '/users/:id/show', resource: 'users' });

/** Ada's page, her record answering `user()`: what the last suspend or reinstate left. */
function stubUser(routes: Record<string, (url: string, init?: RequestInit) => Response | Promise<Response>> = {}, start: AdminUser = ada) {
  let user = start;
  const fetch = stubFetch({
    ...signedInAdmin,
    'GET /api/admin/users/u1': () => json(user),
    'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
    'GET /api/admin/users/u1/details': () =>
      json(
        user.status === 'Suspended'
          ? { ...noAccountDetails, suspension: { suspendedAt: '2026-11-26T03:00:00.000Z', reason: 'Chargeback' } }
          : noAccountDetails,
      ),
    'POST /api/admin/users/u1/suspend': () => {
      user = { ...user, status: 'Suspended' };
      return json(user);
    },
    'POST /api/admin/users/u1/reinstate': () => {
      user = { ...user, status: 'Active' };
      return json(user);
    },
    ...emptyUsage('u1'),
    ...routes,
  });
  const posts = (path: string) => fetch.mock.calls.filter(([url, init]) => String(url) === path && init?.method === 'POST');
  return { posts };
}

async function openUser() {
  renderUserPage();
  await screen.findByText('u1');
}

describe('Suspension on a user’s page (issue 28)', () => {
  it('asks for a reason, refuses none, then suspends and shows the suspension', async () => {
    const { posts } = stubUser();
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend ada@example.com?' });
    expect(within(dialog).getByText(/Their subscription is not changed/)).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await within(dialog).findByText(SUSPENSION_REASON_REQUIRED)).toBeInTheDocument();
    expect(posts('/api/admin/users/u1/suspend')).toHaveLength(0);

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Chargeback');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));

    await expectNotification('ada@example.com is suspended.');
    expect(bodyOf(posts('/api/admin/users/u1/suspend')[0]?.[1])).toEqual({ reason: 'Chargeback' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: 'Reinstate' })).toBeInTheDocument();
    expect(await screen.findByText('Chargeback')).toBeInTheDocument();
  });

  it('Cancel closes the dialog and suspends nothing', async () => {
    const { posts } = stubUser();
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend ada@example.com?' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Spam');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts('/api/admin/users/u1/suspend')).toHaveLength(0);
  });

  it('shows the server’s refusal in the dialog', async () => {
    stubUser({
      'POST /api/admin/users/u1/suspend': () => json({ error: 'already_suspended', message: 'This account is already suspended' }, 409),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend ada@example.com?' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Spam');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await within(dialog).findByText('This account is already suspended')).toBeInTheDocument();
    expect(within(dialog).getByText('Failed to suspend the user')).toBeInTheDocument();
  });

  it('reinstates a suspended user after a confirmation', async () => {
    const { posts } = stubUser({}, { ...ada, status: 'Suspended' });
    await openUser();
    await userEvent.click(await screen.findByRole('button', { name: 'Reinstate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reinstate ada@example.com?' });
    expect(posts('/api/admin/users/u1/reinstate')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await expectNotification('ada@example.com is reinstated.');
    expect(posts('/api/admin/users/u1/reinstate')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Suspend' })).toBeInTheDocument();
  });

  it('offers no Suspend on the admin’s own account', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/users/admin-1': () => json({ ...ada, id: admin.id, email: admin.email }),
      'GET /api/admin/users/admin-1/ai-history': () => json({ threads: [] }),
      'GET /api/admin/users/admin-1/details': () => json(noAccountDetails),
      ...emptyUsage('admin-1'),
    });
    renderUserPage('admin-1');
    await screen.findByText('admin-1');
    // The page knows it is the admin's own once it knows who is signed in: Delete then says why it is off.
    await screen.findByText(ADMIN_MESSAGES.selfDeletion);
    expect(screen.getByRole('button', { name: 'Reissue license' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
  });
});
