import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '../../contract/admin';
import type { StaffRole } from '../../contract/staffRoles';
import { SUSPENSION_REASON_REQUIRED } from '../../contract/suspension';
import type * as BrowserModule from '../../src/browser';
import { saveFile } from '../../src/browser';
import { UserList } from '../../src/admin/users/UserList';
import { bodyOf, json, stubFetch } from '../portal/render';
import { ada, admin, expectNotification, listPage, renderConsolePage, setUpAdminTests } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), saveFile: vi.fn() };
});

setUpAdminTests({ wholeConsole: false });

/** The User List alone, at its address in the console. */
const renderList = () => renderConsolePage(<UserList />, { path: '/admin/users', resource: 'users' });
beforeEach(() => vi.mocked(saveFile).mockReset());

const grace: AdminUser = { ...ada, id: 'u2', username: 'grace', email: 'grace@example.com', status: 'Suspended' };
const root: AdminUser = { ...ada, id: admin.id, username: 'root', email: 'root@example.com', isAdmin: true, role: 'admin' };
const ALREADY = { error: 'already_suspended', message: 'This account is already suspended' };
const SELF = { error: 'self_suspension', message: 'You cannot suspend your own account' };

/** The User List of ada, grace (suspended) and the signed-in admin, with the server's single-user actions behind it. */
function stubList(role: StaffRole | null = 'admin') {
  const fetch = stubFetch({
    'GET /api/user': () => json({ ...admin, staffRole: role }),
    'GET /api/admin/users': () => listPage('users', [ada, grace, root], 3),
    'POST /api/admin/users/u1/suspend': () => json({ ...ada, status: 'Suspended' }),
    'POST /api/admin/users/u2/suspend': () => json(ALREADY, 409, 'Conflict'),
    [`POST /api/admin/users/${admin.id}/suspend`]: () => json(SELF, 400, 'Bad Request'),
    'POST /api/admin/users/u1/reinstate': () => json(ada),
    'POST /api/admin/users/u2/reinstate': () => json({ ...grace, status: 'Active' }),
    'POST /api/admin/users/u1/sessions/revoke': () => json({ ended: 2 }),
    'POST /api/admin/users/u2/sessions/revoke': () => json({ ended: 0 }),
    [`POST /api/admin/users/${admin.id}/sessions/revoke`]: () => json({ ended: 1 }),
    'POST /api/admin/users/export': () =>
      new Response('id,username\r\nu1,ada\r\nu2,grace\r\n', {
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="users-selected.csv"' },
      }),
  });
  const posts = (path: string) => fetch.mock.calls.filter(([url, init]) => String(url) === path && init?.method === 'POST');
  const listReads = () => fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/admin/users?')).length;
  return { posts, listReads };
}

async function openList() {
  renderList();
  await screen.findByText('grace@example.com');
}

/** Ticks the rows of these e-mails. */
async function select(...emails: string[]) {
  for (const email of emails) {
    const row = screen.getByText(email).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('checkbox', { name: 'Select this row' }));
  }
}

/** The rows ticked. */
const ticked = () =>
  screen.queryAllByRole('checkbox', { name: 'Select this row' }).filter((box) => (box as HTMLInputElement).checked).length;

describe('User List bulk actions (issue 28)', () => {
  it('suspends the selected users with one reason, and lists the ones refused with the server’s reason', async () => {
    const { posts, listReads } = stubList();
    await openList();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByText('3 items selected')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend 3 users?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await within(dialog).findByText(SUSPENSION_REASON_REQUIRED)).toBeInTheDocument();
    expect(posts('/api/admin/users/u1/suspend')).toHaveLength(0);

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Chargebacks');
    const reads = listReads();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));

    const outcome = await within(dialog).findByRole('status');
    expect(outcome).toHaveTextContent('Suspended 1 of 3 users.');
    expect(outcome).toHaveTextContent('Not done for 2 users:');
    const reasons = within(outcome)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(reasons).toEqual([
      'grace@example.com: This account is already suspended',
      'root@example.com: You cannot suspend your own account',
    ]);
    for (const id of ['u1', 'u2', admin.id])
      expect(bodyOf(posts(`/api/admin/users/${id}/suspend`)[0]?.[1])).toEqual({ reason: 'Chargebacks' });
    await waitFor(() => expect(listReads()).toBeGreaterThan(reads));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(ticked()).toBe(0);
  });

  it('reinstates the selected users, says how many, and clears the selection', async () => {
    const { posts } = stubList();
    await openList();
    await select('ada@example.com', 'grace@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Reinstate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reinstate 2 users?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reinstate' }));
    await expectNotification('2 users reinstated.');
    expect(posts('/api/admin/users/u1/reinstate')).toHaveLength(1);
    expect(posts('/api/admin/users/u2/reinstate')).toHaveLength(1);
    expect(posts(`/api/admin/users/${admin.id}/reinstate`)).toHaveLength(0);
    await waitFor(() => expect(ticked()).toBe(0));
  });

  it('signs the selected users out everywhere after a confirmation that counts them; Cancel does nothing', async () => {
    const { posts } = stubList();
    await openList();
    await select('ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    let dialog = await screen.findByRole('dialog', { name: 'Sign 1 user out everywhere?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts('/api/admin/users/u1/sessions/revoke')).toHaveLength(0);
    expect(ticked()).toBe(1);

    await select('grace@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    dialog = await screen.findByRole('dialog', { name: 'Sign 2 users out everywhere?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await expectNotification('2 users signed out everywhere.');
    expect(posts('/api/admin/users/u1/sessions/revoke')).toHaveLength(1);
    expect(posts('/api/admin/users/u2/sessions/revoke')).toHaveLength(1);
  });

  it('signs one’s own account out only after every other selected user', async () => {
    const { posts } = stubList();
    await openList();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign 3 users out everywhere?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await expectNotification('3 users signed out everywhere.');
    const order = (path: string) => posts(path).map((call) => vi.mocked(fetch).mock.calls.indexOf(call))[0] ?? -1;
    const own = order(`/api/admin/users/${admin.id}/sessions/revoke`);
    expect(own).toBeGreaterThan(order('/api/admin/users/u1/sessions/revoke'));
    expect(own).toBeGreaterThan(order('/api/admin/users/u2/sessions/revoke'));
  });

  it('exports the selected users as CSV after a confirmation that counts them', async () => {
    const { posts } = stubList();
    await openList();
    await select('ada@example.com', 'grace@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Export selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export 2 users?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
    await expectNotification('Exported 2 users to users-selected.csv');
    expect(bodyOf(posts('/api/admin/users/export')[0]?.[1])).toEqual({ ids: ['u1', 'u2'] });
    const [blob, filename] = vi.mocked(saveFile).mock.calls[0] ?? [];
    expect(filename).toBe('users-selected.csv');
    expect(await (blob as Blob).text()).toBe('id,username\r\nu1,ada\r\nu2,grace\r\n');
    await waitFor(() => expect(ticked()).toBe(0));
  });

  it('offers support every bulk action (support may suspend, sign out and export selected users)', async () => {
    stubList('support');
    await openList();
    await select('ada@example.com');
    for (const name of ['Suspend', 'Reinstate', 'Sign out everywhere', 'Export selected'])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
  });

  it('shows a member of staff without a role no checkboxes and no bulk actions', async () => {
    stubList(null);
    await openList();
    expect(screen.queryByRole('checkbox', { name: 'Select all' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select this row' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export selected' })).not.toBeInTheDocument();
  });
});
