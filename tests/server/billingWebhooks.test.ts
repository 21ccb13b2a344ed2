import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../server/cli';
import { createBillingService } from '../../server/services/billing';
import { createStripeGateway } from '../../server/services/billing/stripeGateway';
import { migrateToLatest, openDatabase } from '../../server/db';
import { seedCatalogue, signedInUser, subscribe, useBillingServer, userSubscriptions } from './billingFlow';
import { databases, errorBody } from './harness';

describe.each(databases)('Stripe webhooks on $label', (database) => {
  const { server, stripe } = useBillingServer(database);

  async function postWebhook(payload: string, signature: string) {
    return server().app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    });
  }

  const eventCount = async () => (await server().db.selectFrom('billing_events').select('id').execute()).length;

  it('refuses a bad or stale signature and stores nothing', async () => {
    const catalogue = await seedCatalogue(stripe());
    const before = await eventCount();
    const product = stripe().products.get(catalogue.plan.id) as object;
    const { event } = await (async () => {
      stripe().deliverTo(async () => 200); // Made but not delivered by the fixture.
      return stripe().emit('product.updated', { ...product, name: 'Forged' });
    })();
    const payload = JSON.stringify(event);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' });
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: stripe().webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    for (const signature of [forged, stale, 'garbage', `t=${Math.floor(Date.now() / 1000)},v1=00`]) {
      const response = await postWebhook(payload, signature);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).error).toBe('invalid_signature');
    }
    const tampered = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripe().webhookSecret });
    expect((await postWebhook(payload.replace('Forged', 'Forged!'), tampered)).statusCode).toBe(400);
    const unsigned = await server().app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it('refuses a correctly signed body that is no event with 400, and stores nothing', async () => {
    const before = await eventCount();
    const event = {
      id: 'evt_malformed',
      object: 'event',
      type: 'product.updated',
      created: 1_700_000_000,
      data: { object: { id: 'prod_1' } },
    };
    const malformed: unknown[] = [
      [event],
      null,
      42,
      'text',
      {},
      { ...event, data: undefined },
      { ...event, data: null },
      { ...event, data: {} },
      { ...event, data: { object: 'prod_1' } },
      { ...event, data: { object: null } },
      { ...event, data: { object: [{ id: 'prod_1' }] } },
      { ...event, id: 7 },
      { ...event, id: null },
      { ...event, type: ['product.updated'] },
      { ...event, type: undefined },
      { ...event, created: '1700000000' },
    ];
    const payloads = [...malformed.map((body) => JSON.stringify(body)), '{"id": "evt_cut', ''];
    for (const payload of payloads) {
      const response = await postWebhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: stripe().webhookSecret }));
      expect(response.statusCode, payload).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_event', message: expect.any(String) });
    }
    expect(await eventCount()).toBe(before);

    // Fields the handler does not read pass through: the same event, well formed, is accepted.
    const payload = JSON.stringify({ ...event, livemode: false, request: { id: null }, extra: [1] });
    const accepted = await postWebhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: stripe().webhookSecret }));
    expect(accepted.statusCode).toBe(200);
    expect(await eventCount()).toBe(before + 1);
  });

  it('handles a duplicated event once: the second delivery changes nothing', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const subscriptionId = await subscribe(stripe(), buyer, catalogue);
    const { event } = await stripe().updateSubscription(subscriptionId, { status: 'past_due' });
    expect((await userSubscriptions(buyer)).body.subscriptions[0]?.status).toBe('past_due');

    // Stripe now says active, but its old event comes again: the mirror is not touched.
    await stripe().updateSubscription(subscriptionId, { status: 'active' }, { emit: false });
    const reads = stripe().requests.length;
    expect(await stripe().redeliver(event!)).toBe(200);
    expect(stripe().requests.length).toBe(reads);
    expect((await userSubscriptions(buyer)).body.subscriptions[0]?.status).toBe('past_due');
  });

  it('keeps the newest state when customer.subscription.updated events arrive out of order', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const subscriptionId = await subscribe(stripe(), buyer, catalogue);
    const deliveries: (() => Promise<number>)[] = [];
    stripe().deliverTo(async (payload, headers) => {
      deliveries.push(async () => (await server().app.inject({ method: 'POST', url: '/api/stripe/webhook', payload, headers })).statusCode);
      return 200;
    });
    const cancelAt = Math.floor(Date.now() / 1000) + 86_400 * 30;
    await stripe().updateSubscription(subscriptionId, { status: 'past_due' });
    await stripe().updateSubscription(subscriptionId, { status: 'active', cancel_at: cancelAt });
    expect(deliveries).toHaveLength(2);
    expect(await deliveries[1]!()).toBe(200);
    expect(await deliveries[0]!()).toBe(200);
    const [shown] = (await userSubscriptions(buyer)).body.subscriptions;
    expect(shown?.status).toBe('active');
    expect(shown?.cancel_at).toBe(cancelAt);
  });

  it('follows failed and paid invoices to the subscription they bill', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const subscriptionId = await subscribe(stripe(), buyer, catalogue, { withPaymentMethod: true });
    await stripe().updateSubscription(subscriptionId, { status: 'past_due' }, { emit: false });
    const invoice = {
      id: 'in_test_failed',
      object: 'invoice',
      customer: (stripe().subscriptions.get(subscriptionId) as { customer: string }).customer,
      status: 'open',
      parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
    };
    expect((await stripe().emit('invoice.payment_failed', invoice)).status).toBe(200);
    expect((await userSubscriptions(buyer)).body.subscriptions[0]?.status).toBe('past_due');
  });

  it('keeps the catalogue current from product and price events', async () => {
    const catalogue = await seedCatalogue(stripe());
    await stripe().updateProduct(catalogue.plan.id, { name: 'Sage Studio' }, { emit: true });
    await stripe().updatePrice(catalogue.plan.monthly, { active: false }, { emit: true });
    await stripe().deleteProduct(catalogue.pack.id, { emit: true });
    const { products } = (await server().client().get('/api/stripe/products')).json<{
      products: { id: string; name: string; prices: { id: string }[] }[];
    }>();
    const plan = products.find((p) => p.id === catalogue.plan.id);
    expect(plan?.name).toBe('Sage Studio');
    expect(plan?.prices.map((p) => p.id)).toEqual([catalogue.plan.yearly]);
    expect(products.map((p) => p.id)).not.toContain(catalogue.pack.id);
  });

  it('follows a subscription through pause, resume and cancellation', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const subscriptionId = await subscribe(stripe(), buyer, catalogue, { withPaymentMethod: true });
    const status = async () => (await userSubscriptions(buyer)).body.subscriptions[0]?.status;
    await stripe().updateSubscription(subscriptionId, { status: 'paused' });
    expect(await status()).toBe('paused');
    await stripe().updateSubscription(subscriptionId, { status: 'active' });
    expect(await status()).toBe('active');
    await stripe().updateSubscription(subscriptionId, { status: 'canceled' });
    expect(await status()).toBe('canceled');
    expect((await userSubscriptions(buyer)).body.hasSubscription).toBe(false);
  });

  it("shows a renamed plan's new name on its subscriptions, even when no subscription event follows the rename", async () => {
    // Found by the resilience suite's webhook convergence part: product.updated changed the
    // catalogue but left the name copied into each subscription row.
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    await subscribe(stripe(), buyer, catalogue);
    await stripe().updateProduct(catalogue.plan.id, { name: 'Sage Studio', description: 'Renamed' }, { emit: true });
    const [shown] = (await userSubscriptions(buyer)).body.subscriptions;
    expect(shown?.items.data[0]?.price.product).toMatchObject({ name: 'Sage Studio', description: 'Renamed' });
  });

  it('forgets a customer deleted at Stripe, so the next checkout makes a new one', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    await subscribe(stripe(), buyer, catalogue);
    const customerOf = async () =>
      (await server().db.selectFrom('billing_customers').select('customer_id').where('user_id', '=', buyer.userId).executeTakeFirst())
        ?.customer_id;
    const customerId = (await customerOf())!;
    const deleted = { ...stripe().customers.get(customerId)! };
    stripe().customers.delete(customerId);
    expect((await stripe().emit('customer.deleted', { ...deleted, deleted: true })).status).toBe(200);
    expect(await customerOf()).toBeUndefined();
  });

  it('rebuilds lost customers and subscriptions from Stripe (stripe-sync after a restore)', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const subscriptionId = await subscribe(stripe(), buyer, catalogue);
    await server().db.deleteFrom('billing_subscriptions').where('user_id', '=', buyer.userId).execute();
    await server().db.deleteFrom('billing_customers').where('user_id', '=', buyer.userId).execute();
    expect((await userSubscriptions(buyer)).status).toBe(404);

    const billing = createBillingService({
      db: server().db,
      gateway: createStripeGateway(server().config.stripe!, () => undefined),
      publicUrl: server().config.publicUrl,
      extraOrigins: [],
      onError: () => undefined,
    });
    const counts = await billing.syncAll();
    expect(counts.customers).toBeGreaterThanOrEqual(1);
    expect((await userSubscriptions(buyer)).body.subscriptions.map((s) => s.id)).toEqual([subscriptionId]);
  });

  it('answers other event types with 2xx and remembers them', async () => {
    const { status, event } = await stripe().emit('customer.subscription.trial_will_end', { id: 'sub_unknown', object: 'subscription' });
    expect(status).toBe(200);
    expect(await server().db.selectFrom('billing_events').select('type').where('id', '=', event.id).executeTakeFirst()).toEqual({
      type: 'customer.subscription.trial_will_end',
    });
    expect((await stripe().emit('charge.refunded', { id: 'ch_1', object: 'charge' })).status).toBe(200);
  });
});

describe('npm run cli -- stripe-sync', () => {
  const { stripe } = useBillingServer(databases[0]!);

  it('rebuilds the catalogue mirror from Stripe', async () => {
    stripe().deliverTo(async () => 200); // The new database hears no events: only the sync fills it.
    const catalogue = await seedCatalogue(stripe());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-sync-'));
    const saved = { ...process.env };
    Object.assign(process.env, stripe().env, { DATA_DIR: dataDir });
    delete process.env.DATABASE_URL;
    const output: string[] = [];
    try {
      expect(await runCli(['stripe-sync'], (line) => output.push(line))).toBe(0);
      expect(output.join('\n')).toMatch(/^Synced \d+ products, \d+ prices, and 0 subscriptions of 0 customers from Stripe\.$/);
      const db = openDatabase({ dataDir });
      try {
        await migrateToLatest(db);
        const ids = (await db.selectFrom('billing_prices').select('id').execute()).map((r) => r.id);
        expect(ids).toEqual(expect.arrayContaining([catalogue.plan.monthly, catalogue.plan.yearly, catalogue.pack.price]));
      } finally {
        await db.destroy();
      }
    } finally {
      process.env = saved;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('says what it needs when Stripe is not configured', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-sync-'));
    const saved = { ...process.env };
    process.env.DATA_DIR = dataDir;
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL', 'DATABASE_URL']) delete process.env[name];
    try {
      await expect(runCli(['stripe-sync'], () => undefined)).rejects.toThrow(
        'stripe-sync needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
      );
    } finally {
      process.env = saved;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
