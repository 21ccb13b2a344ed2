import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, type AccountDetails } from '../../contract/admin';
import { STAFF_TARGET_REFUSAL } from '../../contract/staffRoles';
import { UserShow } from '../../src/admin/users/UserShow';
import { formatDateTime } from '../../src/ui/format';
import type * as BrowserModule from '../../src/browser';
import { saveFile } from '../../src/browser';
import { currentLocation, json, stubFetch } from '../portal/render';
import {
  admin as signedInAdminUser,
  ada,
  emptyUsage,
  expectNotification,
  listPage,
  noAccountDetails,
  renderConsolePage,
  signedInAdmin,
  setUpAdminTests,
} from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), saveFile: vi.fn() };
});

setUpAdminTests({ wholeConsole: false });

/** The user's page (UserShow) at `/admin/users/{id}/show`, without the rest of the console. */
const renderUserPage = (id = 'u1') =>
  renderConsolePage(<UserShow />, { path: `/admin/users/${id}/show`, route: '/users/:id/show', resource: 'users' });
beforeEach(() => vi.mocked(saveFile).mockReset());

const thread = (n: number) => ({
  id: `t${n}`,
  created_at: `2026-03-${String(n + 1).padStart(2, '0')}T12:00:00.000Z`,
  messages: [
    { role: 'user', content: `How do I spawn actor ${n}?` },
    { role: 'assistant', content: `Use SpawnActor ${n}.` },
  ],
});

type Routes = Parameters<typeof stubFetch>[0];

const adaDetails: AccountDetails = {
  activeSessions: 2,
  lastSignInAt: '2026-03-05T14:03:00.000Z',
  lastSignInMethod: 'epic',
  subscriptions: [
    {
      id: 'sub_1',
      productName: 'Sage Pro',
      status: 'trialing',
      unitAmount: 1999,
      currency: 'usd',
      interval: 'month',
      intervalCount: 1,
      currentPeriodEnd: '2026-04-05T10:00:00.000Z',
      trialEnd: '2026-03-12T10:00:00.000Z',
      cancelAt: null,
    },
  ],
  creditBalance: 1380,
  storedMessages: 42,
  memberships: [{ orgId: 'o1', name: 'Grove Studio', role: 'admin', joinedAt: '2026-03-01T09:00:00.000Z' }],
};

function stubUser(routes: Routes = {}) {
  return stubFetch({
    ...signedInAdmin,
    'GET /api/admin/users/u1': () => json(ada),
    'GET /api/admin/users/u1/ai-history': () => json({ threads: [thread(0), thread(1)] }),
    'GET /api/admin/users/u1/details': () => json(adaDetails),
    ...emptyUsage('u1'),
    ...routes,
  });
}

async function openUser() {
  renderUserPage();
  return screen.findByText('u1');
}

const historyPanel = () => screen.findByRole('region', { name: 'AI Chat History' });

describe('A user’s page (§2, §3)', () => {
  it('shows the account, and no license token (issue 36)', async () => {
    stubUser();
    await openUser();
    expect(screen.getByText('ada')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.queryByText('License Token')).not.toBeInTheDocument();
  });

  it('offers support no license download, and no writes on a member of staff (issues 36, 37)', async () => {
    stubUser({
      'GET /api/user': () => json({ ...signedInAdminUser, staffRole: 'support' }),
      'GET /api/admin/users/u1': () => json({ ...ada, isAdmin: true, role: 'admin' }),
    });
    await openUser();
    // Shown switched off, each read with its reason (issue 37), rather than missing.
    const download = await screen.findByRole('button', { name: 'Download License' });
    await waitFor(() => expect(download).toBeDisabled());
    expect(download).toHaveAccessibleDescription('Only admins can download licenses');
    for (const name of ['Reissue license', 'Sign out everywhere', 'Suspend']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
      expect(screen.getByRole('button', { name })).toHaveAccessibleDescription(STAFF_TARGET_REFUSAL.message);
    }
  });

  it('saves the license file under the name the server gives', async () => {
    const fetch = stubUser({
      'GET /api/sage/u1/license': () =>
        new Response('{"payload":{}}', { headers: { 'content-disposition': 'attachment; filename="sage-license-u1.json"' } }),
    });
    await openUser();
    await userEvent.click(await screen.findByRole('button', { name: 'Download License' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    const [blob, filename] = vi.mocked(saveFile).mock.calls[0]!;
    expect(filename).toBe('sage-license-u1.json');
    expect(await blob.text()).toBe('{"payload":{}}');
    const url = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.includes('/license'));
    expect(url).toBe('/api/sage/u1/license?download=true');
  });

  it('shows each AI thread with its time, assistant messages set apart', async () => {
    stubUser();
    await openUser();
    const panel = await historyPanel();
    const threads = await within(panel).findAllByRole('article');
    expect(threads).toHaveLength(2);
    expect(within(threads[0]!).getByText('2026', { exact: false })).toHaveAttribute('datetime', '2026-03-01T12:00:00.000Z');
    const question = within(threads[0]!).getByText('How do I spawn actor 0?').parentElement!;
    const answer = within(threads[0]!).getByText('Use SpawnActor 0.').parentElement!;
    expect(question).toHaveAttribute('data-role', 'user');
    expect(answer).toHaveAttribute('data-role', 'assistant');
    expect(getComputedStyle(answer).backgroundColor).not.toBe(getComputedStyle(question).backgroundColor);
  });

  it('shows at most the first 10 threads', async () => {
    stubUser({ 'GET /api/admin/users/u1/ai-history': () => json({ threads: Array.from({ length: 12 }, (_, n) => thread(n)) }) });
    await openUser();
    const panel = await historyPanel();
    expect(await within(panel).findAllByRole('article')).toHaveLength(10);
  });

  it('says when there is no chat history', async () => {
    stubUser({ 'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }) });
    await openUser();
    const panel = await historyPanel();
    expect(await within(panel).findByText('No chat history available. The threads may have expired or been deleted.')).toBeInTheDocument();
  });

  it('says when the chat history cannot be read', async () => {
    stubUser({
      'GET /api/admin/users/u1/ai-history': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    await openUser();
    const panel = await historyPanel();
    expect(await within(panel).findByText('Failed to fetch AI history')).toBeInTheDocument();
    await expectNotification('Failed to fetch AI history');
  });

  it('deletes the user after confirmation and goes to the list', async () => {
    const fetch = stubUser({
      'DELETE /api/admin/users/u1': () => json(ada),
      'GET /api/admin/users': () => listPage('users', [], 0),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await expectNotification('User deleted successfully');
    await waitFor(() => expect(currentLocation()).toBe('/admin/users'));
  });

  it('says the user could not be deleted, with the server’s reason', async () => {
    stubUser({
      'DELETE /api/admin/users/u1': () => json({ error: 'Bad Request', message: ADMIN_MESSAGES.selfDeletion }, 400, 'Bad Request'),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await expectNotification('Error', 'Failed to delete user', ADMIN_MESSAGES.selfDeletion);
    expect(currentLocation()).toBe('/admin/users/u1/show');
  });
});

const accountPanel = () => screen.findByRole('region', { name: 'Account' });
/** The value the panel's description list gives for `label`. */
const detail = (panel: HTMLElement, label: string) => within(panel).getByText(label).nextElementSibling?.textContent;

describe('A user’s account details (issue 14)', () => {
  it('shows the sessions, last sign-in, credits, stored messages and subscriptions', async () => {
    stubUser();
    await openUser();
    const panel = await accountPanel();
    await within(panel).findByText('Active sessions');
    expect(detail(panel, 'Active sessions')).toBe('2');
    expect(detail(panel, 'Last sign-in')).toBe(`${formatDateTime('2026-03-05T14:03:00.000Z')} with Epic`);
    expect(detail(panel, 'Credit balance')).toBe('1,380');
    expect(detail(panel, 'Stored messages')).toBe('42');
    expect(detail(panel, 'Organisations')).toMatch(/^Grove Studio \(admin, since .+\)$/);

    const table = within(panel).getByRole('table', { name: 'Subscriptions' });
    const [header, row] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Product', 'Status', 'Price', 'Current period ends', 'Trial ends']);
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'Sage Pro',
      'Trial',
      '$19.99/month',
      formatDateTime('2026-04-05T10:00:00.000Z'),
      formatDateTime('2026-03-12T10:00:00.000Z'),
    ]);
  });

  it('says Never for a user who has not signed in, and that there are no subscriptions', async () => {
    stubUser({ 'GET /api/admin/users/u1/details': () => json(noAccountDetails) });
    await openUser();
    const panel = await accountPanel();
    await within(panel).findByText('Last sign-in');
    expect(detail(panel, 'Last sign-in')).toBe('Never');
    expect(detail(panel, 'Active sessions')).toBe('0');
    expect(within(panel).getByText('No subscriptions')).toBeInTheDocument();
    expect(within(panel).queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when the account details cannot be read', async () => {
    stubUser({ 'GET /api/admin/users/u1/details': () => json({ error: 'internal', message: 'boom' }, 500, 'Internal Server Error') });
    await openUser();
    const panel = await accountPanel();
    expect(await within(panel).findByText('Failed to fetch account details')).toBeInTheDocument();
    await expectNotification('Failed to fetch account details');
  });
});

describe('Reissue license and Sign out everywhere (issue 14)', () => {
  const posts = (fetch: ReturnType<typeof stubUser>, path: string) =>
    fetch.mock.calls.filter(([url, init]) => String(url) === path && init?.method === 'POST').length;

  it('reissues the license after confirmation', async () => {
    const fetch = stubUser({
      'POST /api/admin/users/u1/license/reissue': () => json(ada),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Reissue license' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reissue the license of ada@example.com?' });
    expect(
      within(dialog).getByText(/The current token stops working at once: the plugin will ask ada@example.com to sign in again/),
    ).toBeInTheDocument();
    expect(posts(fetch, '/api/admin/users/u1/license/reissue')).toBe(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await expectNotification('License reissued. The old token no longer works.');
    expect(posts(fetch, '/api/admin/users/u1/license/reissue')).toBe(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('does nothing when the confirmation is cancelled', async () => {
    const fetch = stubUser();
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Reissue license' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(fetch, '/api/admin/users/u1/license/reissue')).toBe(0);
  });

  it('says the license could not be reissued, with the server’s reason', async () => {
    stubUser({
      'POST /api/admin/users/u1/license/reissue': () =>
        json({ error: 'not_found', message: ADMIN_MESSAGES.userNotFound }, 404, 'Not Found'),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Reissue license' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await expectNotification('Error', 'Failed to reissue license', ADMIN_MESSAGES.userNotFound);
  });

  it('signs the user out everywhere from the keyboard, then shows the sessions left', async () => {
    let sessions = 2;
    const fetch = stubUser({
      'GET /api/admin/users/u1/details': () => json({ ...adaDetails, activeSessions: sessions }),
      'POST /api/admin/users/u1/sessions/revoke': () => {
        const ended = sessions;
        sessions = 0;
        return json({ ended });
      },
    });
    await openUser();
    const panel = await accountPanel();
    await waitFor(() => expect(detail(panel, 'Active sessions')).toBe('2'));

    screen.getByRole('button', { name: 'Sign out everywhere' }).focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Sign ada@example.com out everywhere?' });
    expect(
      within(dialog).getByText('Every session of ada@example.com ends now, in every browser. They can sign in again.'),
    ).toBeInTheDocument();
    expect(posts(fetch, '/api/admin/users/u1/sessions/revoke')).toBe(0);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Confirm' })).toHaveFocus());
    await userEvent.keyboard('{Enter}');

    await expectNotification('Signed out everywhere: 2 sessions ended');
    await waitFor(() => expect(detail(panel, 'Active sessions')).toBe('0'));
    expect(posts(fetch, '/api/admin/users/u1/sessions/revoke')).toBe(1);
  });

  it('says the user could not be signed out', async () => {
    stubUser({
      'POST /api/admin/users/u1/sessions/revoke': () => json({ error: 'internal', message: 'boom' }, 500, 'Internal Server Error'),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await expectNotification('Error', 'Failed to sign the user out', 'boom');
  });
});
