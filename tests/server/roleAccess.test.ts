/**
 * The authorization matrix of the console's roles (issue 28, decision 030): every route of the
 * admin folder the router lists, called as a stranger, a user, `support` and `admin`, answers what
 * its declared action (`access.staff`) and STAFF_PERMISSIONS say, and a refused call changes nothing. A route added
 * without an action is admins only, and fails the first test until it is given one.
 */
import { describe, expect, it, vi } from 'vitest';
import { ROLE_REFUSAL, STAFF_ROLES, staffMay, type StaffRole } from '../../contract/staffRoles';
import { insertUsers, signedInUser, userRow } from './adminFlow';
import { databases, errorBody, useTestServer, type TestClient, type TestServer } from './harness';
import { adminRouteActions, adminRoutes, staffActionOf } from './routeList';

// The app's own onRoute hook, added before anything else is registered, sees every route.
vi.mock('fastify', async () => (await import('./routeList')).fastifyWithRouteList());

/** A member of staff with `role`, signed in. */
async function signedInStaff(server: TestServer, role: StaffRole): Promise<TestClient> {
  const staff = await signedInUser(server, role);
  await server.db.updateTable('users').set({ is_admin: 1, staff_role: role }).where('id', '=', staff.id).execute();
  return staff.client;
}

/** Everything a refused call could have changed. */
async function snapshot(server: TestServer) {
  const tables = [
    'users',
    'sessions',
    'audit_log',
    'user_notes',
    'credit_ledger',
    'sage_builds',
    'org_credit_ledger',
    'org_pools',
  ] as const;
  const rows = await Promise.all(tables.map((t) => server.db.selectFrom(t).selectAll().execute()));
  return Object.fromEntries(tables.map((t, i) => [t, rows[i]]));
}

describe.each(databases)('the roles on every admin route on $label', (database) => {
  const server = useTestServer(database, {}, { epic: false });

  it('names an action for every admin route, and no action for a route that is gone', () => {
    const listed = adminRoutes().map((r) => `${r.method} ${r.url}`);
    expect(listed.length).toBeGreaterThan(25);
    expect(listed.filter((key) => adminRouteActions()[key] === undefined)).toEqual([]);
    expect(Object.keys(adminRouteActions()).filter((key) => !listed.includes(key))).toEqual([]);
  });

  for (const role of STAFF_ROLES) {
    it(`lets ${role} call exactly the routes its role allows, and refuses the rest with 403 role_forbidden, changing nothing`, async () => {
      const [target] = await insertUsers(server().db, [userRow()]);
      const client = await signedInStaff(server(), role);
      const wrong: string[] = [];
      for (const { method, url } of adminRoutes()) {
        const key = `${method} ${url}`;
        const action = staffActionOf(method, url);
        const allowed = action === null ? role === 'admin' : staffMay(role, action);
        const path = url.replace(':id', target!.id).replace(/:\w+/g, 'someone');
        const before = allowed ? null : await snapshot(server());
        // Input that would pass validation is not needed: the role is checked before it (onRequest).
        const response = await client.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { json: {} });
        const refused = response.statusCode === 403 && errorBody(response).error === ROLE_REFUSAL.error;
        if (allowed && (refused || response.statusCode === 401)) wrong.push(`${key}: ${role} refused (${response.statusCode})`);
        if (!allowed) {
          if (!refused) wrong.push(`${key}: ${role} got ${response.statusCode}, not 403 role_forbidden`);
          else expect(errorBody(response)).toEqual(ROLE_REFUSAL);
          expect(await snapshot(server()), key).toEqual(before);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('checks the role on every request: support made admin may release at once, and back again may not', async () => {
    const staff = await signedInUser(server(), 'staff');
    await server().db.updateTable('users').set({ is_admin: 1, staff_role: 'support' }).where('id', '=', staff.id).execute();
    const release = () => staff.client.post('/api/admin/release-sage-build', { version: 'x' });
    expect((await release()).statusCode).toBe(403);
    await server().db.updateTable('users').set({ staff_role: 'admin' }).where('id', '=', staff.id).execute();
    expect((await release()).statusCode).toBe(400);
    await server().db.updateTable('users').set({ staff_role: 'support' }).where('id', '=', staff.id).execute();
    expect(errorBody(await release())).toEqual(ROLE_REFUSAL);
  });

  it('treats a role it does not know as support: never more than support', async () => {
    const staff = await signedInUser(server(), 'odd');
    await server().db.updateTable('users').set({ is_admin: 1, staff_role: 'owner' }).where('id', '=', staff.id).execute();
    expect((await staff.client.get('/api/admin/grove-metrics')).statusCode).toBe(200);
    expect(errorBody(await staff.client.get('/api/admin/users/export'))).toEqual(ROLE_REFUSAL);
  });
});
