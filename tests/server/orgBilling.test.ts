/**
 * A studio's bill and its seats (issue 38, decisions 041 and 042), over HTTP against the
 * Stripe-compatible server, on each database: company details on the customer and its invoices,
 * a plan for N seats, seats given, taken back and handed on without a fresh allowance, the seat
 * count never below the seats given, packs for the shared pool, and who pays for each use.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { AccountInvoices } from '../../contract/accountInvoices';
import type { OrgBilling } from '../../contract/orgBilling';
import type { Org, OrgMember, OrgMembers } from '../../contract/orgs';
import type { OrgUsage } from '../../contract/orgUsage';
import type { UsageRecorded, UsageRemaining } from '../../contract/usage';
import { seedCatalogue, sessionIdOf, signedInUser, useBillingServer, type Catalogue, type Customer } from './billingFlow';
import { signedInAdmin } from './adminFlow';
import { databases, errorBody, PUBLIC_URL, type TestClient } from './harness';

const SERVICE_TOKEN = 't'.repeat(40);
const DETAILS = {
  companyName: 'Grove Studio GmbH',
  addressLine1: 'Torstraße 1',
  city: 'Berlin',
  postalCode: '10119',
  country: 'de',
  taxId: 'DE 123 456 789',
};
const patch = (client: TestClient, url: string, json: unknown) => client.request('PATCH', url, { json });
const put = (client: TestClient, url: string, json: unknown) => client.request('PUT', url, { json });

describe.each(databases)("a studio's seats and bill on $label", (database) => {
  const { server, stripe } = useBillingServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN, FREE_QUERIES_PER_MONTH: '0' });
  const service = () => server().client({ authorization: `Bearer ${SERVICE_TOKEN}` });
  const use = (userId: string, units = 1) => service().post('/api/ingest/usage', { requestId: randomUUID(), userId, units });

  /** A plan of `perSeat` queries per seat and period, and a pack of 500, in the mirror. */
  async function catalogue(perSeat: string): Promise<Catalogue> {
    const seeded = await seedCatalogue(stripe());
    await server()
      .db.updateTable('billing_products')
      .set({ metadata: JSON.stringify({ credits_amount: perSeat }) })
      .where('id', '=', seeded.plan.id)
      .execute();
    return seeded;
  }

  async function studio(owner: Customer, members: Customer[]): Promise<string> {
    const org = (await owner.client.post('/api/orgs', { name: 'Grove Studio' })).json<Org>();
    for (const member of members) {
      await server()
        .db.insertInto('org_members')
        .values({ org_id: org.id, user_id: member.userId, role: 'member', joined_at: Date.now() })
        .execute();
    }
    return org.id;
  }

  async function buySeats(owner: Customer, orgId: string, price: string, seats: number) {
    const checkout = await owner.client.post(`/api/orgs/${orgId}/checkout`, {
      priceId: price,
      seats,
      successUrl: `${PUBLIC_URL}/dashboard#organisations`,
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { subscription } = await stripe().completeCheckoutSession(sessionIdOf(checkout.json<{ url: string }>().url));
    return subscription;
  }

  const billing = async (client: TestClient, orgId: string) => {
    const response = await client.get(`/api/orgs/${orgId}/billing`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<OrgBilling>();
  };
  const members = async (client: TestClient, orgId: string) => (await client.get(`/api/orgs/${orgId}/members`)).json<OrgMembers>().members;
  const memberOf = async (client: TestClient, orgId: string, userId: string): Promise<OrgMember | undefined> =>
    (await members(client, orgId)).find((m) => m.userId === userId);
  const seat = (client: TestClient, orgId: string, userId: string, value: boolean) =>
    patch(client, `/api/orgs/${orgId}/members/${userId}`, { seat: value });

  it('buys a plan for 3 seats with the company on the customer and on every invoice, and never gives a fourth seat', async () => {
    const { plan } = await catalogue('100');
    const owner = await signedInUser(server(), 'studio-owner');
    const artists = [
      await signedInUser(server(), 'artist'),
      await signedInUser(server(), 'artist'),
      await signedInUser(server(), 'artist'),
    ];
    const orgId = await studio(owner, artists);

    const early = await owner.client.post(`/api/orgs/${orgId}/checkout`, { priceId: plan.monthly, seats: 3 });
    expect(early.statusCode).toBe(409);
    expect(errorBody(early).error).toBe('billing_details_required');
    const badVat = await put(owner.client, `/api/orgs/${orgId}/billing-details`, { ...DETAILS, taxId: 'FR12345678901' });
    expect(badVat.statusCode).toBe(400);
    expect(errorBody(badVat).message).toContain('starts with DE');
    const saved = await put(owner.client, `/api/orgs/${orgId}/billing-details`, DETAILS);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<OrgBilling>().details).toMatchObject({ companyName: 'Grove Studio GmbH', country: 'DE', taxId: 'DE123456789' });
    const byMember = await artists[0]!.client.get(`/api/orgs/${orgId}/billing`);
    expect(byMember.statusCode).toBe(403);

    const subscription = await buySeats(owner, orgId, plan.monthly, 3);
    expect(subscription?.items.data[0]?.quantity).toBe(3);
    expect(await billing(owner.client, orgId)).toMatchObject({
      subscription: { seats: 3, allowancePerSeat: 100, status: 'active' },
      seats: { bought: 3, assigned: 0 },
    });
    const customer = stripe().customers.get(subscription!.customer)!;
    expect(customer).toMatchObject({ name: 'Grove Studio GmbH', metadata: { org_id: orgId }, address: { city: 'Berlin', country: 'DE' } });
    expect(
      stripe()
        .taxIds.get(customer.id)
        ?.map((t) => [t.type, t.value]),
    ).toEqual([['eu_vat', 'DE123456789']]);

    const invoices = (await owner.client.get(`/api/orgs/${orgId}/invoices`)).json<AccountInvoices>().invoices;
    expect(invoices).toHaveLength(1);
    const invoice = stripe().invoices.get(invoices[0]!.id)!;
    expect(invoice).toMatchObject({ customer_name: 'Grove Studio GmbH', customer_tax_ids: [{ type: 'eu_vat', value: 'DE123456789' }] });

    for (const artist of artists) expect((await seat(owner.client, orgId, artist.userId, true)).statusCode).toBe(200);
    const fourth = await signedInUser(server(), 'artist');
    await server()
      .db.insertInto('org_members')
      .values({ org_id: orgId, user_id: fourth.userId, role: 'member', joined_at: Date.now() })
      .execute();
    const over = await seat(owner.client, orgId, fourth.userId, true);
    expect(over.statusCode).toBe(409);
    expect(errorBody(over).error).toBe('no_free_seat');
    expect((await owner.client.get(`/api/orgs/${orgId}`)).json<Org>().seats).toEqual({ bought: 3, assigned: 3 });

    // Fewer seats than are given: refused; once one is taken back, Stripe prorates the change.
    const below = await patch(owner.client, `/api/orgs/${orgId}/subscription`, { seats: 2 });
    expect(below.statusCode).toBe(409);
    expect(errorBody(below).error).toBe('seats_assigned');
    expect((await seat(owner.client, orgId, artists[2]!.userId, false)).statusCode).toBe(200);
    const fewer = await patch(owner.client, `/api/orgs/${orgId}/subscription`, { seats: 2 });
    expect(fewer.statusCode, fewer.body).toBe(200);
    expect(fewer.json<OrgBilling>().seats).toEqual({ bought: 2, assigned: 2 });
    const more = await patch(owner.client, `/api/orgs/${orgId}/subscription`, { seats: 5 });
    expect(more.json<OrgBilling>().seats).toEqual({ bought: 5, assigned: 2 });
    expect(stripe().subscriptions.get(subscription!.id)?.items.data[0]?.quantity).toBe(5);
    const prorated = [...stripe().invoices.values()].filter(
      (i) => i.customer === customer.id && i.billing_reason === 'subscription_update',
    );
    expect(prorated.length).toBe(2);

    const audit = (await owner.client.get(`/api/orgs/${orgId}/audit`)).json<{ entries: { action: string; text: string }[] }>().entries;
    expect(audit.map((e) => e.action)).toEqual(
      expect.arrayContaining(['org.billing.details', 'org.seat.assign', 'org.seat.release', 'org.seats.change']),
    );
  });

  it("charges a seat holder's uses to the seat, then the pool within their limit, then their own; a removed member pays their own", async () => {
    const { plan, pack } = await catalogue('2');
    const owner = await signedInUser(server(), 'studio-owner');
    const artist = await signedInUser(server(), 'artist');
    const orgId = await studio(owner, [artist]);
    await put(owner.client, `/api/orgs/${orgId}/billing-details`, { ...DETAILS, taxId: undefined });
    await buySeats(owner, orgId, plan.monthly, 1);
    // A pack for the shared pool, credited by its webhook.
    const packCheckout = await owner.client.post(`/api/orgs/${orgId}/checkout`, { priceId: pack.price });
    await stripe().completeCheckoutSession(sessionIdOf(packCheckout.json<{ url: string }>().url));
    expect((await billing(owner.client, orgId)).pool).toBe(500);

    // Without a seat, the organisation pays nothing: the member's own free allowance is 0.
    const unseated = await use(artist.userId);
    expect(unseated.statusCode).toBe(402);
    expect(errorBody(unseated).error).toBe('quota_exhausted');

    await seat(owner.client, orgId, artist.userId, true);
    const limited = await patch(owner.client, `/api/orgs/${orgId}/members/${artist.userId}`, { monthlyLimit: 3 });
    expect(limited.json<OrgMember>()).toMatchObject({ seat: true, monthlyLimit: 3 });

    const first = (await use(artist.userId, 3)).json<UsageRecorded>();
    expect(first.charged).toEqual({ allowance: 0, credits: 0, org: { orgId, seat: 2, pool: 1 } });
    expect(first.remaining.org).toMatchObject({ orgId, name: 'Grove Studio', seat: 0, pool: 2, limit: 2 });
    const second = (await use(artist.userId, 2)).json<UsageRecorded>();
    expect(second.charged.org).toEqual({ orgId, seat: 0, pool: 2 });
    const left = (await artist.client.get('/api/usage/remaining')).json<UsageRemaining>();
    expect(left.org).toMatchObject({ seat: 0, pool: 0, limit: 0 });

    // The limit reached and nothing of their own: 402 naming the limit, and the owner is told.
    const refused = await use(artist.userId);
    expect(refused.statusCode).toBe(402);
    expect(errorBody(refused)).toMatchObject({ error: 'org_limit_reached', message: expect.stringContaining('Grove Studio') });
    const mail = await vi.waitFor(() => {
      const found = server()
        .smtp.mailsTo(owner.email)
        .find((m) => /reached their limit/.test(m.headers.subject ?? ''));
      if (!found) throw new Error('no limit mail yet');
      return found;
    });
    expect(mail.text).toContain('3 shared credits');
    expect(await memberOf(owner.client, orgId, artist.userId)).toMatchObject({ usage: 5, poolUsage: 3, lastActiveAt: expect.any(String) });

    // The studio's usage: by member and day, and the period's CSV; not for a plain member.
    const usage = (await owner.client.get(`/api/orgs/${orgId}/usage?days=30`)).json<OrgUsage>();
    expect(usage.byMember).toEqual([{ userId: artist.userId, name: expect.any(String), uses: 2, units: 5 }]);
    expect(usage.units.at(-1)).toBe(5);
    expect(usage.byEngineVersion).toEqual([{ engineVersion: '', uses: 2, units: 5 }]);
    const csv = await owner.client.get(`/api/orgs/${orgId}/usage/period.csv`);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="organisation-usage-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'occurred_at,member,request_id,units,from_seat,from_pool,from_own,project_id,engine_version,plugin_version,model,feature',
    );
    expect(lines.slice(1).map((line) => line.split(',').slice(3, 7))).toEqual([
      ['3', '2', '1', '0'],
      ['2', '0', '2', '0'],
    ]);
    expect((await artist.client.get(`/api/orgs/${orgId}/usage`)).statusCode).toBe(403);

    // Removed: the next use is the member's own (a pack of their own pays it).
    await server()
      .db.insertInto('credit_ledger')
      .values({
        id: randomUUID(),
        user_id: artist.userId,
        amount: 5,
        reason: 'Credit pack',
        source: `checkout:cs_${randomUUID()}`,
        created_at: Date.now(),
      })
      .execute();
    expect((await owner.client.request('DELETE', `/api/orgs/${orgId}/members/${artist.userId}`)).statusCode).toBe(200);
    const own = (await use(artist.userId)).json<UsageRecorded>();
    expect(own.charged).toEqual({ allowance: 0, credits: 1 });
    expect(own.remaining.org).toBeUndefined();
    expect((await billing(owner.client, orgId)).pool).toBe(497);
  });

  it('hands a seat on with the period it used: taking it back and giving it again never starts a fresh allowance', async () => {
    const { plan } = await catalogue('3');
    const owner = await signedInUser(server(), 'studio-owner');
    const [first, second] = [await signedInUser(server(), 'artist'), await signedInUser(server(), 'artist')];
    const orgId = await studio(owner, [first, second]);
    await put(owner.client, `/api/orgs/${orgId}/billing-details`, DETAILS);
    await buySeats(owner, orgId, plan.monthly, 1);
    await seat(owner.client, orgId, first.userId, true);
    expect((await use(first.userId, 3)).json<UsageRecorded>().charged.org).toEqual({ orgId, seat: 3, pool: 0 });
    await seat(owner.client, orgId, first.userId, false);
    await seat(owner.client, orgId, second.userId, true);
    const after = await use(second.userId);
    expect(after.statusCode).toBe(402);
    expect(errorBody(after).error).toBe('org_allowance_exhausted');
  });

  it('tells the owner and billing members when a member nears their limit and when the pool runs low, once each', async () => {
    const { plan } = await catalogue('0');
    const owner = await signedInUser(server(), 'studio-owner');
    const [billingMember, artist] = [await signedInUser(server(), 'studio-billing'), await signedInUser(server(), 'artist')];
    const orgId = await studio(owner, [artist]);
    await server()
      .db.insertInto('org_members')
      .values({ org_id: orgId, user_id: billingMember.userId, role: 'billing', joined_at: Date.now() })
      .execute();
    await put(owner.client, `/api/orgs/${orgId}/billing-details`, DETAILS);
    await buySeats(owner, orgId, plan.monthly, 1);
    await server().db.updateTable('org_pools').set({ credits: 100, high_water: 100 }).where('org_id', '=', orgId).execute();
    await seat(owner.client, orgId, artist.userId, true);
    await patch(owner.client, `/api/orgs/${orgId}/members/${artist.userId}`, { monthlyLimit: 95 });

    const subjects = (email: string) =>
      server()
        .smtp.mailsTo(email)
        .map((m) => m.headers.subject ?? '');
    expect((await use(artist.userId, 80)).json<UsageRecorded>().charged.org).toEqual({ orgId, seat: 0, pool: 80 });
    await vi.waitFor(() => expect(subjects(billingMember.email).some((s) => /has used 80 % of their limit/.test(s))).toBe(true));
    expect((await use(artist.userId, 11)).statusCode).toBe(201);
    await vi.waitFor(() => expect(subjects(owner.email).some((s) => /shared credits are running low/.test(s))).toBe(true));
    expect((await use(artist.userId, 1)).statusCode).toBe(201);
    // Each notice once: the 80 % one, the low pool one; the member is told nothing of the studio's.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(subjects(owner.email).filter((s) => /80 %|running low/.test(s))).toHaveLength(2);
    expect(subjects(artist.email).filter((s) => /Grove Studio/.test(s))).toEqual([]);
  });

  it("stops charging a suspended member's seat: their uses are refused, the seat and the pool keep what they had", async () => {
    const { plan } = await catalogue('10');
    const owner = await signedInUser(server(), 'studio-owner');
    const artist = await signedInUser(server(), 'artist');
    const orgId = await studio(owner, [artist]);
    await put(owner.client, `/api/orgs/${orgId}/billing-details`, DETAILS);
    await buySeats(owner, orgId, plan.monthly, 1);
    await seat(owner.client, orgId, artist.userId, true);
    expect((await use(artist.userId, 2)).statusCode).toBe(201);

    const admin = await signedInAdmin(server());
    expect((await admin.client.post(`/api/admin/users/${artist.userId}/suspend`, { reason: 'Chargeback' })).statusCode).toBe(200);
    const refused = await use(artist.userId, 1);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).error).toBe('account_suspended');
    expect(await memberOf(owner.client, orgId, artist.userId)).toMatchObject({ seat: true, suspended: true, usage: 2 });
    const seatRow = await server()
      .db.selectFrom('org_seats')
      .select('allowance_used')
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    expect(Number(seatRow.allowance_used)).toBe(2);
  });

  it("starts a seat's count again in a new period, and tells the owner once when the shared credits fall under 10 %", async () => {
    const { plan } = await catalogue('2');
    const owner = await signedInUser(server(), 'studio-owner');
    const artist = await signedInUser(server(), 'artist');
    const orgId = await studio(owner, [artist]);
    await put(owner.client, `/api/orgs/${orgId}/billing-details`, DETAILS);
    await buySeats(owner, orgId, plan.monthly, 1);
    await seat(owner.client, orgId, artist.userId, true);
    const db = server().db;
    const seatRow = () => db.selectFrom('org_seats').select(['period_start', 'allowance_used']).where('user_id', '=', artist.userId);

    // The seat used all of an earlier period: this period's first use is the seat's again.
    const { period_start: periodStart } = await seatRow().executeTakeFirstOrThrow();
    await db
      .updateTable('org_seats')
      .set({ period_start: periodStart - 30 * 86_400_000, allowance_used: 2 })
      .where('user_id', '=', artist.userId)
      .execute();
    expect((await use(artist.userId)).json<UsageRecorded>().charged.org).toEqual({ orgId, seat: 1, pool: 0 });
    expect(await seatRow().executeTakeFirstOrThrow()).toEqual({ period_start: periodStart, allowance_used: 1 });

    // 10 of the 100 credits the pool held: 2 taken leave 8, under 10 %; the next use tells no one again.
    await db.updateTable('org_pools').set({ credits: 10, high_water: 100 }).where('org_id', '=', orgId).execute();
    expect((await use(artist.userId, 3)).json<UsageRecorded>().charged.org).toEqual({ orgId, seat: 1, pool: 2 });
    const pool = () =>
      db.selectFrom('org_pools').select(['credits', 'low_notified_at']).where('org_id', '=', orgId).executeTakeFirstOrThrow();
    const told = await pool();
    expect(told).toEqual({ credits: 8, low_notified_at: expect.any(Number) });
    expect((await use(artist.userId)).json<UsageRecorded>().charged.org).toEqual({ orgId, seat: 0, pool: 1 });
    expect(await pool()).toEqual({ credits: 7, low_notified_at: told.low_notified_at });
    const lowMails = () =>
      server()
        .smtp.mailsTo(owner.email)
        .filter((m) => /shared credits are running low/.test(m.headers.subject ?? ''));
    await vi.waitFor(() => expect(lowMails()).toHaveLength(1));
    expect(lowMails()[0]!.text).toContain('8 left');
  });

  it('cancels the plan at Stripe before deleting the organisation', async () => {
    const { plan } = await catalogue('10');
    const owner = await signedInUser(server(), 'studio-owner');
    const orgId = await studio(owner, []);
    await put(owner.client, `/api/orgs/${orgId}/billing-details`, DETAILS);
    const subscription = await buySeats(owner, orgId, plan.monthly, 2);
    expect((await owner.client.request('DELETE', `/api/orgs/${orgId}`)).statusCode).toBe(200);
    expect(stripe().subscriptions.get(subscription!.id)?.status).toBe('canceled');
  });
});
