// The Stripe fixture (tests/fixtures/stripeServer.ts) is only worth having if the real SDK cannot tell
// it from api.stripe.com: these tests drive it with `stripe` itself, never a mock.
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeEvent, type StripeFixture } from '../fixtures/stripeServer';

const SUCCESS_URL = 'http://sage.test/billing/success?session_id={CHECKOUT_SESSION_ID}';
const CANCEL_URL = 'http://sage.test/billing/plans';

describe('Stripe fixture, driven by the real SDK', () => {
  let fixture: StripeFixture;
  let stripe: Stripe;
  let received: { payload: string; headers: Record<string, string> }[];

  beforeAll(async () => {
    fixture = await startStripeServer();
    stripe = fixture.client();
  });
  afterAll(() => fixture.close());
  beforeEach(() => {
    received = [];
    fixture.deliverTo(async (payload, headers) => {
      received.push({ payload, headers });
      return 200;
    });
  });

  /** A plan with a monthly price, and a customer. */
  async function plan() {
    const product = fixture.addProduct({ name: 'Sage Pro', metadata: { popular: 'true' } });
    const monthly = fixture.addPrice({ product: product.id, unit_amount: 1999, recurring: { interval: 'month' } });
    const customer = await stripe.customers.create({ email: 'ada@example.com', metadata: { user_id: 'u1' } });
    return { product, monthly, customer };
  }

  async function trialCheckout(customer: string, price: string) {
    return stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price, quantity: 1 }],
      success_url: SUCCESS_URL,
      cancel_url: CANCEL_URL,
      subscription_data: { trial_period_days: 14, trial_settings: { end_behavior: { missing_payment_method: 'pause' } } },
      payment_method_collection: 'if_required',
      metadata: { user_id: 'u1' },
    });
  }

  it('makes one customer for concurrent creates with the same idempotency key', async () => {
    const key = `customer-for-${Date.now()}`;
    const create = () => stripe.customers.create({ email: 'once@example.com', metadata: { user_id: 'u-once' } }, { idempotencyKey: key });
    const [first, second] = await Promise.all([create(), create()]);
    expect(second.id).toBe(first.id);
    expect([...fixture.customers.values()].filter((c) => c.email === 'once@example.com')).toHaveLength(1);
    expect(fixture.requests.filter((r) => r.idempotencyKey === key)).toHaveLength(2);
    await expect(stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: key })).rejects.toBeInstanceOf(
      Stripe.errors.StripeIdempotencyError,
    );
    const listed = await stripe.customers.list({ email: 'once@example.com' });
    expect(listed.data.map((c) => c.id)).toEqual([first.id]);
  });

  it('pages through products newest first, as autoPagingToArray does', async () => {
    const own = await startStripeServer();
    try {
      const made = [1, 2, 3, 4, 5].map((n) => own.addProduct({ name: `Product ${n}`, active: n !== 3 }));
      const client = own.client();
      const all = await client.products.list({ limit: 2 }).autoPagingToArray({ limit: 100 });
      expect(all.map((p) => p.name)).toEqual(['Product 5', 'Product 4', 'Product 3', 'Product 2', 'Product 1']);
      expect(own.requests.map((r) => r.params.starting_after)).toEqual([undefined, made[3]?.id, made[1]?.id]);
      const active = await client.products.list({ active: true, limit: 10 });
      expect(active.data).toHaveLength(4);
      expect(active.has_more).toBe(false);
      await expect(client.products.retrieve('prod_missing')).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        statusCode: 404,
        code: 'resource_missing',
        message: "No such product: 'prod_missing'",
      });
    } finally {
      await own.close();
    }
  });

  it('creates a Checkout Session and retrieves it with line_items expanded', async () => {
    const { product, monthly, customer } = await plan();
    const session = await trialCheckout(customer.id, monthly.id);
    expect(session).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      mode: 'subscription',
      customer: customer.id,
      subscription: null,
    });
    expect(session.metadata).toEqual({ user_id: 'u1' });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${fixture.url}/checkout/${session.id}`);
    const fetched = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items.data.price.product'] });
    const line = fetched.line_items?.data[0];
    expect(line?.quantity).toBe(1);
    expect(line?.price?.unit_amount).toBe(1999);
    expect((line?.price?.product as Stripe.Product).name).toBe(product.name);
    const lines = await stripe.checkout.sessions.listLineItems(session.id);
    expect(lines.data.map((l) => l.price?.id)).toEqual([monthly.id]);
  });

  it('refuses what Stripe refuses, with its errors', async () => {
    const { product, customer } = await plan();
    const once = fixture.addPrice({ product: product.id, unit_amount: 500, recurring: null });
    const create = (price: string, mode: 'subscription' | 'payment' = 'subscription') =>
      stripe.checkout.sessions.create({ mode, customer: customer.id, line_items: [{ price, quantity: 1 }], success_url: SUCCESS_URL });
    await expect(create('price_nope')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      message: "No such price: 'price_nope'",
      param: 'line_items[0][price]',
    });
    await expect(create(once.id)).rejects.toThrow(
      'You must provide at least one recurring price in `subscription` mode when using prices.',
    );
    await expect(stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price: once.id, quantity: 1 }] })).rejects.toMatchObject(
      { param: 'success_url' },
    );
    await expect(stripe.subscriptions.list({ customer: customer.id, expand: ['data.items.data.price.product'] })).rejects.toThrow(
      'You cannot expand more than 4 levels of a property. Property: data.items.data.price.product',
    );
    const stranger = new Stripe('sk_test_wrong', { host: '127.0.0.1', port: fixture.port, protocol: 'http', maxNetworkRetries: 0 });
    await expect(stranger.products.list()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('completes a trial checkout: signed events in order, and a subscription to expand', async () => {
    const { product, monthly, customer } = await plan();
    const session = await trialCheckout(customer.id, monthly.id);
    const { subscription, events } = await fixture.completeCheckoutSession(session.id);
    expect(events.map((e) => e.type)).toEqual(['customer.subscription.created', 'checkout.session.completed']);
    expect(received.map((r) => (JSON.parse(r.payload) as StripeEvent).type)).toEqual(events.map((e) => e.type));
    for (const { payload, headers } of received) {
      const header = headers['stripe-signature'] ?? '';
      expect(stripe.webhooks.constructEvent(payload, header, fixture.webhookSecret).api_version).toBe(Stripe.API_VERSION);
      expect(() => stripe.webhooks.constructEvent(payload, header, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    }
    expect(subscription).toMatchObject({ status: 'trialing', default_payment_method: null, customer: customer.id });

    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'no_payment_required' });
    const sub = completed.subscription as Stripe.Subscription;
    expect(sub.trial_end).toBe(sub.items.data[0]?.current_period_end);
    expect(sub.trial_end! - sub.trial_start!).toBe(14 * 86_400);

    const expanded = await stripe.subscriptions.retrieve(sub.id, { expand: ['items.data.price.product', 'default_payment_method'] });
    expect((expanded.items.data[0]?.price.product as Stripe.Product).name).toBe(product.name);
    const listed = await stripe.subscriptions.list({ customer: customer.id, expand: ['data.default_payment_method'] });
    expect(listed.data.map((s) => s.id)).toEqual([sub.id]);

    // A duplicate delivery is the same event, signed afresh; a forged signature is sent as given.
    expect(await fixture.redeliver(events[1]!)).toBe(200);
    expect(JSON.parse(received.at(-1)!.payload)).toEqual(events[1]);
    await fixture.redeliver(events[1]!, { signature: 't=1,v1=forged' });
    expect(received.at(-1)?.headers['stripe-signature']).toBe('t=1,v1=forged');
  });

  it('saves a card in setup mode: a succeeded SetupIntent whose card can become the default', async () => {
    const { customer } = await plan();
    const session = await stripe.checkout.sessions.create({
      mode: 'setup',
      customer: customer.id,
      currency: 'usd',
      success_url: SUCCESS_URL,
      setup_intent_data: { metadata: { subscription_id: 'sub_1' } },
    });
    const { events } = await fixture.completeCheckoutSession(session.id);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed']);
    const intent = (await stripe.checkout.sessions.retrieve(session.id, { expand: ['setup_intent'] })).setup_intent as Stripe.SetupIntent;
    expect(intent).toMatchObject({ status: 'succeeded', customer: customer.id, metadata: { subscription_id: 'sub_1' } });
    const card = await stripe.paymentMethods.retrieve(intent.payment_method as string);
    expect(card.card?.last4).toBe('4242');
    const updated = await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
    expect(updated.invoice_settings.default_payment_method).toBe(card.id);
    const other = await stripe.customers.create({ email: 'someone@example.com' });
    await expect(stripe.customers.update(other.id, { invoice_settings: { default_payment_method: card.id } })).rejects.toThrow(
      'The payment method must be attached to the customer.',
    );
  });

  it('resumes only a paused subscription', async () => {
    const { monthly, customer } = await plan();
    const { subscription } = await fixture.completeCheckoutSession((await trialCheckout(customer.id, monthly.id)).id);
    const id = subscription!.id;
    await expect(stripe.subscriptions.resume(id)).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400 });

    const paused = await fixture.updateSubscription(id, { status: 'paused' });
    expect(paused.events.map((e) => e.type)).toEqual(['customer.subscription.paused', 'customer.subscription.updated']);
    received = [];
    const resumed = await stripe.subscriptions.resume(id, { billing_cycle_anchor: { type: 'now' } });
    expect(resumed).toMatchObject({ status: 'active', pause_collection: null });
    await fixture.settle(); // API-caused events follow the answer
    expect(received.map((r) => (JSON.parse(r.payload) as StripeEvent).type)).toEqual([
      'customer.subscription.resumed',
      'customer.subscription.updated',
    ]);
  });

  it('serves the hosted checkout page, whose form completes the session and returns to success_url', async () => {
    const { monthly, customer } = await plan();
    const session = await trialCheckout(customer.id, monthly.id);
    const page = await fetch(session.url!);
    const html = await page.text();
    expect(html).toContain('Sage Pro');
    expect(html).toContain('$19.99 / month');
    expect(html).toMatch(/<button type="submit">Start trial<\/button>/);
    expect(html).toContain(`href="${CANCEL_URL}"`);

    const done = await fetch(`${fixture.url}/checkout/${session.id}/complete`, { method: 'POST', redirect: 'manual' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(SUCCESS_URL.replace('{CHECKOUT_SESSION_ID}', session.id));
    expect(received.map((r) => (JSON.parse(r.payload) as StripeEvent).type)).toEqual([
      'customer.subscription.created',
      'checkout.session.completed',
    ]);
    expect(fixture.checkoutSessions.get(session.id)?.status).toBe('complete');
    expect((await fetch(session.url!)).status).toBe(410);
  });

  it('confirms a plan change in the portal and redirects after completion', async () => {
    const { product, monthly, customer } = await plan();
    const yearly = fixture.addPrice({ product: product.id, unit_amount: 19999, recurring: { interval: 'year' } });
    const { subscription } = await fixture.completeCheckoutSession((await trialCheckout(customer.id, monthly.id)).id);
    const item = subscription!.items.data[0]!;
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://sage.test/dashboard',
      flow_data: {
        type: 'subscription_update_confirm',
        subscription_update_confirm: { subscription: subscription!.id, items: [{ id: item.id, price: yearly.id, quantity: 1 }] },
        after_completion: { type: 'redirect', redirect: { return_url: 'http://sage.test/dashboard?updated=1' } },
      },
    });
    expect(portal.url).toBe(`${fixture.url}/portal/${portal.id}`);
    const html = await (await fetch(portal.url)).text();
    expect(html).toContain('Billing portal');
    expect(html).toMatch(/<button type="submit">Confirm<\/button>/);
    expect(html).toContain('Return to Sage');
    const confirmed = await fetch(`${fixture.url}/portal/${portal.id}/confirm`, { method: 'POST', redirect: 'manual' });
    expect(confirmed.headers.get('location')).toBe('http://sage.test/dashboard?updated=1');
    const event = JSON.parse(received.at(-1)!.payload) as StripeEvent;
    expect(event.type).toBe('customer.subscription.updated');
    expect((event.data.object as unknown as Stripe.Subscription).items.data[0]?.price.id).toBe(yearly.id);
    expect(event.data.previous_attributes).toHaveProperty('items');
  });
});
