/**
 * Organisations in the staff console (issue 38): `GET /api/admin/orgs` (listed, searched, sorted and
 * paged in simple-rest's dialect), `GET /api/admin/orgs/{id}` (the whole record) and `POST
 * /api/admin/orgs/{id}/credits` (admins only: the pool, its ledger and the audit log in one
 * write), on each database. Support reads and is refused the grant; everyone else is refused it all.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AdminOrg, AdminOrgRow } from '../../contract/adminOrgs';
import { ORG_ERRORS, type OrgAudit, type OrgRole } from '../../contract/orgs';
import { ROLE_REFUSAL, type StaffRole } from '../../contract/staffRoles';
import type { UsersTable } from '../../server/db/schema';
import { createAdminOrgService } from '../../server/services/adminOrgs';
import { createAuditService } from '../../server/services/audit';
import { insertUsers, listed, listUrl, signedInUser, tick, uniqueTag, userRow, type ListParams, type Signed } from './adminFlow';
import { databases, errorBody, useTestServer, type TestServer } from './harness';

const orgUrl = (id: string) => `/api/admin/orgs/${encodeURIComponent(id)}`;
const creditsUrl = (id: string) => `${orgUrl(id)}/credits`;

describe.each(databases)('the console’s organisations on $label', (database) => {
  const server = useTestServer(database, {}, { epic: false });

  async function signedInStaff(role: StaffRole): Promise<Signed> {
    const staff = await signedInUser(server(), role);
    await server().db.updateTable('users').set({ is_admin: 1, staff_role: role }).where('id', '=', staff.id).execute();
    return staff;
  }

  /** An organisation owned by `owner`, with these other members, as its rows stand after creation and joining. */
  async function studio(name: string, owner: UsersTable, members: [UsersTable, OrgRole][] = [], createdAt = Date.now()): Promise<string> {
    const id = randomUUID();
    const db = server().db;
    await db.insertInto('orgs').values({ id, name, created_at: createdAt, updated_at: createdAt }).execute();
    await db
      .insertInto('org_members')
      .values(
        [owner, ...members.map(([user]) => user)].map((user, i) => ({
          org_id: id,
          user_id: user.id,
          role: i === 0 ? 'owner' : members[i - 1]![1],
          joined_at: createdAt,
          monthly_limit: null,
        })),
      )
      .execute();
    await db.insertInto('org_pools').values({ org_id: id, credits: 0, high_water: 0, low_notified_at: null }).execute();
    return id;
  }

  /** A live plan for `seats` seats in its current period (which started five days ago). */
  async function plan(orgId: string, seats: number, status = 'active') {
    const start = Math.floor(Date.now() / 1000) - 5 * 86_400;
    await server()
      .db.insertInto('org_subscriptions')
      .values({
        id: `sub_${randomUUID()}`,
        org_id: orgId,
        customer_id: `cus_${orgId}`,
        status,
        item_id: `si_${randomUUID()}`,
        price_id: 'price_studio',
        product_id: 'prod_studio',
        product_name: 'Sage Studio',
        seats,
        unit_amount: 2500,
        currency: 'eur',
        cancel_at_period_end: 0,
        current_period_start: start,
        current_period_end: start + 30 * 86_400,
        created: start,
        synced_at: Date.now(),
      })
      .execute();
    return { periodStart: start * 1000, periodEnd: (start + 30 * 86_400) * 1000 };
  }

  const setPool = (orgId: string, credits: number) =>
    server().db.updateTable('org_pools').set({ credits, high_water: credits }).where('org_id', '=', orgId).execute();

  async function list(client: Signed['client'], params: ListParams) {
    return listed<AdminOrgRow>(await client.get(listUrl('orgs', params)), 'orgs');
  }

  it('lists organisations with their owner, members, seats, plan and pool; searches, sorts and pages them', async () => {
    const admin = await signedInStaff('admin');
    const tag = uniqueTag('studio');
    const [owner, other, member] = await insertUsers(server().db, [
      userRow({ email: `${tag}-owner@example.com` }),
      userRow({ email: `${tag}-other@example.com` }),
      userRow(),
    ]);
    const beta = await studio(`${tag} Beta`, owner!, [[member!, 'member']], Date.now() - 3000);
    const alpha = await studio(`${tag} Alpha`, other!, [], Date.now() - 2000);
    const gamma = await studio(`${tag} Gamma`, other!, [], Date.now() - 1000);
    await plan(beta, 5);
    await plan(gamma, 2, 'canceled');
    await server()
      .db.insertInto('org_seats')
      .values({ id: randomUUID(), org_id: beta, user_id: member!.id, period_start: 0, allowance_used: 0, assigned_at: Date.now() })
      .execute();
    await setPool(beta, 1200);

    const byName = await list(admin.client, { filter: { q: tag } });
    expect(byName.total).toBe(3);
    expect(byName.rows.map((row) => row.id)).toEqual([alpha, beta, gamma]);
    expect(byName.rows[1]).toEqual({
      id: beta,
      name: `${tag} Beta`,
      ownerId: owner!.id,
      ownerEmail: owner!.email,
      memberCount: 2,
      seats: { bought: 5, assigned: 1 },
      plan: { name: 'Sage Studio', status: 'active' },
      pool: 1200,
      createdAt: expect.any(String),
    });
    // A cancelled plan is no plan, and buys no seats.
    expect(byName.rows[2]).toMatchObject({ plan: null, seats: { bought: 0, assigned: 0 }, pool: 0, memberCount: 1 });

    // Sorted by name descending, or by creation; paged with the total beside each page.
    expect((await list(admin.client, { filter: { q: tag }, sort: ['name', 'DESC'] })).rows.map((r) => r.id)).toEqual([gamma, beta, alpha]);
    expect((await list(admin.client, { filter: { q: tag }, sort: ['createdAt', 'ASC'] })).rows.map((r) => r.id)).toEqual([
      beta,
      alpha,
      gamma,
    ]);
    const first = await list(admin.client, { filter: { q: tag }, range: [0, 1] });
    expect(first).toMatchObject({ total: 3 });
    expect(first.rows.map((r) => r.id)).toEqual([alpha, beta]);
    const second = await admin.client.get(listUrl('orgs', { filter: { q: tag }, range: [2, 3] }));
    expect(second.headers['content-range']).toBe('orgs 2-2/3');
    expect(second.json<AdminOrgRow[]>().map((r) => r.id)).toEqual([gamma]);
    const past = await admin.client.get(listUrl('orgs', { filter: { q: tag }, range: [3, 4] }));
    expect(past.headers['content-range']).toBe('orgs */3');

    // A member's e-mail finds the organisations they belong to, whatever its case; an id finds its organisation.
    const byEmail = await list(admin.client, { filter: { q: `${tag}-OTHER@` } });
    expect(byEmail.rows.map((r) => r.id)).toEqual([alpha, gamma]);
    expect((await list(admin.client, { filter: { q: beta } })).rows.map((r) => r.id)).toEqual([beta]);
    // LIKE's own characters are taken literally.
    expect((await list(admin.client, { filter: { q: `${tag}%` } })).total).toBe(0);
    // Without a search: every organisation, by name, 25 a page.
    const all = await admin.client.get('/api/admin/orgs');
    expect(all.statusCode).toBe(200);
    expect(all.json<AdminOrgRow[]>().length).toBeLessThanOrEqual(25);
  });

  it('refuses list parameters it does not know with a clear 400', async () => {
    const admin = await signedInStaff('admin');
    for (const url of [
      listUrl('orgs', { sort: ['pool', 'ASC'] }),
      listUrl('orgs', { filter: { owner: 'x' } }),
      listUrl('orgs', { range: [0, 5000] }),
      '/api/admin/orgs?filter=nope',
    ]) {
      const response = await admin.client.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(errorBody(response).error).toBe('invalid_request');
    }
  });

  it('reads an organisation whole: company, plan, seats, members with this period’s usage, its totals and its audit log', async () => {
    const support = await signedInStaff('support');
    const tag = uniqueTag('whole');
    const [owner, artist, coder] = await insertUsers(server().db, [
      userRow({ email: `${tag}-owner@example.com`, username: 'owner' }),
      userRow({ email: `${tag}-artist@example.com`, username: 'artist' }),
      userRow({ email: `${tag}-coder@example.com`, username: 'coder' }),
    ]);
    const orgId = await studio(`${tag} Studio`, owner!, [
      [artist!, 'member'],
      [coder!, 'admin'],
    ]);
    const { periodStart, periodEnd } = await plan(orgId, 3);
    const db = server().db;
    await db
      .insertInto('org_billing')
      .values({
        org_id: orgId,
        customer_id: 'cus_studio',
        company_name: 'Grove Games GmbH',
        address_line1: '1 Road',
        address_line2: null,
        city: 'Berlin',
        postal_code: '10115',
        region: null,
        country: 'DE',
        tax_id: 'DE123456789',
        updated_at: Date.now(),
      })
      .execute();
    await db
      .insertInto('org_seats')
      .values({
        id: randomUUID(),
        org_id: orgId,
        user_id: artist!.id,
        period_start: periodStart,
        allowance_used: 40,
        assigned_at: Date.now(),
      })
      .execute();
    await db.updateTable('org_members').set({ monthly_limit: 500 }).where('org_id', '=', orgId).where('user_id', '=', artist!.id).execute();
    const lastUse = Date.now() - 60_000;
    await db
      .insertInto('org_member_periods')
      .values([
        {
          org_id: orgId,
          user_id: artist!.id,
          period_start: periodStart,
          seat_used: 40,
          pool_used: 15,
          last_use_at: lastUse,
          notified_80_at: null,
          notified_100_at: null,
        },
        {
          org_id: orgId,
          user_id: coder!.id,
          period_start: periodStart,
          seat_used: 0,
          pool_used: 7,
          last_use_at: lastUse,
          notified_80_at: null,
          notified_100_at: null,
        },
        // A past period's use is not this period's.
        {
          org_id: orgId,
          user_id: coder!.id,
          period_start: periodStart - 30 * 86_400_000,
          seat_used: 99,
          pool_used: 99,
          last_use_at: lastUse - 30 * 86_400_000,
          notified_80_at: null,
          notified_100_at: null,
        },
      ])
      .execute();
    await setPool(orgId, 300);
    await db
      .insertInto('audit_log')
      .values({
        id: randomUUID(),
        actor_id: owner!.id,
        actor_email: owner!.email,
        action: 'org.seat.assign',
        target_type: 'org',
        target_id: orgId,
        before_json: null,
        after_json: JSON.stringify({ userId: artist!.id }),
        created_at: Date.now(),
      })
      .execute();

    const response = await support.client.get(orgUrl(orgId));
    expect(response.statusCode, response.body).toBe(200);
    const org = response.json<AdminOrg>();
    expect(org).toMatchObject({
      id: orgId,
      name: `${tag} Studio`,
      ownerId: owner!.id,
      ownerEmail: owner!.email,
      memberCount: 3,
      seats: { bought: 3, assigned: 1 },
      plan: { name: 'Sage Studio', status: 'active' },
      pool: 300,
      customerId: 'cus_studio',
      details: { companyName: 'Grove Games GmbH', city: 'Berlin', country: 'DE', taxId: 'DE123456789', addressLine2: null },
      subscription: {
        status: 'active',
        plan: 'Sage Studio',
        seats: 3,
        cancelAtPeriodEnd: false,
        currentPeriodEnd: new Date(periodEnd).toISOString(),
      },
      period: { start: new Date(periodStart).toISOString(), end: new Date(periodEnd).toISOString() },
      usage: { seat: 40, pool: 22 },
    });
    // The owner first, then by role: as the organisation's own members list says.
    expect(org.members.map((m) => [m.email, m.role, m.seat, m.monthlyLimit, m.usage, m.poolUsage])).toEqual([
      [owner!.email, 'owner', false, null, 0, 0],
      [coder!.email, 'admin', false, null, 7, 7],
      [artist!.email, 'member', true, 500, 55, 15],
    ]);
    expect(org.members[2]!.lastActiveAt).toBe(new Date(lastUse).toISOString());
    expect(org.audit).toEqual([
      {
        id: expect.any(String),
        action: 'org.seat.assign',
        actor: owner!.email,
        at: expect.any(String),
        text: `Gave ${artist!.email} a seat`,
      },
    ]);
  });

  it('lets an admin grant credits to the pool with a reason: the pool, its ledger and the audit log, and the owner reads it as by Sage staff', async () => {
    const admin = await signedInStaff('admin');
    const owner = await signedInUser(server(), 'grant-owner');
    const created = await owner.client.post('/api/orgs', { name: 'Granted Studio' });
    expect(created.statusCode, created.body).toBe(201);
    const orgId = created.json<{ id: string }>().id;
    await setPool(orgId, 50);
    await tick();

    const granted = await admin.client.post(creditsUrl(orgId), { amount: 250, reason: '  Goodwill after the outage ' });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toEqual({ pool: 300 });

    const db = server().db;
    const pool = await db.selectFrom('org_pools').selectAll().where('org_id', '=', orgId).executeTakeFirstOrThrow();
    expect([Number(pool.credits), Number(pool.high_water)]).toEqual([300, 300]);
    const ledger = await db.selectFrom('org_credit_ledger').selectAll().where('org_id', '=', orgId).execute();
    expect(ledger.map((row) => [Number(row.amount), row.reason])).toEqual([[250, 'Goodwill after the outage']]);
    expect(ledger[0]!.source).toMatch(/^grant:/);
    const entries = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', orgId)
      .where('action', '=', 'org.credits.grant')
      .execute();
    expect(entries.map((e) => [e.actor_id, e.actor_email, e.target_type, JSON.parse(e.before_json!), JSON.parse(e.after_json!)])).toEqual([
      [admin.id, admin.email, 'org', { credits: 50 }, { credits: 300, amount: 250, reason: 'Goodwill after the outage' }],
    ]);

    // Staff read who granted; the organisation's owner reads that Sage staff did, without their address.
    const read = (await admin.client.get(orgUrl(orgId))).json<AdminOrg>();
    expect(read.pool).toBe(300);
    expect(read.audit[0]).toMatchObject({
      action: 'org.credits.grant',
      actor: admin.email,
      text: 'Sage staff added 250 credits to the shared pool: Goodwill after the outage',
    });
    const own = (await owner.client.get(`/api/orgs/${orgId}/audit`)).json<OrgAudit>().entries;
    expect(own[0]).toMatchObject({ action: 'org.credits.grant', actor: 'Sage staff' });
    expect(JSON.stringify(own)).not.toContain(admin.email);

    // A second grant adds to the first.
    expect((await admin.client.post(creditsUrl(orgId), { amount: 1_000_000, reason: 'Contract' })).json()).toEqual({ pool: 1_000_300 });
  });

  it('adds every one of several grants made at once, and refuses one by an admin demoted while it was on its way', async () => {
    const admin = await signedInStaff('admin');
    const [owner] = await insertUsers(server().db, [userRow()]);
    const orgId = await studio(uniqueTag('race'), owner!);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((amount) => admin.client.post(creditsUrl(orgId), { amount, reason: `Grant ${amount}` })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    // One after the other under the pool's lock: each answer is the pool after its own grant, the last one all of them.
    const pools = answers.map((r) => r.json<{ pool: number }>().pool);
    expect(new Set(pools).size).toBe(5);
    expect(Math.max(...pools)).toBe(15);
    const pool = await server().db.selectFrom('org_pools').select('credits').where('org_id', '=', orgId).executeTakeFirstOrThrow();
    expect(Number(pool.credits)).toBe(15);
    expect((await ledgerOf(server(), orgId)).length).toBe(5);

    // Past the route's guard already, the write reads the role again.
    await server().db.updateTable('users').set({ staff_role: 'support' }).where('id', '=', admin.id).execute();
    const service = createAdminOrgService({ db: server().db, audit: createAuditService(server().db) });
    await expect(service.grantCredits({ id: admin.id, email: admin.email }, orgId, { amount: 9, reason: 'Late' })).rejects.toMatchObject({
      statusCode: 403,
      code: ROLE_REFUSAL.error,
    });
    expect((await ledgerOf(server(), orgId)).length).toBe(5);
  });

  it('lets support read organisations but refuses its grant with 403 role_forbidden, changing nothing', async () => {
    const support = await signedInStaff('support');
    const [owner] = await insertUsers(server().db, [userRow()]);
    const orgId = await studio(uniqueTag('support'), owner!);
    expect((await support.client.get(listUrl('orgs', { filter: { q: orgId } }))).statusCode).toBe(200);
    expect((await support.client.get(orgUrl(orgId))).statusCode).toBe(200);

    const refused = await support.client.post(creditsUrl(orgId), { amount: 100, reason: 'Please' });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused)).toEqual(ROLE_REFUSAL);
    expect(await ledgerOf(server(), orgId)).toEqual([]);
    expect(await grantsOf(server(), orgId)).toEqual([]);
  });

  it('refuses a grant without a reason or with an amount that is not a whole number from 1 to 1,000,000 (400), changing nothing', async () => {
    const admin = await signedInStaff('admin');
    const [owner] = await insertUsers(server().db, [userRow()]);
    const orgId = await studio(uniqueTag('bad'), owner!);
    for (const body of [
      {},
      { amount: 10 },
      { amount: 10, reason: '' },
      { amount: 10, reason: '   ' },
      { amount: 10, reason: 'two\nlines' },
      { amount: 10, reason: 'x'.repeat(501) },
      { amount: 0, reason: 'Zero' },
      { amount: -5, reason: 'Taking back' },
      { amount: 1.5, reason: 'Half' },
      { amount: 1_000_001, reason: 'Too many' },
      { amount: '10', reason: 'Text' },
    ]) {
      const response = await admin.client.post(creditsUrl(orgId), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(response).error).toBe('invalid_request');
    }
    expect(await ledgerOf(server(), orgId)).toEqual([]);
    expect(await grantsOf(server(), orgId)).toEqual([]);
  });

  it('answers 404 for an organisation that does not exist, to a read and to a grant', async () => {
    const admin = await signedInStaff('admin');
    for (const response of [
      await admin.client.get(orgUrl('00000000-0000-4000-8000-000000000000')),
      await admin.client.post(creditsUrl('00000000-0000-4000-8000-000000000000'), { amount: 5, reason: 'Lost' }),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
      expect(errorBody(response)).toEqual({ error: ORG_ERRORS.notFound.error, message: ORG_ERRORS.notFound.message });
    }
  });

  it('refuses a signed-in customer with 403, even the organisation’s owner, and a stranger with 401', async () => {
    const owner = await signedInUser(server(), 'org-owner');
    const orgId = (await owner.client.post('/api/orgs', { name: 'Mine' })).json<{ id: string }>().id;
    for (const response of [
      await owner.client.get('/api/admin/orgs'),
      await owner.client.get(orgUrl(orgId)),
      await owner.client.post(creditsUrl(orgId), { amount: 5, reason: 'For me' }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).error).toBe('forbidden');
    }
    const stranger = server().client();
    expect((await stranger.get('/api/admin/orgs')).statusCode).toBe(401);
    expect((await stranger.post(creditsUrl(orgId), { amount: 5, reason: 'Free' })).statusCode).toBe(401);
    expect(await ledgerOf(server(), orgId)).toEqual([]);
  });
});

const ledgerOf = (server: TestServer, orgId: string) =>
  server.db.selectFrom('org_credit_ledger').selectAll().where('org_id', '=', orgId).execute();
const grantsOf = (server: TestServer, orgId: string) =>
  server.db.selectFrom('audit_log').selectAll().where('target_id', '=', orgId).where('action', '=', 'org.credits.grant').execute();
