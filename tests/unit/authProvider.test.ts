import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffRole } from '../../contract/staffRoles';
import type { CurrentUser } from '../../contract/user';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../../src/api/queryClient';
import { createAuthProvider } from '../../src/authProvider/authProvider';
import { USER_QUERY_KEY } from '../../src/authProvider/session';
import { assignLocation } from '../../src/browser';
import { jsonResponse, stubFetchWith } from './fetchStub';

vi.mock('../../src/browser', () => ({ assignLocation: vi.fn(), closeWindow: vi.fn(), saveFile: vi.fn() }));

const user: CurrentUser = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false, staffRole: null };
const admin: CurrentUser = { ...user, id: 'a1', username: 'root', isAdmin: true, staffRole: 'admin' };
const signedOut = () => jsonResponse({ error: 'Unauthorized', message: 'Authentication required' }, 401, 'Unauthorized');

/** A fetch that answers `responses` in turn. */
function answers(...responses: (() => Response)[]) {
  const queue = [...responses];
  return stubFetchWith(() => {
    const next = queue.shift();
    if (!next) throw new Error('unexpected fetch');
    return next();
  });
}

const calls = (spy: ReturnType<typeof stubFetchWith>) => spy.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

// A page load: the portal's query client, empty, and the console's authProvider over it.
let queryClient: QueryClient;
let authProvider: ReturnType<typeof createAuthProvider>;
beforeEach(() => {
  vi.mocked(assignLocation).mockReset();
  queryClient = createQueryClient();
  authProvider = createAuthProvider(queryClient);
});
afterEach(() => vi.unstubAllGlobals());

describe('checkAuth (§2, §6)', () => {
  it('lets an admin in', async () => {
    const spy = answers(() => jsonResponse(admin));
    await expect(authProvider.checkAuth()).resolves.toBeUndefined();
    expect(calls(spy)).toEqual(['GET /api/user']);
  });

  it.each<[string, () => Response, string]>([
    ['a signed-out visitor', signedOut, '/'],
    ['a signed-in non-admin', () => jsonResponse(user), '/dashboard'],
  ])('sends %s to %s, without a notification', async (_who, response, redirectTo) => {
    answers(response);
    await expect(authProvider.checkAuth()).rejects.toEqual({ redirectTo, message: false });
  });

  it('fails when the session cannot be read', async () => {
    answers(() => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(authProvider.checkAuth()).rejects.toThrow('503: Service Unavailable');
  });
});

describe('checkError', () => {
  it('ends the console on a 401', async () => {
    await expect(authProvider.checkError({ status: 401, message: 'Authentication required' })).rejects.toEqual({
      redirectTo: '/',
      message: false,
    });
  });

  it.each([403, 400, 404, 409, 500])('stays on a %i', async (status) => {
    await expect(authProvider.checkError({ status, message: 'no' })).resolves.toBeUndefined();
  });

  it('stays on an error without a status', async () => {
    await expect(authProvider.checkError(new TypeError('Failed to fetch'))).resolves.toBeUndefined();
  });
});

describe('logout: where the browser goes, outside react-admin’s /admin', () => {
  it('ends an admin’s session, then goes to /', async () => {
    const spy = answers(
      () => jsonResponse(admin),
      () => jsonResponse({ ok: true }),
    );
    await expect(authProvider.logout()).resolves.toBe(false);
    expect(calls(spy)).toEqual(['GET /api/user', 'POST /api/logout']);
    expect(assignLocation).toHaveBeenCalledWith('/');
  });

  it('sends a non-admin to the portal’s /dashboard and keeps their session', async () => {
    const spy = answers(() => jsonResponse(user));
    await expect(authProvider.logout()).resolves.toBe(false);
    expect(calls(spy)).toEqual(['GET /api/user']);
    expect(assignLocation).toHaveBeenCalledWith('/dashboard');
  });

  it.each<[string, () => Response]>([
    ['a signed-out visitor', signedOut],
    ['an unreadable session', () => new Response('', { status: 500, statusText: 'Internal Server Error' })],
  ])('sends %s to /', async (_who, response) => {
    const spy = answers(response);
    await expect(authProvider.logout()).resolves.toBe(false);
    expect(calls(spy)).toEqual(['GET /api/user']);
    expect(assignLocation).toHaveBeenCalledWith('/');
  });
});

describe('identity and permissions', () => {
  it('names the user by username, with the e-mail', async () => {
    answers(() => jsonResponse(admin));
    await expect(authProvider.getIdentity()).resolves.toEqual({ id: 'a1', fullName: 'root', email: 'ada@example.com' });
  });

  it('has no identity when signed out', async () => {
    answers(signedOut);
    await expect(authProvider.getIdentity()).rejects.toThrow();
  });

  it.each<[string, () => Response, boolean, StaffRole | null]>([
    ['an admin', () => jsonResponse(admin), true, 'admin'],
    ['a support team member', () => jsonResponse({ ...admin, staffRole: 'support' }), true, 'support'],
    ['a user', () => jsonResponse(user), false, null],
    ['a visitor', signedOut, false, null],
  ])('gives %s isAdmin %s and role %s', async (_who, response, isAdmin, role) => {
    answers(response);
    await expect(authProvider.getPermissions()).resolves.toEqual({ isAdmin, role });
  });
});

describe('one current user per page load, shared with the portal', () => {
  it('asks GET /api/user once, however many checks react-admin runs', async () => {
    const spy = answers(() => jsonResponse(admin));
    // react-admin checks on every route change, and asks for the identity and the permissions.
    await Promise.all([authProvider.checkAuth(), authProvider.getIdentity(), authProvider.getPermissions()]);
    for (let route = 0; route < 5; route++) await authProvider.checkAuth();
    await authProvider.getIdentity();
    await authProvider.getPermissions();
    expect(calls(spy)).toEqual(['GET /api/user']);
  });

  it('asks nothing when the portal already read the user', async () => {
    queryClient.setQueryData(USER_QUERY_KEY, admin);
    const spy = answers();
    await expect(authProvider.checkAuth()).resolves.toBeUndefined();
    await expect(authProvider.getPermissions()).resolves.toEqual({ isAdmin: true, role: 'admin' });
    expect(calls(spy)).toEqual([]);
  });

  it('a 401 from any call marks the user signed out, then logout sends the browser to / without another call', async () => {
    queryClient.setQueryData(USER_QUERY_KEY, admin);
    const spy = answers();
    await expect(authProvider.checkError({ status: 401, code: 'unauthorized', message: 'Authentication required' })).rejects.toEqual({
      redirectTo: '/',
      message: false,
    });
    expect(queryClient.getQueryData(USER_QUERY_KEY)).toBeNull();
    await expect(authProvider.logout()).resolves.toBe(false);
    expect(assignLocation).toHaveBeenCalledWith('/');
    expect(calls(spy)).toEqual([]);
  });

  it('an "Admins only" 403 reads the user again: a demoted admin goes to /dashboard', async () => {
    queryClient.setQueryData(USER_QUERY_KEY, admin);
    const spy = answers(() => jsonResponse(user));
    await expect(authProvider.checkError({ status: 403, code: 'forbidden', message: 'Admins only' })).rejects.toEqual({
      redirectTo: '/dashboard',
      message: false,
    });
    expect(queryClient.getQueryData(USER_QUERY_KEY)).toEqual(user);
    await authProvider.logout();
    expect(assignLocation).toHaveBeenCalledWith('/dashboard');
    expect(calls(spy)).toEqual(['GET /api/user']);
  });

  it('an "Admins only" 403 keeps an admin who still is one', async () => {
    queryClient.setQueryData(USER_QUERY_KEY, admin);
    const spy = answers(() => jsonResponse(admin));
    await expect(authProvider.checkError({ status: 403, code: 'forbidden', message: 'Admins only' })).resolves.toBeUndefined();
    expect(calls(spy)).toEqual(['GET /api/user']);
  });

  it('logout clears the cached user: the next read asks the server', async () => {
    const spy = answers(
      () => jsonResponse(admin),
      () => jsonResponse({ ok: true }),
      signedOut,
    );
    await authProvider.checkAuth();
    await authProvider.logout();
    expect(queryClient.getQueryData(USER_QUERY_KEY)).toBeUndefined();
    await expect(authProvider.checkAuth()).rejects.toEqual({ redirectTo: '/', message: false });
    expect(calls(spy)).toEqual(['GET /api/user', 'POST /api/logout', 'GET /api/user']);
  });
});
