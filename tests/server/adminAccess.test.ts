import { describe, expect, it } from 'vitest';
import { insertUsers, listUrl, signedInAdmin, signedInUser, userRow } from './adminFlow';
import { databases, errorBody, useTestServer, type TestClient, type TestServer } from './harness';

type Method = Parameters<TestClient['request']>[0];

/** The user an endpoint acts on: another account, inserted for each test. */
interface Ctx {
  targetId: string;
}

interface Call {
  method: Method;
  path: (ctx: Ctx) => string;
  body?: unknown;
}

interface Endpoint extends Call {
  name: string;
  /** What an admin gets for this valid call: 2xx, or the documented 4xx. */
  adminStatus: number;
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

/** Every `/api/admin/*` endpoint of product §7, issue 5 and issue 14. */
const ENDPOINTS: Endpoint[] = [
  { name: 'GET grove-metrics', method: 'GET', path: () => '/api/admin/grove-metrics', adminStatus: 200, invalid: null },
  {
    name: 'GET insights',
    method: 'GET',
    path: () => '/api/admin/insights?days=7',
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/insights?days=14' },
  },
  {
    name: 'GET users (list)',
    method: 'GET',
    path: () => listUrl('users', { sort: ['username', 'ASC'], range: [0, 4], filter: {} }),
    adminStatus: 200,
    invalid: { method: 'GET', path: () => listUrl('users', { range: [4, 0] }) },
  },
  {
    name: 'GET users/search',
    method: 'GET',
    path: () => '/api/admin/users/search?query=someone',
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/search?query=' },
  },
  { name: 'GET users/export', method: 'GET', path: () => '/api/admin/users/export', adminStatus: 200, invalid: null },
  {
    name: 'GET users/:id',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20' },
  },
  {
    name: 'PUT users/:id',
    method: 'PUT',
    path: (c) => `/api/admin/users/${c.targetId}`,
    body: UPDATE,
    adminStatus: 200,
    invalid: { method: 'PUT', path: (c) => `/api/admin/users/${c.targetId}`, body: { username: '' } },
  },
  {
    name: 'DELETE users/:id',
    method: 'DELETE',
    path: (c) => `/api/admin/users/${c.targetId}`,
    adminStatus: 200,
    invalid: { method: 'DELETE', path: () => '/api/admin/users/%20' },
  },
  {
    name: 'GET users/:id/ai-history',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/ai-history`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20/ai-history' },
  },
  {
    name: 'GET users/:id/details',
    method: 'GET',
    path: (c) => `/api/admin/users/${c.targetId}/details`,
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/users/%20/details' },
  },
  {
    name: 'POST users/:id/license/reissue',
    method: 'POST',
    path: (c) => `/api/admin/users/${c.targetId}/license/reissue`,
    adminStatus: 200,
    invalid: { method: 'POST', path: () => '/api/admin/users/%20/license/reissue' },
  },
  {
    name: 'POST users/:id/sessions/revoke',
    method: 'POST',
    path: (c) => `/api/admin/users/${c.targetId}/sessions/revoke`,
    adminStatus: 200,
    invalid: { method: 'POST', path: () => '/api/admin/users/%20/sessions/revoke' },
  },
  {
    name: 'GET messages/search',
    method: 'GET',
    // No message was stored for this session: the documented 404.
    path: () => '/api/admin/messages/search?sessionId=no-such-session&_t=1',
    adminStatus: 404,
    invalid: { method: 'GET', path: () => '/api/admin/messages/search?sessionId=' },
  },
  {
    name: 'GET messages/recent',
    method: 'GET',
    path: () => '/api/admin/messages/recent?limit=5&_t=1',
    adminStatus: 200,
    invalid: { method: 'GET', path: () => '/api/admin/messages/recent?limit=0' },
  },
  {
    name: 'POST release-sage-build',
    method: 'POST',
    path: () => '/api/admin/release-sage-build',
    body: RELEASE,
    adminStatus: 200,
    invalid: { method: 'POST', path: () => '/api/admin/release-sage-build', body: { version: '' } },
  },
  {
    name: 'GET audit',
    method: 'GET',
    path: () => listUrl('audit', { sort: ['createdAt', 'DESC'], range: [0, 4], filter: {} }),
    adminStatus: 200,
    invalid: { method: 'GET', path: () => listUrl('audit', { range: [-5, -1] }) },
  },
];

const WITH_INPUT = ENDPOINTS.filter((e): e is Endpoint & { invalid: Call } => e.invalid !== null);

const send = (client: TestClient, call: Call, ctx: Ctx) =>
  client.request(call.method, call.path(ctx), call.body === undefined ? {} : { json: call.body });

async function target(server: TestServer): Promise<Ctx> {
  const [row] = await insertUsers(server.db, [userRow()]);
  return { targetId: row!.id };
}

const UNAUTHORIZED = { error: 'unauthorized', message: 'Authentication required' };
const FORBIDDEN = { error: 'forbidden', message: 'Admins only' };

describe.each(databases)('admin authorization on $label', (database) => {
  const server = useTestServer(database);

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
      if (endpoint.adminStatus >= 400) expect(errorBody(response).error).toBe('not_found');
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
