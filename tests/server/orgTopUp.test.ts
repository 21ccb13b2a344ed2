/**
 * Automatic top-up of a studio's shared pool (issue 39, decision 045) through HTTP against the
 * Stripe stand-in, on each database: only its owner and billing members set it; a crossing of the
 * pool's threshold buys one pack however many uses see it, paid off session on the studio's own
 * customer with the card its pack's Checkout saved, its credits in the pool with the webhook; the
 * month's cap; a card that needs its holder pauses it and mails them.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Org } from '../../contract/orgs';
import type { TopUp, TopUpSettings } from '../../contract/topUp';
import { createOrgTopUpService } from '../../server/services/topUp/org';
import { ORG_TOP_UPS } from '../../server/services/topUp/store';
import { seedCatalogue, sessionIdOf, signedInUser, useBillingServer, type Customer } from './billingFlow';
import { databases, PUBLIC_URL } from './harness';
import {
  housekeepingDeps,
  pendingTopUp,
  SERVICE_TOKEN,
  settledTopUps,
  TOP_UP_ENV,
  topUpSettings as settings,
  topUpsOf as topUpsOfAccount,
} from './topUpFlow';

const DETAILS = { companyName: 'Grove Studio Ltd', addressLine1: '1 Road', city: 'London', postalCode: 'N1 1AA', country: 'gb' };

describe.each(databases)("automatic top-up of a studio's pool on $label", (database) => {
  const { server, stripe } = useBillingServer(database, TOP_UP_ENV);

  const use = (userId: string, units: number) =>
    server()
      .client({ authorization: `Bearer ${SERVICE_TOKEN}` })
      .post('/api/ingest/usage', { requestId: randomUUID(), userId, units });

  const save = async (client: Customer, orgId: string, body: TopUpSettings) => {
    const response = await client.client.request('PUT', `/api/orgs/${orgId}/top-up`, { json: body });
    return { status: response.statusCode, body: response.json<TopUp & { error?: string; message?: string }>() };
  };

  const pool = async (orgId: string) =>
    Number((await server().db.selectFrom('org_pools').select('credits').where('org_id', '=', orgId).executeTakeFirst())?.credits ?? 0);

  const topUpsOf = (orgId: string) => topUpsOfAccount(server().db, orgId, ORG_TOP_UPS);
  const settled = (orgId: string, count: number) => settledTopUps(server().db, stripe(), orgId, count, ORG_TOP_UPS);

  /**
   * A studio whose owner bought a plan of one seat (no allowance: the pool pays every use) and a
   * pack of 500 for the pool with `card`, with its artist seated; and its billing member.
   */
  async function studio(card = 'pm_card_visa') {
    const catalogue = await seedCatalogue(stripe());
    await server()
      .db.updateTable('billing_products')
      .set({ metadata: JSON.stringify({ credits_amount: '0' }) })
      .where('id', '=', catalogue.plan.id)
      .execute();
    const owner = await signedInUser(server(), 'studio-owner');
    const billing = await signedInUser(server(), 'studio-billing');
    const artist = await signedInUser(server(), 'artist');
    const orgId = (await owner.client.post('/api/orgs', { name: 'Grove Studio' })).json<Org>().id;
    for (const [member, role] of [
      [billing, 'billing'],
      [artist, 'member'],
    ] as const) {
      await server().db.insertInto('org_members').values({ org_id: orgId, user_id: member.userId, role, joined_at: Date.now() }).execute();
    }
    expect((await owner.client.request('PUT', `/api/orgs/${orgId}/billing-details`, { json: DETAILS })).statusCode).toBe(200);
    const plan = await owner.client.post(`/api/orgs/${orgId}/checkout`, {
      priceId: catalogue.plan.monthly,
      seats: 1,
      successUrl: `${PUBLIC_URL}/dashboard#organisations`,
    });
    await stripe().completeCheckoutSession(sessionIdOf(plan.json<{ url: string }>().url));
    const pack = await owner.client.post(`/api/orgs/${orgId}/checkout`, { priceId: catalogue.pack.price });
    expect(pack.statusCode, pack.body).toBe(200);
    await stripe().completeCheckoutSession(sessionIdOf(pack.json<{ url: string }>().url), { card });
    await stripe().settle();
    const seated = await owner.client.request('PATCH', `/api/orgs/${orgId}/members/${artist.userId}`, { json: { seat: true } });
    expect(seated.statusCode, seated.body).toBe(200);
    await vi.waitFor(async () => expect(await pool(orgId)).toBe(500));
    return { catalogue, owner, billing, artist, orgId };
  }

  it('is set by the owner and billing members only, and needs the card a pool pack saved', async () => {
    const catalogue = await seedCatalogue(stripe());
    const owner = await signedInUser(server(), 'studio-owner');
    const artist = await signedInUser(server(), 'artist');
    const orgId = (await owner.client.post('/api/orgs', { name: 'Grove Studio' })).json<Org>().id;
    await server()
      .db.insertInto('org_members')
      .values({ org_id: orgId, user_id: artist.userId, role: 'member', joined_at: Date.now() })
      .execute();

    const read = await artist.client.get(`/api/orgs/${orgId}/top-up`);
    expect(read.statusCode).toBe(403);
    expect(read.json()).toMatchObject({ error: 'org_forbidden' });
    expect((await save(artist, orgId, settings(catalogue))).status).toBe(403);
    const stranger = await signedInUser(server(), 'stranger');
    expect((await stranger.client.get(`/api/orgs/${orgId}/top-up`)).statusCode).toBe(404);

    expect((await owner.client.get(`/api/orgs/${orgId}/top-up`)).json<TopUp>()).toMatchObject({ settings: null, savedCard: false });
    const refused = await save(owner, orgId, settings(catalogue));
    expect(refused).toMatchObject({ status: 409, body: { error: 'no_saved_card' } });
    expect(refused.body.message).toContain('shared pool');
    expect(await save(owner, orgId, settings(catalogue, { enabled: false }))).toMatchObject({
      status: 200,
      body: { settings: settings(catalogue, { enabled: false }) },
    });
  });

  it('buys one pack for the pool when 20 concurrent uses cross its threshold, on the studio invoices, in its ledger, audited', async () => {
    const { catalogue, billing, artist, orgId } = await studio();
    expect(await save(billing, orgId, settings(catalogue))).toMatchObject({ status: 200, body: { savedCard: true, paused: null } });

    const statuses = await Promise.all(Array.from({ length: 20 }, () => use(artist.userId, 5)));
    expect(statuses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const [topUp, ...more] = await settled(orgId, 1);
    expect(more).toEqual([]);
    expect(topUp).toMatchObject({ status: 'credited', credits: 500, amount: 999, currency: 'usd' });
    expect(topUp!.crossing).toMatch(/^org-use:/);
    expect(await pool(orgId)).toBe(500 - 100 + 500);

    const customerId = (
      await server().db.selectFrom('org_billing').select('customer_id').where('org_id', '=', orgId).executeTakeFirstOrThrow()
    ).customer_id!;
    const invoice = stripe().invoices.get(topUp!.invoice_id!)!;
    expect(invoice).toMatchObject({
      customer: customerId,
      status: 'paid',
      total: 999,
      description: expect.stringContaining('Automatic top-up'),
    });
    const pays = stripe().requests.filter((r) => r.path === `/v1/invoices/${invoice.id}/pay`);
    expect(pays).toMatchObject([{ params: { off_session: 'true' }, idempotencyKey: expect.stringMatching(/^top-up:org-use:.+:pay$/) }]);
    const listed = (await billing.client.get(`/api/orgs/${orgId}/invoices`)).json<{ invoices: { id: string }[] }>();
    expect(listed.invoices.map((i) => i.id)).toContain(invoice.id);
    const ledger = await server().db.selectFrom('org_credit_ledger').selectAll().where('source', '=', `top-up:${invoice.id}`).execute();
    expect(ledger).toMatchObject([{ org_id: orgId, amount: 500 }]);
    const audit = await server()
      .db.selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', orgId)
      .where('action', 'like', 'org.%top_up%')
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['org.credits.top_up', 'org.top_up.change']);

    // The same invoice told of again adds nothing.
    expect((await stripe().emit('invoice.paid', invoice)).status).toBe(200);
    expect(await pool(orgId)).toBe(900);
    expect((await billing.client.get(`/api/orgs/${orgId}/top-up`)).json<TopUp>()).toMatchObject({
      thisMonth: { spent: 999, currency: 'usd' },
      last: { status: 'credited', credits: 500 },
    });
  });

  it("buys a studio's top-up left pending (its process stopped) once, whichever instance's housekeeping gets there, and gives up a day-old one", async () => {
    const { catalogue, owner, orgId } = await studio();
    await save(owner, orgId, settings(catalogue));
    const tenMinutesAgo = Date.now() - 10 * 60_000;
    const row = (crossing: string, at: number) => ({ ...pendingTopUp(catalogue, crossing, at), org_id: orgId });
    await server()
      .db.insertInto('org_top_ups')
      .values([row(`org-use:${randomUUID()}`, tenMinutesAgo), row(`org-use:${randomUUID()}`, Date.now() - 24 * 3_600_000)])
      .execute();
    const housekeeping = () => createOrgTopUpService(housekeepingDeps(server()));
    const [retried, again] = await Promise.all([housekeeping().retryPending(), housekeeping().retryPending()]);
    expect(retried + again).toBe(1);
    const rows = await settled(orgId, 2);
    expect(rows.map((r) => r.status).sort()).toEqual(['credited', 'failed']);
    await vi.waitFor(async () => expect(await pool(orgId)).toBe(1000));
  });

  it("refuses a top-up that would pass the month's cap", async () => {
    const { catalogue, owner, artist, orgId } = await studio();
    await save(owner, orgId, settings(catalogue, { monthlyCap: 1500 }));
    expect((await use(artist.userId, 60)).statusCode).toBe(201); // 500 → 440: the first, 999 of 1500
    await settled(orgId, 1);
    expect((await use(artist.userId, 500)).statusCode).toBe(201); // 940 → 440: a second would cost 1998
    expect((await settled(orgId, 2)).map((r) => r.status)).toEqual(['credited', 'capped']);
    expect(await pool(orgId)).toBe(440);
  });

  it('pauses when the studio card needs its holder, and mails the owner and billing members a link to buy by hand', async () => {
    const { catalogue, owner, billing, artist, orgId } = await studio('pm_card_authenticationRequired');
    await save(owner, orgId, settings(catalogue));
    expect((await use(artist.userId, 60)).statusCode).toBe(201);
    const [topUp] = await settled(orgId, 1);
    expect(topUp).toMatchObject({ status: 'authentication_required' });
    expect(await pool(orgId)).toBe(440);
    // The top-up's status is written before the pause, in a transaction of its own: wait for both.
    await vi.waitFor(async () =>
      expect((await owner.client.get(`/api/orgs/${orgId}/top-up`)).json<TopUp>()).toMatchObject({
        paused: { reason: 'authentication_required' },
      }),
    );
    for (const person of [owner, billing]) {
      const mail = await server().smtp.waitForMail(person.email);
      expect(mail.subject).toBe("Grove Studio: Automatic top-up is paused: the studio's card needs you to confirm the payment");
      expect(mail.text).toContain('fell below 450');
      expect(mail.links).toContain('http://sage.test/dashboard#organisations');
    }
    expect(server().smtp.mailsTo(artist.email)).toEqual([]);
    const pause = await server()
      .db.selectFrom('audit_log')
      .select('id')
      .where('target_id', '=', orgId)
      .where('action', '=', 'org.top_up.pause')
      .execute();
    expect(pause).toHaveLength(1);
    // Paused, the next crossing buys nothing.
    await server().db.updateTable('org_top_up_settings').set({ threshold: 100 }).where('org_id', '=', orgId).execute();
    expect((await use(artist.userId, 400)).statusCode).toBe(201);
    expect(await topUpsOf(orgId)).toHaveLength(1);
  });
});
