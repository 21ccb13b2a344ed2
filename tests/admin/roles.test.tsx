import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../contract/admin';
import type { StaffRole } from '../../contract/staffRoles';
import type { CreditPackPurchase } from '../../contract/usage';
import { bodyOf, json, stubFetch } from '../portal/render';
import { ada, admin, emptyUsage, listPage, noAccountDetails, noInsights, renderAdmin, setUpAdminTests } from './render';

setUpAdminTests();

const pack: CreditPackPurchase = {
  id: 'p1',
  credits: 500,
  reason: 'Credit pack price_500',
  createdAt: '2026-11-10T09:30:00.000Z',
  unspent: 380,
  refundedAt: null,
};
const helper: AdminUser = { ...ada, id: 'u2', username: 'helper', email: 'helper@example.com', isAdmin: true, role: 'support' };

/** The console signed in as a member of staff with `role`, with ada and helper to look at. */
function stubConsole(role: StaffRole) {
  return stubFetch({
    'PUT /api/admin/users/u1': () => json({ ...ada, isAdmin: true, role: 'admin' }),
    'GET /api/user': () => json({ ...admin, staffRole: role }),
    'GET /api/admin/grove-metrics': () => json({ userStats: { totalUsers: 2 } }),
    'GET /api/admin/insights': () => json(noInsights()),
    'GET /api/admin/users': () => listPage('users', [ada, helper], 2),
    ...Object.assign(
      {},
      ...[ada, helper].map((user) => ({
        [`GET /api/admin/users/${user.id}`]: () => json(user),
        [`GET /api/admin/users/${user.id}/ai-history`]: () => json({ threads: [] }),
        [`GET /api/admin/users/${user.id}/details`]: () => json(noAccountDetails),
        ...emptyUsage(user.id),
        [`GET /api/admin/users/${user.id}/credit-packs`]: () => json({ purchases: [pack] }),
      })),
    ),
  });
}

describe('the console shows each role what it may do (issue 28)', () => {
  it('support: the user’s page offers the ticket actions, not Edit, Delete, credits or refunds', async () => {
    stubConsole('support');
    renderAdmin('/admin/users/u1/show');
    await screen.findByText('ada@example.com');
    expect(await screen.findByRole('button', { name: 'Sign out everywhere' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reissue license' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Suspend' })).toBeInTheDocument();
    const packs = await screen.findByRole('table', { name: /credit packs/i });
    await within(packs).findByText('Credit pack price_500');
    expect(within(packs).queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Grant or deduct credits' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('support: no Release tab, no page behind its address, no export of every user', async () => {
    stubConsole('support');
    renderAdmin('/admin/users');
    await screen.findByText('ada@example.com');
    expect(screen.getByRole('menuitem', { name: 'User List' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Release' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export' })).not.toBeInTheDocument();
  });

  it('support: the edit page’s address leads to the list, with no form', async () => {
    stubConsole('support');
    renderAdmin('/admin/users/u1/edit');
    await screen.findByText('helper@example.com');
    expect(screen.queryByRole('textbox', { name: 'Username' })).not.toBeInTheDocument();
  });

  it('admin: everything is there', async () => {
    stubConsole('admin');
    renderAdmin('/admin/users/u1/show');
    await screen.findByText('ada@example.com');
    expect(await screen.findByRole('link', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Grant or deduct credits' })).toBeInTheDocument();
    const packs = await screen.findByRole('table', { name: /credit packs/i });
    expect(await within(packs).findByRole('button', { name: 'Refund' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Release' })).toBeInTheDocument();
  });

  it('admin: the role is asked for while Is Admin is on, Support first for a new admin, and saved with it', async () => {
    const fetch = stubConsole('admin');
    renderAdmin('/admin/users/u1/edit');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Username' })).toHaveValue('ada'));
    expect(screen.queryByRole('combobox', { name: 'Role' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'Is Admin' }));
    const role = await screen.findByRole('combobox', { name: 'Role' });
    expect(role).toHaveTextContent('Support');
    await userEvent.click(role);
    await userEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const put = () => fetch.mock.calls.find(([url, init]) => String(url).endsWith('/api/admin/users/u1') && init?.method === 'PUT');
    await waitFor(() => expect(put()).toBeDefined());
    expect(bodyOf(put()![1])).toMatchObject({ isAdmin: true, role: 'admin' });
  });
});
