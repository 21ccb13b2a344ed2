/**
 * Automatic top-up (issue 39, decision 045) through HTTP against the Stripe stand-in: the settings'
 * rules, one crossing buying one pack under concurrent uses (on PostgreSQL over two instances), its
 * credits landing with the webhook once however often it comes, the month's cap, and a card that
 * declines or needs its holder pausing top-up with a mail.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import type { SageApp } from '../../server/app';
import { openDatabase, type Db } from '../../server/db';
import { createTopUpService } from '../../server/services/topUp';
import { seedCatalogue, sessionIdOf, signedInUser, useBillingServer } from './billingFlow';
import { buildExtraApp, databases, withSearchPath } from './harness';
import {
  balanceOf,
  housekeepingDeps,
  packBuyer,
  pendingTopUp,
  saveTopUp,
  settledTopUps,
  TOP_UP_ENV,
  topUpSettings as settings,
  topUpsOf,
  topUpView,
  use,
} from './topUpFlow';

describe.each(databases)('automatic top-up on $label', (database) => {
  const { server, stripe } = useBillingServer(database, TOP_UP_ENV);

  /** Another instance over the same database (its own pool on PostgreSQL), closed by `done`. */
  async function secondInstance(): Promise<{ app: SageApp; done: () => Promise<void> }> {
    let db: Db = server().db;
    if (database.kind === 'postgres') {
      const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(server().db)).rows[0]!;
      db = openDatabase({ databaseUrl: withSearchPath(process.env.TEST_DATABASE_URL!, schema), dataDir: '/tmp' });
    }
    const app = await buildExtraApp(db, { ...stripe().env, ...TOP_UP_ENV });
    return {
      app,
      async done() {
        await app.close();
        if (db !== server().db) await db.destroy();
      },
    };
  }

  it('offers the packs on sale, and refuses another price, a cap under the pack, or turning on without a saved card', async () => {
    const catalogue = await seedCatalogue(stripe());
    const customer = await signedInUser(server());
    const view = await topUpView(customer);
    expect(view).toMatchObject({ settings: null, paused: null, last: null, savedCard: false });
    expect(view.packs).toContainEqual({
      priceId: catalogue.pack.price,
      name: expect.any(String),
      credits: 500,
      amount: 999,
      currency: 'usd',
    });
    expect(view.packs.map((p) => p.priceId)).not.toContain(catalogue.plan.monthly);

    expect(await saveTopUp(customer, settings(catalogue, { priceId: catalogue.plan.monthly }))).toMatchObject({
      status: 400,
      body: { error: 'unknown_pack' },
    });
    expect(await saveTopUp(customer, settings(catalogue, { monthlyCap: 998 }))).toMatchObject({
      status: 400,
      body: { error: 'cap_below_pack', message: 'The monthly cap must be at least the price of one pack.' },
    });
    expect(await saveTopUp(customer, settings(catalogue, { threshold: 0 }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    const refused = await saveTopUp(customer, settings(catalogue));
    expect(refused).toMatchObject({ status: 409, body: { error: 'no_saved_card' } });
    expect(refused.body.message).toContain('Buy a credit pack once first');
    // Off, the settings are kept without a card.
    expect(await saveTopUp(customer, settings(catalogue, { enabled: false }))).toMatchObject({
      status: 200,
      body: { settings: settings(catalogue, { enabled: false }), savedCard: false },
    });
  });

  it('buys one pack when 20 concurrent uses cross the threshold, over two instances, and lists it on the invoices', async () => {
    const catalogue = await seedCatalogue(stripe());
    const customer = await packBuyer(server(), stripe(), catalogue);
    expect(await topUpView(customer)).toMatchObject({ savedCard: true });
    expect(await saveTopUp(customer, settings(catalogue))).toMatchObject({ status: 200, body: { settings: settings(catalogue) } });

    const other = await secondInstance();
    try {
      // 500 credits, 20 uses of 5 each: the balance passes 450 once, whichever use and instance.
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => use(i % 2 === 0 ? server().app : other.app, customer.userId, 5)),
      );
      expect(statuses).toEqual(Array(20).fill(201));
      const [topUp, ...more] = await settledTopUps(server().db, stripe(), customer.userId, 1);
      expect(more).toEqual([]);
      expect(topUp).toMatchObject({ status: 'credited', credits: 500, amount: 999, currency: 'usd', price_id: catalogue.pack.price });
      expect(topUp!.crossing).toMatch(/^use:/);
    } finally {
      await other.done();
    }
    expect(await balanceOf(customer)).toBe(500 - 100 + 500);

    // One invoice at Stripe, paid off session with the card the pack was bought with.
    const customerId = (
      await server().db.selectFrom('billing_customers').selectAll().where('user_id', '=', customer.userId).executeTakeFirstOrThrow()
    ).customer_id;
    const invoices = [...stripe().invoices.values()].filter((i) => i.customer === customerId);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      status: 'paid',
      total: 999,
      parent: null,
      description: expect.stringContaining('Automatic top-up'),
    });
    const pays = stripe().requests.filter((r) => r.path === `/v1/invoices/${invoices[0]!.id}/pay`);
    expect(pays).toHaveLength(1);
    expect(pays[0]).toMatchObject({ params: { off_session: 'true' }, idempotencyKey: expect.stringMatching(/^top-up:use:.+:pay$/) });

    // On the invoices list, in the ledger, audited; the dashboard says what this month cost.
    const listed = (await customer.client.get('/api/account/invoices')).json<{
      invoices: { id: string; status: string; total: number }[];
    }>();
    expect(listed.invoices).toContainEqual(expect.objectContaining({ id: invoices[0]!.id, status: 'paid', total: 999 }));
    const ledger = await server().db.selectFrom('credit_ledger').selectAll().where('source', '=', `top-up:${invoices[0]!.id}`).execute();
    expect(ledger).toMatchObject([{ user_id: customer.userId, amount: 500 }]);
    const audit = await server()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.credits.top_up')
      .where('target_id', '=', customer.userId)
      .execute();
    expect(audit).toHaveLength(1);
    // The credits may land while the last uses are still being charged: the entry says the balance around them.
    const before = JSON.parse(audit[0]!.before_json!) as { credits: number };
    expect(JSON.parse(audit[0]!.after_json!)).toMatchObject({ amount: 500, credits: before.credits + 500, invoiceId: invoices[0]!.id });
    expect(await topUpView(customer)).toMatchObject({
      paused: null,
      thisMonth: { spent: 999, currency: 'usd' },
      last: { status: 'credited', credits: 500, amount: 999, currency: 'usd' },
    });
  });

  it('grants a paid invoice once, however often Stripe tells of it', async () => {
    const catalogue = await seedCatalogue(stripe());
    const customer = await packBuyer(server(), stripe(), catalogue);
    await saveTopUp(customer, settings(catalogue));
    expect(await use(server().app, customer.userId, 60)).toBe(201);
    const [topUp] = await settledTopUps(server().db, stripe(), customer.userId, 1);
    const paid = [...stripe().events.values()].find((e) => e.type === 'invoice.paid' && e.data.object.id === topUp!.invoice_id)!;
    expect(await stripe().redeliver(paid)).toBe(200);
    // Another event about the same invoice (Stripe's invoice.paid and a retry of its own) adds nothing either.
    const again = await stripe().emit('invoice.paid', stripe().invoices.get(topUp!.invoice_id!)!);
    expect(again.status).toBe(200);
    expect(await balanceOf(customer)).toBe(500 - 60 + 500);
    const entries = await server()
      .db.selectFrom('credit_ledger')
      .select('id')
      .where('source', 'like', 'top-up:%')
      .where('user_id', '=', customer.userId)
      .execute();
    expect(entries).toHaveLength(1);
  });

  it("refuses a top-up that would pass the month's cap, and says so", async () => {
    const catalogue = await seedCatalogue(stripe());
    const customer = await packBuyer(server(), stripe(), catalogue);
    await saveTopUp(customer, settings(catalogue, { monthlyCap: 1500 }));
    expect(await use(server().app, customer.userId, 60)).toBe(201); // 500 → 440: the first top-up, 999 of 1500
    await settledTopUps(server().db, stripe(), customer.userId, 1);
    expect(await use(server().app, customer.userId, 500)).toBe(201); // 940 → 440: a second would cost 1998
    const rows = await settledTopUps(server().db, stripe(), customer.userId, 2);
    expect(rows.map((r) => r.status)).toEqual(['credited', 'capped']);
    expect(await balanceOf(customer)).toBe(440);
    expect(await topUpView(customer)).toMatchObject({
      paused: null,
      thisMonth: { spent: 999, currency: 'usd' },
      last: { status: 'capped', amount: 999 },
    });
    expect(
      [...stripe().invoices.values()].filter(
        (i) => i.description?.startsWith('Automatic top-up') && i.metadata.user_id === customer.userId,
      ),
    ).toHaveLength(1);
  });

  it.each([
    ['pm_card_chargeCustomerFail', 'card_declined', 'declined', 'Automatic top-up is paused: your card was declined'],
    [
      'pm_card_authenticationRequired',
      'authentication_required',
      'authentication_required',
      'Automatic top-up is paused: your card needs you to confirm the payment',
    ],
  ] as const)(
    'pauses when the saved card is %s, mails the user a link to buy by hand, and runs again once turned back on',
    async (card, reason, status, subject) => {
      const catalogue = await seedCatalogue(stripe());
      const customer = await packBuyer(server(), stripe(), catalogue);
      // The card to charge is one saved later through the dashboard's "Add Payment Method" (setup mode).
      const session = await customer.client.post('/api/stripe/create-payment-method-session', { returnUrl: 'http://sage.test/dashboard' });
      expect(session.statusCode, session.body).toBe(200);
      await stripe().completeCheckoutSession(sessionIdOf(session.json<{ url: string }>().url), { card });
      await saveTopUp(customer, settings(catalogue));

      expect(await use(server().app, customer.userId, 60)).toBe(201);
      const [topUp] = await settledTopUps(server().db, stripe(), customer.userId, 1);
      expect(topUp).toMatchObject({ status, credits: 500 });
      expect(stripe().invoices.get(topUp!.invoice_id!)?.status).toBe('void');
      expect(await balanceOf(customer)).toBe(440);
      // The top-up's status is written before the pause, in a transaction of its own: wait for both.
      await vi.waitFor(async () =>
        expect(await topUpView(customer)).toMatchObject({ paused: { reason }, last: { status }, thisMonth: { spent: 0 } }),
      );

      const mail = await server().smtp.waitForMail(customer.email);
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain('fell below 450');
      expect(mail.links).toContain('http://sage.test/products-checkout');
      expect(mail.links).toContain('http://sage.test/dashboard#usage');
      const pause = await server()
        .db.selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'user.top_up.pause')
        .where('target_id', '=', customer.userId)
        .execute();
      expect(pause).toHaveLength(1);

      // Paused, the next crossing buys nothing.
      expect(await saveTopUp(customer, settings(catalogue, { enabled: false }))).toMatchObject({ status: 200, body: { paused: null } });
      await saveTopUp(customer, settings(catalogue, { enabled: false, threshold: 100 }));
      expect(await use(server().app, customer.userId, 400)).toBe(201);
      expect(await topUpsOf(server().db, customer.userId)).toHaveLength(1);
    },
  );

  it('buys a top-up left pending (its process stopped after Stripe made the invoice) on the same invoice, once', async () => {
    const catalogue = await seedCatalogue(stripe());
    const customer = await packBuyer(server(), stripe(), catalogue);
    await saveTopUp(customer, settings(catalogue));
    const customerId = (
      await server().db.selectFrom('billing_customers').selectAll().where('user_id', '=', customer.userId).executeTakeFirstOrThrow()
    ).customer_id;
    const crossing = `use:${randomUUID()}`;
    const id = randomUUID();
    const tenMinutesAgo = Date.now() - 10 * 60_000;
    await server()
      .db.insertInto('top_ups')
      .values({ ...pendingTopUp(catalogue, crossing, tenMinutesAgo, id), user_id: customer.userId })
      .execute();
    // What the stopped process had asked of Stripe: the invoice, under the crossing's key.
    const metadata = { top_up_id: id, user_id: customer.userId, price_id: catalogue.pack.price, credits_amount: '500' };
    const first = await stripe()
      .client()
      .invoices.create(
        {
          customer: customerId,
          currency: 'usd',
          collection_method: 'charge_automatically',
          auto_advance: false,
          pending_invoice_items_behavior: 'exclude',
          description: `Automatic top-up: ${[...stripe().products.values()].find((p) => p.id === catalogue.pack.id)!.name}`,
          metadata,
        },
        { idempotencyKey: `top-up:${crossing}:invoice` },
      );

    const topUps = createTopUpService(housekeepingDeps(server()));
    const [retried, again] = await Promise.all([topUps.retryPending(), topUps.retryPending()]);
    expect(retried + again).toBe(1);
    const [topUp] = await settledTopUps(server().db, stripe(), customer.userId, 1);
    expect(topUp).toMatchObject({ status: 'credited', invoice_id: first.id });
    expect([...stripe().invoices.values()].filter((i) => i.customer === customerId)).toHaveLength(1);
    expect(await balanceOf(customer)).toBe(1000);
  });

  it('buys at once when the settings turn it on with the credits already under the threshold', async () => {
    const catalogue = await seedCatalogue(stripe());
    const customer = await packBuyer(server(), stripe(), catalogue);
    expect(await use(server().app, customer.userId, 300)).toBe(201);
    const saved = await saveTopUp(customer, settings(catalogue, { threshold: 450 }));
    expect(saved.status).toBe(200);
    const [topUp] = await settledTopUps(server().db, stripe(), customer.userId, 1);
    expect(topUp).toMatchObject({ status: 'credited' });
    expect(topUp!.crossing).toMatch(/^saved:/);
    expect(await balanceOf(customer)).toBe(700);
    // Saving the same settings again buys nothing more.
    await saveTopUp(customer, settings(catalogue, { threshold: 450 }));
    expect(await use(server().app, customer.userId, 1)).toBe(201);
    expect(await topUpsOf(server().db, customer.userId)).toHaveLength(1);
  });
});
