/**
 * Issue 36: roles are a hierarchy, held where the write happens. Every admin route the router lists
 * is called with a staff target; no admin answer carries a license token; racing demotions and a
 * demoted admin's request in flight leave an active admin; the license download is admins' only.
 */
import { describe, expect, it, vi } from 'vitest';
import { LAST_ADMIN_REFUSAL, ROLE_REFUSAL, STAFF_TARGET_REFUSAL, type StaffRole } from '../../contract/staffRoles';
import { checkStaffAuthority } from '../../server/services/staffAuthority';
import { insertUsers, signedInUser, userRow } from './adminFlow';
import { PASSWORD, databases, errorBody, useTestServer, type TestClient, type TestServer } from './harness';
import { adminRoutes, staffActionOf, type RouteMethod } from './routeList';

vi.mock('fastify', async () => (await import('./routeList')).fastifyWithRouteList());

interface Staff {
  client: TestClient;
  id: string;
  email: string;
}

async function signedInStaff(server: TestServer, role: StaffRole): Promise<Staff> {
  const staff = await signedInUser(server, role);
  await server.db.updateTable('users').set({ is_admin: 1, staff_role: role }).where('id', '=', staff.id).execute();
  return staff;
}

/** Every admin but these is made support, so the test decides who the active admins are. */
async function onlyAdmins(server: TestServer, ids: string[]): Promise<void> {
  await server.db
    .updateTable('users')
    .set({ staff_role: 'support' })
    .where('is_admin', '=', 1)
    .where('id', 'not in', ids.length ? ids : [''])
    .execute();
}

const activeAdmins = async (server: TestServer) =>
  (
    await server.db
      .selectFrom('users')
      .select('id')
      .where('is_admin', '=', 1)
      .where((eb) => eb.or([eb('staff_role', 'is', null), eb('staff_role', '=', 'admin')]))
      .where('status', '<>', 'Suspended')
      .execute()
  ).length;

/** A body each write route validates, so the call reaches its service. */
function bodyFor(method: RouteMethod, url: string, target: { email: string | null }): Record<string, unknown> | undefined {
  if (method === 'GET' || method === 'DELETE') return undefined;
  if (url.endsWith('/suspend')) return { reason: 'Testing the hierarchy' };
  if (url.endsWith('/second-factor/reset')) return { identityCheck: 'Testing the hierarchy' };
  if (url.endsWith('/notes') || url.includes('/notes/')) return { text: 'A note' };
  if (url.endsWith('/credits')) return { amount: 5, reason: 'Testing' };
  if (url === '/api/admin/users/:id') return { username: 'kept', email: target.email, isAdmin: true, role: 'support' };
  return {};
}

describe.each(databases)('staff authority on $label', (database) => {
  const server = useTestServer(database, {}, { epic: false });

  it('refuses support every write about a member of staff, on every admin route with a user, and lets an admin act', async () => {
    const support = await signedInStaff(server(), 'support');
    const admin = await signedInStaff(server(), 'admin');
    const wrong: string[] = [];
    let writes = 0;
    for (const targetRole of ['admin', 'support'] as const) {
      for (const { method, url } of adminRoutes()) {
        // The writes about a user: an organisation's routes have no user to act on.
        if (method === 'GET' || !url.startsWith('/api/admin/users/:id')) continue;
        writes++;
        const [target] = await insertUsers(server().db, [userRow({ is_admin: 1, staff_role: targetRole })]);
        const path = url.replace(':id', target!.id).replace(/:\w+/g, 'someone');
        const action = staffActionOf(method, url);
        const body = bodyFor(method, url, target!);
        const asSupport = await support.client.request(method, path, body ? { json: body } : {});
        // Support's role may not take some actions at all (the guard's refusal); the rest meet the hierarchy.
        const expected =
          action && ['editUsers', 'deleteUsers', 'adjustCredits', 'refundCredits', 'downloadLicense'].includes(action)
            ? ROLE_REFUSAL
            : STAFF_TARGET_REFUSAL;
        if (asSupport.statusCode !== 403 || errorBody(asSupport).message !== expected.message)
          wrong.push(`${method} ${url} on ${targetRole}: support got ${asSupport.statusCode} ${asSupport.body}`);
        const asAdmin = await admin.client.request(method, path, body ? { json: body } : {});
        if (asAdmin.statusCode === 403 || asAdmin.statusCode === 401 || asAdmin.statusCode >= 500)
          wrong.push(`${method} ${url} on ${targetRole}: admin got ${asAdmin.statusCode} ${asAdmin.body}`);
      }
    }
    expect(writes).toBeGreaterThan(16);
    expect(wrong).toEqual([]);
  });

  it('lets support act on a customer', async () => {
    const support = await signedInStaff(server(), 'support');
    const [customer] = await insertUsers(server().db, [userRow()]);
    expect((await support.client.post(`/api/admin/users/${customer!.id}/sessions/revoke`)).statusCode).toBe(200);
    expect((await support.client.post(`/api/admin/users/${customer!.id}/suspend`, { reason: 'Abuse' })).statusCode).toBe(200);
  });

  it('never answers a license token, a hash or a link with a token on any admin route', async () => {
    const admin = await signedInStaff(server(), 'admin');
    const [target] = await insertUsers(server().db, [userRow()]);
    const leaks: string[] = [];
    for (const { method, url } of adminRoutes()) {
      if (url.endsWith('/license')) continue; // the one audited download of a license file, below
      const path = url.replace(':id', target!.id).replace(/:\w+/g, 'someone');
      const body = bodyFor(method, url, target!);
      // The target is recreated if a call deleted it.
      const response = await admin.client.request(method, path, body ? { json: body } : {});
      const token = (await server().db.selectFrom('users').select('license_token').where('id', '=', target!.id).executeTakeFirst())
        ?.license_token;
      const text = response.body;
      if (token && text.includes(token)) leaks.push(`${method} ${url}: the user's token`);
      if (text.includes(target!.license_token)) leaks.push(`${method} ${url}: the user's first token`);
      if (/"token"\s*:|"[a-z_]*hash"\s*:|[?&]token=/i.test(text)) leaks.push(`${method} ${url}: ${text.slice(0, 200)}`);
    }
    expect(leaks).toEqual([]);
  });

  it('lets an admin download a user’s license file, audited without the token; support gets 403', async () => {
    const admin = await signedInStaff(server(), 'admin');
    const support = await signedInStaff(server(), 'support');
    const [target] = await insertUsers(server().db, [userRow()]);
    // The spec's address (product §7), which the console's Download License button calls.
    const refused = await support.client.get(`/api/sage/${target!.id}/license?download=true`);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused)).toEqual(ROLE_REFUSAL);

    const file = await admin.client.get(`/api/sage/${target!.id}/license?download=true`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="sage-license-${target!.id}.json"`);
    expect(JSON.parse(file.json<{ payload: string }>().payload)).toMatchObject({ userId: target!.id, licenseToken: target!.license_token });
    const entries = await server().db.selectFrom('audit_log').selectAll().where('target_id', '=', target!.id).execute();
    expect(entries.map((e) => [e.action, e.actor_id])).toEqual([['license.download', admin.id]]);
    expect(JSON.stringify(entries)).not.toContain(target!.license_token);
  });

  it('keeps an active admin when two admins demote each other at once', async () => {
    const a = await signedInStaff(server(), 'admin');
    const b = await signedInStaff(server(), 'admin');
    // Admin to support keeps the session (Is Admin off would end it), so the race is the write's alone.
    const demote = (by: Staff, whom: Staff) =>
      by.client.request('PUT', `/api/admin/users/${whom.id}`, {
        json: { username: whom.id.slice(0, 8), email: whom.email, isAdmin: true, role: 'support' },
      });
    for (let round = 0; round < 10; round++) {
      await server().db.updateTable('users').set({ staff_role: 'admin' }).where('id', 'in', [a.id, b.id]).execute();
      await onlyAdmins(server(), [a.id, b.id]);
      const answers = await Promise.all([demote(a, b), demote(b, a)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403]);
      expect(await activeAdmins(server())).toBe(1);
    }
  });

  it('refuses a demoted admin’s request already past the guard (403), read again inside the write', async () => {
    const a = await signedInStaff(server(), 'admin');
    const [target] = await insertUsers(server().db, [userRow()]);
    await server().db.updateTable('users').set({ staff_role: 'support' }).where('id', '=', a.id).execute();
    const write = server()
      .db.transaction()
      .execute((trx) =>
        checkStaffAuthority(trx, { actor: { id: a.id, email: a.email }, action: 'deleteUsers', targetId: target!.id, change: 'removed' }),
      );
    await expect(write).rejects.toMatchObject({ statusCode: 403, code: ROLE_REFUSAL.error });
    await server().db.updateTable('users').set({ is_admin: 0, staff_role: null }).where('id', '=', a.id).execute();
    const demoted = server()
      .db.transaction()
      .execute((trx) => checkStaffAuthority(trx, { actor: { id: a.id, email: a.email }, action: 'suspend', targetId: target!.id }));
    await expect(demoted).rejects.toMatchObject({ statusCode: 403 });
  });

  it('refuses with 409 last_admin to suspend, demote or delete the last active admin, and the last admin’s own deletion', async () => {
    const last = await signedInStaff(server(), 'admin');
    const suspended = await signedInStaff(server(), 'admin');
    await onlyAdmins(server(), [last.id, suspended.id]);
    // A suspended admin is no active admin: `last` is the only one.
    await server().db.updateTable('users').set({ status: 'Suspended' }).where('id', '=', suspended.id).execute();
    // Over HTTP only a race reaches this (an active actor is a second admin), so the rule is driven directly.
    for (const change of ['suspended', 'removed', { isAdmin: false, role: null }, { isAdmin: true, role: 'support' }] as const) {
      const write = server()
        .db.transaction()
        .execute((trx) => checkStaffAuthority(trx, { actor: null, action: 'suspend', targetId: last.id, change }));
      await expect(write, JSON.stringify(change)).rejects.toMatchObject({ statusCode: 409, code: LAST_ADMIN_REFUSAL.error });
    }
    const { username } = await server().db.selectFrom('users').select('username').where('id', '=', last.id).executeTakeFirstOrThrow();
    const own = await last.client.request('DELETE', '/api/account', { json: { confirm: username, password: PASSWORD } });
    expect(own.statusCode, own.body).toBe(409);
    expect(errorBody(own).error).toBe(LAST_ADMIN_REFUSAL.error);
    expect(await activeAdmins(server())).toBe(1);
  });
});
