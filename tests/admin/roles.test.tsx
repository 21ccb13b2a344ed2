import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../contract/admin';
import type { BuildHistoryItem } from '../../contract/builds';
import { STAFF_TARGET_REFUSAL, type StaffRole } from '../../contract/staffRoles';
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

/** A build in the Release tab's history (issue 41). */
const released: BuildHistoryItem = {
  id: '2026-03-02a',
  version: '2026-03-02a',
  releasedAt: '2026-03-02T10:00:00.000Z',
  notes: '',
  required: false,
  downloads: [],
  releasedBy: null,
  withdrawnAt: null,
  withdrawnBy: null,
  withdrawReason: null,
};

/** The console signed in as a member of staff with `role`, with ada and helper to look at. */
function stubConsole(role: StaffRole) {
  return stubFetch({
    'PUT /api/admin/users/u1': () => json({ ...ada, isAdmin: true, role: 'admin' }),
    'GET /api/user': () => json({ ...admin, staffRole: role }),
    'GET /api/admin/grove-metrics': () => json({ userStats: { totalUsers: 2 } }),
    'GET /api/admin/insights': () => json(noInsights()),
    'GET /api/admin/plugin-versions': () => json({ days: 30, versions: [] }),
    'GET /api/admin/builds': () => json([released]),
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

describe('the console shows each role what it may do, and why not (issues 28, 37)', () => {
  it('support: the user’s page offers the ticket actions; Edit, Delete, the license file, credits and refunds are off, with the reason', async () => {
    stubConsole('support');
    renderAdmin('/admin/users/u1/show');
    await screen.findByText('ada@example.com');
    expect(await screen.findByRole('button', { name: 'Sign out everywhere' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Reissue license' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Suspend' })).toBeEnabled();
    const edit = await screen.findByRole('link', { name: 'Edit' });
    await waitFor(() => expect(edit).toHaveAttribute('aria-disabled', 'true'));
    expect(edit).toHaveAccessibleDescription('Only admins can edit users');
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveAccessibleDescription('Only admins can delete users');
    expect(screen.getByRole('button', { name: 'Download License' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Download License' })).toHaveAccessibleDescription('Only admins can download licenses');
    for (const reason of ['Only admins can edit users', 'Only admins can delete users', 'Only admins can download licenses']) {
      expect(screen.getByText(reason)).toBeVisible();
    }
    const adjust = await screen.findByRole('button', { name: 'Grant or deduct credits' });
    expect(adjust).toBeDisabled();
    expect(adjust).toHaveAccessibleDescription('Only admins can grant or deduct credits');
    expect(screen.getByText('Only admins can grant or deduct credits')).toBeVisible();
    const packs = await screen.findByRole('table', { name: /credit packs/i });
    const refund = await within(packs).findByRole('button', { name: 'Refund' });
    expect(refund).toBeDisabled();
    expect(refund).toHaveAccessibleDescription('Only admins can refund credit packs');
    expect(screen.getByText('Only admins can refund credit packs')).toBeVisible();
  });

  it('support: on a member of staff’s page every write is off, said once: support acts on customers only', async () => {
    stubConsole('support');
    renderAdmin('/admin/users/u2/show');
    await screen.findByText('helper@example.com');
    for (const name of ['Sign out everywhere', 'Reissue license', 'Suspend']) {
      const button = await screen.findByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(STAFF_TARGET_REFUSAL.message);
    }
    expect(screen.getAllByText(STAFF_TARGET_REFUSAL.message)).toHaveLength(1);
    expect(screen.getByText(STAFF_TARGET_REFUSAL.message)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveAccessibleDescription('Only admins can delete users');
  });

  it('support: Export of every user is off with the reason; the Release tab opens a page that says who may release', async () => {
    stubConsole('support');
    renderAdmin('/admin/users');
    await screen.findByText('ada@example.com');
    const exportAll = screen.getByRole('button', { name: 'Export' });
    expect(exportAll).toBeDisabled();
    expect(exportAll).toHaveAccessibleDescription('Only admins can export every user');
    expect(screen.getByText('Only admins can export every user')).toBeVisible();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Release' }));
    expect(await screen.findByText('Only admins can release builds')).toBeVisible();
    expect(screen.queryByText(/not found/i)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /release/i })).not.toBeInTheDocument();
  });

  it('support: the Release page’s address says who may release, not “Not Found”, and shows the build history read-only', async () => {
    stubConsole('support');
    renderAdmin('/admin/release');
    expect(await screen.findByText('Only admins can release builds')).toBeVisible();
    expect(screen.queryByText(/not found/i)).not.toBeInTheDocument();
    const history = await screen.findByRole('table', { name: 'Build history' });
    expect(history).toHaveTextContent('2026-03-02a');
    expect(screen.queryByRole('button', { name: /withdraw/i })).not.toBeInTheDocument();
  });

  it('admin: the Release page has the form and Withdraw for an offered build', async () => {
    stubConsole('admin');
    renderAdmin('/admin/release');
    expect(await screen.findByRole('textbox', { name: 'Release notes (Markdown)' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Withdraw 2026-03-02a' })).toBeEnabled();
  });

  it('support: the edit page’s address says why there is no form, with a way back to the user', async () => {
    stubConsole('support');
    renderAdmin('/admin/users/u1/edit');
    expect(await screen.findByText('Only admins can edit users')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Username' })).not.toBeInTheDocument();
    expect(screen.queryByText('helper@example.com')).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('link', { name: 'Back to ada' }));
    expect(await screen.findByText('ada@example.com')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Suspend' })).toBeEnabled();
  });

  it('admin: everything is there, switched on, with no reason beside it', async () => {
    stubConsole('admin');
    renderAdmin('/admin/users/u2/show');
    await screen.findByText('helper@example.com');
    const edit = await screen.findByRole('link', { name: 'Edit' });
    expect(edit).not.toHaveAttribute('aria-disabled');
    for (const name of ['Delete', 'Download License', 'Sign out everywhere', 'Reissue license', 'Suspend']) {
      expect(await screen.findByRole('button', { name })).toBeEnabled();
    }
    expect(await screen.findByRole('button', { name: 'Grant or deduct credits' })).toBeEnabled();
    const packs = await screen.findByRole('table', { name: /credit packs/i });
    expect(await within(packs).findByRole('button', { name: 'Refund' })).toBeEnabled();
    expect(screen.getByRole('menuitem', { name: 'Release' })).toBeInTheDocument();
    expect(screen.queryByText(/^Only admins can/)).not.toBeInTheDocument();
    expect(screen.queryByText(STAFF_TARGET_REFUSAL.message)).not.toBeInTheDocument();
  });

  it('admin: Export of every user is on', async () => {
    stubConsole('admin');
    renderAdmin('/admin/users');
    await screen.findByText('ada@example.com');
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled();
    expect(screen.queryByText(/^Only admins can/)).not.toBeInTheDocument();
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
