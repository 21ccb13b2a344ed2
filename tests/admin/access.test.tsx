import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../contract/user';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { currentLocation, json, stubFetch } from '../portal/render';
import {
  admin,
  ada,
  emptyUsage,
  expectNotification,
  listPage,
  noAccountDetails,
  noInsights,
  renderAdmin,
  signedInAdmin,
  setUpAdminTests,
} from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), saveFile: vi.fn() };
});

setUpAdminTests();
beforeEach(() => vi.mocked(assignLocation).mockReset());

const user: CurrentUser = { ...admin, id: 'u1', username: 'ada', isAdmin: false };
const signedOut = () => json({ error: 'Unauthorized', message: 'Authentication required' }, 401, 'Unauthorized');
const metrics = () => json({ userStats: { totalUsers: 3 } });
const insights = () => json(noInsights());

const adminsOnly = () => json({ error: 'forbidden', message: 'Admins only' }, 403, 'Forbidden');

/**
 * The session changes once the console is open: `GET /api/user` answered the admin when the page
 * loaded (its one read, shared by the portal's guard and react-admin), `later` from then on, and
 * the console's calls are refused as the server refuses them after the change (`refused`).
 */
function sessionChangesTo(later: () => Response, refused: () => Response) {
  let first = true;
  return {
    'GET /api/user': () => {
      const response = first ? json(admin) : later();
      first = false;
      return response;
    },
    'GET /api/admin/grove-metrics': refused,
    'GET /api/admin/insights': refused,
  };
}

const userReads = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls.filter(([url, init]) => String(url) === '/api/user' && (init?.method ?? 'GET') === 'GET').length;

describe('who may open /admin (§2, §6)', () => {
  it('sends a signed-out visitor to / (the download page)', async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/current-sage-build': () => json({}, 404, 'Not Found') });
    renderAdmin('/admin/users');
    await waitFor(() => expect(currentLocation()).toBe('/download'));
  });

  it('sends a signed-in non-admin to /dashboard', async () => {
    stubFetch({ 'GET /api/user': () => json(user) });
    renderAdmin('/admin');
    await waitFor(() => expect(currentLocation()).toBe('/dashboard'));
    expect(screen.queryByText('Grove Users')).not.toBeInTheDocument();
  });

  it('opens the console for an admin', async () => {
    stubFetch({ ...signedInAdmin, 'GET /api/admin/grove-metrics': metrics, 'GET /api/admin/insights': insights });
    renderAdmin('/admin');
    expect(await screen.findByText('Grove Users')).toBeInTheDocument();
    expect(currentLocation()).toBe('/admin');
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('reads the current user once per page load, however many pages the admin opens', async () => {
    const fetch = stubFetch({
      ...signedInAdmin,
      'GET /api/admin/grove-metrics': metrics,
      'GET /api/admin/insights': insights,
      'GET /api/admin/users': () => listPage('users', [ada], 1),
      'GET /api/admin/audit': () => listPage('audit', [], 0),
    });
    renderAdmin('/admin');
    expect(await screen.findByText('Grove Users')).toBeInTheDocument();
    for (const [item, path] of [
      ['Release', '/admin/release'],
      ['Search', '/admin/search'],
      ['Find Message', '/admin/find-message'],
      ['User List', '/admin/users'],
      ['Audit Log', '/admin/audit'],
      ['Home', '/admin'],
    ] as const) {
      await userEvent.click(screen.getByRole('menuitem', { name: item }));
      await waitFor(() => expect(currentLocation()).toBe(path));
    }
    expect(userReads(fetch)).toBe(1);
    expect(assignLocation).not.toHaveBeenCalled();
  });
});

describe('when the session changes while the console is open', () => {
  it('sends a demoted admin to the portal’s /dashboard, keeping their session', async () => {
    const fetch = stubFetch(sessionChangesTo(() => json(user), adminsOnly));
    renderAdmin('/admin');
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/dashboard'));
    expect(fetch.mock.calls.some(([url]) => String(url) === '/api/logout')).toBe(false);
  });

  it('sends a signed-out admin to /', async () => {
    stubFetch(sessionChangesTo(signedOut, signedOut));
    renderAdmin('/admin');
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/'));
  });

  it('leaves for / when a call answers 401', async () => {
    let signedIn = true;
    stubFetch({
      'GET /api/user': () => (signedIn ? json(admin) : signedOut()),
      'GET /api/admin/grove-metrics': metrics,
      'GET /api/admin/insights': insights,
      'GET /api/admin/users/u1': () => {
        signedIn = false;
        return signedOut();
      },
    });
    renderAdmin('/admin/users/u1/show');
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/'));
  });

  it('stays when a call answers 403', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/users/u1': () => json(ada),
      'GET /api/admin/users/u1/ai-history': () => json({ error: 'Forbidden', message: 'Admins only' }, 403, 'Forbidden'),
      'GET /api/admin/users/u1/details': () => json(noAccountDetails),
      ...emptyUsage('u1'),
    });
    renderAdmin('/admin/users/u1/show');
    await expectNotification('Failed to fetch AI history', 'Admins only');
    expect(assignLocation).not.toHaveBeenCalled();
    expect(currentLocation()).toBe('/admin/users/u1/show');
  });

  it('Logout ends the session and goes to /', async () => {
    const fetch = stubFetch({
      ...signedInAdmin,
      'GET /api/admin/grove-metrics': metrics,
      'GET /api/admin/insights': insights,
      'POST /api/logout': () => json({ ok: true }),
    });
    renderAdmin('/admin');
    await userEvent.click(await screen.findByRole('button', { name: /^Profile/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/'));
    expect(fetch.mock.calls.some(([url, init]) => String(url) === '/api/logout' && init?.method === 'POST')).toBe(true);
  });
});
