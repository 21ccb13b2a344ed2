/**
 * Every admin route called with valid input as a stranger, a user and an admin, and with invalid
 * input: who is asked first, what an admin gets, uncached. The calls are written by hand (each needs
 * its own valid input); the router's own list of routes (routeList.ts) says which ones they must cover.
 */
import { describe, expect, it, vi } from 'vitest';
import { isAdminRoute } from '../../server/routes/access';
import { insertUsers, listUrl, signedInAdmin, signedInUser, userRow } from './adminFlow';
import { databases, errorBody, useTestServer, type TestClient, type TestServer } from './harness';
import { registeredRoutes } from './routeList';

// The app's own onRoute hook, added before anything else is registered, sees every route.
vi.mock('fastify', async () => (await import('./routeList')).fastifyWithRouteList());

type Method = Parameters<TestClient['request']>[0];

/** The user an endpoint acts on: another account, inserted for each test. */
interface Ctx {
  targetId: string;
}

/** A JSON body, or one that names the target. */
type Body = Record<string, unknown> | ((ctx: Ctx) => Record<string, unknown>);

interface Call {
  method: Method;
  path: (ctx: Ctx) => string;
  body?: Body;
}

interface Endpoint extends Call {
  name: string;
  /** The route it calls, `METHOD url` as the router lists it (as each route's `access.staff` declaration is keyed in the tests' route list). */
  route: string;
  /** What an admin gets for this valid call: 2xx, or the documented 4xx… */
  adminStatus: number;
  /** …with this code. */
  adminError?: string;
  /** Input the endpoint refuses with 400 (null: it takes none). */
  invalid: Call | null;
}

const RELEASE = {
  version: '2026-02-02a',
  ue55Url: 'https://cdn.example.com/55.zip',
  ue56Url: 'https://cdn.example.com/56.zip',
  ue57Url: 'https://cdn.example.com/57.zip',
};
const UPDATE = { username: 'renamed-by-admin', email: 'renamed-by-admin@example.com', status: 'Active', isAdmin: false };

/** Every `/api/admin/*` route, at least once: product §7, issues 5, 14, 26 and 28. */
const ENDPOINTS: Endpoint[] = [
  {
    name: 'GET grove-metrics',
    route: 'GET /api/admin/grove-metrics',
    method: 'GET',
    path: () => '/api/admin/grove-metrics',
    adminStatus: 200,
    invalid: null,
  },
  {
    name: 'GET insights',
    route: 'GET /api/admin/insights',
    method: 'GET',
    path: () => '/api/admin/insights?days=7',
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/insights?days=14' },
  },
  {
    name: 'GET plugin-versions',
    route: 'GET /api/admin/plugin-versions',
    method: 'GET',
    path: () => '/api/admin/plugin-versions',
    adminStatus: 200,
    invalid: null,
  },
  {
    name: 'GET users (list)',
    route: 'GET /api/admin/users',
    method: 'GET',
    path: () => listUrl('users', { sort: ['username', 'ASC'], range: [0, 4], filter: {} }),
    adminStatus: 200,
    invalid: { method: 'GET', path: () => listUrl('users', { range: [4, 0] }) },
  },
  {
    name: 'GET users/search',
    route: 'GET /api/admin/users/search',
    method: 'GET',
    path: () => '/api/admin/users/search?query=someone',
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/search?query=' },
  },
  {
    name: 'GET users/export',
    route: 'GET /api/admin/users/export',
    method: 'GET',
    path: () => '/api/admin/users/export',
    adminStatus: 200,
    invalid: null,
  },
  {
    name: 'GET users/:id',
    route: 'GET /api/admin/users/:id',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20' },
  },
  {
    name: 'PUT users/:id',
    route: 'PUT /api/admin/users/:id',
    method: 'PUT',
    path: (c) => `/api/admin/users/${c.targetId}`,
    body: UPDATE,
    adminStatus: 200,
    invalid: { method: 'PUT', path: (c) => `/api/admin/users/${c.targetId}`, body: { username: '' } },
  },
  {
    name: 'DELETE users/:id',
    route: 'DELETE /api/admin/users/:id',
    method: 'DELETE',
    path: (c) => `/api/admin/users/${c.targetId}`,
    adminStatus: 200,
    invalid: { method: 'DELETE', path: () => '/api/admin/users/%20' },
  },
  {
    name: 'GET users/:id/ai-history',
    route: 'GET /api/admin/users/:id/ai-history',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/ai-history`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20/ai-history' },
  },
  {
    name: 'GET users/:id/details',
    route: 'GET /api/admin/users/:id/details',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/details`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20/details' },
  },
  {
    name: 'POST users/:id/license/reissue',
    route: 'POST /api/admin/users/:id/license/reissue',
    method: 'POST',
    path: (c) => `/api/admin/users/${c.targetId}/license/reissue`,
    adminStatus: 200,
    invalid: { method: 'POST', path: () => '/api/admin/users/%20/license/reissue' },
  },
  {
    name: 'POST users/:id/sessions/revoke',
    route: 'POST /api/admin/users/:id/sessions/revoke',
    method: 'POST',
    path: (c) => `/api/admin/users/${c.targetId}/sessions/revoke`,
    adminStatus: 200,
    invalid: { method: 'POST', path: () => '/api/admin/users/%20/sessions/revoke' },
  },
  {
    name: 'POST users/:id/second-factor/reset',
    route: 'POST /api/admin/users/:id/second-factor/reset',
    method: 'POST',
    path: (c) => `/api/admin/users/${c.targetId}/second-factor/reset`,
    body: { identityCheck: 'Called the number on file' },
    // The target has no two-step sign-in to reset: the documented 409.
    adminStatus: 409,
    adminError: 'second_factor_not_enrolled',
    invalid: { method: 'POST', path: (c) => `/api/admin/users/${c.targetId}/second-factor/reset`, body: { identityCheck: '' } },
  },
  {
    name: 'GET messages/search',
    route: 'GET /api/admin/messages/search',
    method: 'GET',
    // No message was stored for this session: the documented 404.
    path: () => '/api/admin/messages/search?sessionId=no-such-session&_t=1',
    adminStatus: 404,
    adminError: 'not_found',
    invalid: { method: 'GET', path: () => '/api/admin/messages/search?sessionId=' },
  },
  {
    name: 'GET messages/recent',
    route: 'GET /api/admin/messages/recent',
    method: 'GET',
    path: () => '/api/admin/messages/recent?limit=5&_t=1',
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/messages/recent?limit=0' },
  },
  {
    name: 'POST release-sage-build',
    route: 'POST /api/admin/release-sage-build',
    method: 'POST',
    path: () => '/api/admin/release-sage-build',
    body: RELEASE,
    adminStatus: 200,
    invalid: { method: 'POST', path: () => '/api/admin/release-sage-build', body: { version: '' } },
  },
  {
    name: 'GET builds',
    route: 'GET /api/admin/builds',
    method: 'GET',
    path: () => '/api/admin/builds',
    adminStatus: 200,
    invalid: null,
  },
  {
    name: 'POST builds/:version/withdraw',
    route: 'POST /api/admin/builds/:version/withdraw',
    method: 'POST',
    // A version never released: the call is authorized, and the build is not found.
    path: () => '/api/admin/builds/0.0.1/withdraw',
    body: { reason: 'Crashes on start' },
    adminStatus: 404,
    adminError: 'build_not_found',
    invalid: { method: 'POST', path: () => '/api/admin/builds/0.0.1/withdraw', body: { reason: '  ' } },
  },
  {
    name: 'GET audit',
    route: 'GET /api/admin/audit',
    method: 'GET',
    path: () => listUrl('audit', { sort: ['createdAt', 'DESC'], range: [0, 4], filter: {} }),
    adminStatus: 200,
    invalid: { method: 'GET', path: () => listUrl('audit', { range: [-5, -1] }) },
  },
  {
    name: 'GET audit (filtered)',
    route: 'GET /api/admin/audit',
    method: 'GET',
    path: (c) =>
      listUrl('audit', {
        sort: ['createdAt', 'ASC'],
        range: [0, 4],
        filter: { actor: 'someone@example.com', action: 'user.suspend', target: c.targetId, from: '2026-01-01', to: '2026-12-31' },
      }),
    adminStatus: 200,
    invalid: { method: 'GET', path: () => listUrl('audit', { filter: { from: '2026-02-01', to: '2026-01-01' } }) },
  },
  {
    name: 'POST users/:id/suspend',
    route: 'POST /api/admin/users/:id/suspend',
    method: 'POST',
    path: (c) => `/api/admin/users/${c.targetId}/suspend`,
    body: { reason: 'Payment disputed' },
    adminStatus: 200,
    invalid: { method: 'POST', path: (c) => `/api/admin/users/${c.targetId}/suspend`, body: { reason: '' } },
  },
  {
    name: 'POST users/:id/reinstate',
    route: 'POST /api/admin/users/:id/reinstate',
    method: 'POST',
    // The target is not suspended: the documented 409.
    path: (c) => `/api/admin/users/${c.targetId}/reinstate`,
    adminStatus: 409,
    adminError: 'not_suspended',
    invalid: { method: 'POST', path: () => '/api/admin/users/%20/reinstate' },
  },
  {
    name: 'GET users/:id/notes',
    route: 'GET /api/admin/users/:id/notes',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/notes`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20/notes' },
  },
  {
    name: 'POST users/:id/notes',
    route: 'POST /api/admin/users/:id/notes',
    method: 'POST',
    path: (c) => `/api/admin/users/${c.targetId}/notes`,
    body: { text: 'Asked about a refund by phone' },
    adminStatus: 200,
    invalid: { method: 'POST', path: (c) => `/api/admin/users/${c.targetId}/notes`, body: { text: ' ' } },
  },
  {
    name: 'PUT users/:id/notes/:noteId',
    route: 'PUT /api/admin/users/:id/notes/:noteId',
    method: 'PUT',
    // No such note: the documented 404.
    path: (c) => `/api/admin/users/${c.targetId}/notes/no-such-note`,
    body: { text: 'Corrected' },
    adminStatus: 404,
    adminError: 'not_found',
    invalid: { method: 'PUT', path: (c) => `/api/admin/users/${c.targetId}/notes/no-such-note`, body: { text: '' } },
  },
  {
    name: 'GET users/:id/usage',
    route: 'GET /api/admin/users/:id/usage',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/usage`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20/usage' },
  },
  {
    name: 'GET users/:id/usage/history',
    route: 'GET /api/admin/users/:id/usage/history',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/usage/history?days=90`,
    adminStatus: 200,
    invalid: { method: 'GET', path: (c) => `/api/admin/users/${c.targetId}/usage/history?days=7` },
  },
  {
    name: 'GET users/:id/usage.csv',
    route: 'GET /api/admin/users/:id/usage.csv',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/usage.csv`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20/usage.csv' },
  },
  {
    name: 'POST users/:id/credits (grant)',
    route: 'POST /api/admin/users/:id/credits',
    method: 'POST',
    path: (c) => `/api/admin/users/${c.targetId}/credits`,
    body: { amount: 50, reason: 'Goodwill after an outage' },
    adminStatus: 200,
    invalid: { method: 'POST', path: (c) => `/api/admin/users/${c.targetId}/credits`, body: { amount: 0, reason: 'Nothing' } },
  },
  {
    name: 'GET users/:id/credit-packs',
    route: 'GET /api/admin/users/:id/credit-packs',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/credit-packs`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20/credit-packs' },
  },
  {
    name: 'POST users/:id/credit-packs/:purchaseId/refund',
    route: 'POST /api/admin/users/:id/credit-packs/:purchaseId/refund',
    method: 'POST',
    // No such purchase: the documented 404, before Stripe is asked anything.
    path: (c) => `/api/admin/users/${c.targetId}/credit-packs/no-such-purchase/refund`,
    adminStatus: 404,
    adminError: 'not_found',
    invalid: { method: 'POST', path: (c) => `/api/admin/users/${c.targetId}/credit-packs/%20/refund` },
  },
  {
    name: 'POST users/export (selected)',
    route: 'POST /api/admin/users/export',
    method: 'POST',
    path: () => '/api/admin/users/export',
    body: (c) => ({ ids: [c.targetId] }),
    adminStatus: 200,
    invalid: { method: 'POST', path: () => '/api/admin/users/export', body: { ids: [] } },
  },
  // Organisations (issue 38): an id that names none is the documented 404 for an admin.
  {
    name: 'GET orgs',
    route: 'GET /api/admin/orgs',
    method: 'GET',
    path: () => '/api/admin/orgs',
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/orgs?range=oops' },
  },
  {
    name: 'GET orgs/:id',
    route: 'GET /api/admin/orgs/:id',
    method: 'GET',
    path: () => '/api/admin/orgs/no-such-org',
    adminStatus: 404,
    adminError: 'not_found',
    invalid: { method: 'GET', path: () => '/api/admin/orgs/%20' },
  },
  {
    name: 'POST orgs/:id/credits',
    route: 'POST /api/admin/orgs/:id/credits',
    method: 'POST',
    path: () => '/api/admin/orgs/no-such-org/credits',
    body: { amount: 50, reason: 'Goodwill after an outage' },
    adminStatus: 404,
    adminError: 'not_found',
    invalid: { method: 'POST', path: () => '/api/admin/orgs/no-such-org/credits', body: { amount: 0, reason: 'Nothing' } },
  },
];

const WITH_INPUT = ENDPOINTS.filter((e): e is Endpoint & { invalid: Call } => e.invalid !== null);

const bodyOf = (call: Call, ctx: Ctx) => (typeof call.body === 'function' ? call.body(ctx) : call.body);

const send = (client: TestClient, call: Call, ctx: Ctx) => {
  const body = bodyOf(call, ctx);
  return client.request(call.method, call.path(ctx), body === undefined ? {} : { json: body });
};

async function target(server: TestServer): Promise<Ctx> {
  const [row] = await insertUsers(server.db, [userRow()]);
  return { targetId: row!.id };
}

/** Every admin route of the apps built so far, as `METHOD url`, once (HEAD goes with GET). */
const adminRoutes = () => [
  ...new Set(registeredRoutes.filter((r) => isAdminRoute(r.url) && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`)),
];

/** Whether `path` (its query aside) is one the route's url matches. */
function reaches(route: string, method: Method, path: string): boolean {
  const [routeMethod, url = ''] = route.split(' ');
  const pattern = url.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+');
  return routeMethod === method && new RegExp(`^${pattern}$`).test(new URL(path, 'http://localhost').pathname);
}

/** Everything a refused call could have changed. */
async function snapshot(server: TestServer) {
  const tables = ['users', 'sessions', 'audit_log', 'user_notes', 'credit_ledger', 'sage_builds'] as const;
  const rows = await Promise.all(tables.map((t) => server.db.selectFrom(t).selectAll().execute()));
  return Object.fromEntries(tables.map((t, i) => [t, rows[i]]));
}

const UNAUTHORIZED = { error: 'unauthorized', message: 'Authentication required' };
const FORBIDDEN = { error: 'forbidden', message: 'Admins only' };

describe.each(databases)('admin authorization on $label', (database) => {
  const server = useTestServer(database);

  it('calls every admin route the router lists, and no route that is gone', () => {
    const listed = adminRoutes();
    expect(listed.length).toBeGreaterThan(25);
    const called = new Set(ENDPOINTS.map((e) => e.route));
    expect(listed.filter((route) => !called.has(route))).toEqual([]);
    expect([...called].filter((route) => !listed.includes(route))).toEqual([]);
  });

  it('sends each call, valid and invalid, to the route it names', () => {
    const ctx = { targetId: 'someone' };
    const astray = ENDPOINTS.flatMap((e) =>
      [e, ...(e.invalid ? [e.invalid] : [])].filter((call) => !reaches(e.route, call.method, call.path(ctx))).map(() => e.name),
    );
    expect(astray).toEqual([]);
  });

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name} answers 401 to a signed-out visitor`, async () => {
      const ctx = await target(server());
      const response = await send(server().client(), endpoint, ctx);
      expect(response.statusCode).toBe(401);
      expect(errorBody(response)).toEqual(UNAUTHORIZED);
    });
  }

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name} answers 401 to a cookie of no session`, async () => {
      const ctx = await target(server());
      const response = await send(server().client({ cookie: 'sage_session=not-a-session' }), endpoint, ctx);
      expect(response.statusCode).toBe(401);
      expect(errorBody(response)).toEqual(UNAUTHORIZED);
    });
  }

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name} answers 403 to a signed-in user who is not an admin`, async () => {
      const ctx = await target(server());
      const { client } = await signedInUser(server());
      const response = await send(client, endpoint, ctx);
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(FORBIDDEN);
    });
  }

  for (const endpoint of WITH_INPUT) {
    it(`${endpoint.name} checks who is asking before it validates the input`, async () => {
      const ctx = await target(server());
      const signedOut = await send(server().client(), endpoint.invalid, ctx);
      expect(signedOut.statusCode).toBe(401);
      expect(errorBody(signedOut)).toEqual(UNAUTHORIZED);

      const { client } = await signedInUser(server());
      const user = await send(client, endpoint.invalid, ctx);
      expect(user.statusCode).toBe(403);
      expect(errorBody(user)).toEqual(FORBIDDEN);
    });
  }

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name} answers an admin, uncached`, async () => {
      const ctx = await target(server());
      const { client } = await signedInAdmin(server());
      const response = await send(client, endpoint, ctx);
      expect(response.statusCode).toBe(endpoint.adminStatus);
      expect(response.headers['cache-control']).toBe('no-store');
      if (endpoint.adminStatus >= 400) expect(errorBody(response).error).toBe(endpoint.adminError);
      else expect(endpoint.adminError).toBeUndefined();
    });
  }

  for (const endpoint of WITH_INPUT) {
    it(`${endpoint.name} validates an admin’s input`, async () => {
      const ctx = await target(server());
      const { client } = await signedInAdmin(server());
      const response = await send(client, endpoint.invalid, ctx);
      expect(response.statusCode).toBe(400);
      const body = errorBody(response);
      expect(body.error).toBe('invalid_request');
      expect(body.message).toEqual(expect.any(String));
      expect(body.message.length).toBeGreaterThan(0);
    });
  }

  it('changes nothing for a non-admin who calls any admin route that writes', async () => {
    const ctx = await target(server());
    const { client } = await signedInUser(server());
    const before = await snapshot(server());
    for (const endpoint of ENDPOINTS.filter((e) => e.method !== 'GET')) {
      expect((await send(client, endpoint, ctx)).statusCode, endpoint.name).toBe(403);
    }
    expect(await snapshot(server())).toEqual(before);
  });

  it('changes nothing for a non-admin who tries to edit, delete, reissue the license of or sign out a user', async () => {
    const { targetId } = await target(server());
    const before = await server().db.selectFrom('users').selectAll().where('id', '=', targetId).executeTakeFirstOrThrow();
    const { client } = await signedInUser(server());

    expect((await client.request('PUT', `/api/admin/users/${targetId}`, { json: { ...UPDATE, isAdmin: true } })).statusCode).toBe(403);
    expect((await client.request('DELETE', `/api/admin/users/${targetId}`)).statusCode).toBe(403);
    expect((await client.post(`/api/admin/users/${targetId}/license/reissue`)).statusCode).toBe(403);
    expect((await client.post(`/api/admin/users/${targetId}/sessions/revoke`)).statusCode).toBe(403);
    expect((await client.post('/api/admin/release-sage-build', { ...RELEASE, version: '2099-09-09z' })).statusCode).toBe(403);

    const after = await server().db.selectFrom('users').selectAll().where('id', '=', targetId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const build = await server().client().get('/api/current-sage-build');
    if (build.statusCode === 200) expect(build.json<{ version: string }>().version).not.toBe('2099-09-09z');
  });

  it('cannot make themselves an admin through the admin API', async () => {
    const user = await signedInUser(server());
    const response = await user.client.request('PUT', `/api/admin/users/${user.id}`, {
      json: { username: 'me', email: user.email, isAdmin: true },
    });
    expect(response.statusCode).toBe(403);
    const row = await server().db.selectFrom('users').select('is_admin').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.is_admin).toBe(0);
  });

  it('checks the admin flag on every request: an admin whose flag is removed is refused at once', async () => {
    const admin = await signedInAdmin(server());
    expect((await admin.client.get('/api/admin/grove-metrics')).statusCode).toBe(200);
    await server().db.updateTable('users').set({ is_admin: 0 }).where('id', '=', admin.id).execute();
    const response = await admin.client.get('/api/admin/grove-metrics');
    expect(response.statusCode).toBe(403);
    expect(errorBody(response)).toEqual(FORBIDDEN);
  });

  it('signs an admin out of the console along with the rest of the app', async () => {
    const admin = await signedInAdmin(server());
    expect((await admin.client.post('/api/logout')).statusCode).toBeLessThan(300);
    const response = await admin.client.get('/api/admin/users');
    expect(response.statusCode).toBe(401);
    expect(errorBody(response)).toEqual(UNAUTHORIZED);
  });
});
