// The Stripe fixture's payments without Checkout (server/devStripe/paymentsApi.ts) and its test
// cards (cards.ts), driven by the real SDK: a card saved by a pack's Checkout, PaymentIntents
// confirmed off session, invoices paid with a saved card, and Stripe's idempotency for a payment
// that failed as much as for one that succeeded.
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeEvent, type StripeFixture } from '../fixtures/stripeServer';

const SUCCESS_URL = 'http://sage.test/billing/success?session_id={CHECKOUT_SESSION_ID}';

describe('Stripe fixture: saved cards and payments without the customer', () => {
  let fixture: StripeFixture;
  let stripe: Stripe;
  let received: StripeEvent[];

  beforeAll(async () => {
    fixture = await startStripeServer();
    stripe = fixture.client();
  });
  afterAll(() => fixture.close());
  beforeEach(() => {
    received = [];
    fixture.deliverTo(async (payload) => {
      received.push(JSON.parse(payload) as StripeEvent);
      return 200;
    });
  });

  /** A pack's one-time price, and a customer. */
  async function pack() {
    const product = fixture.addProduct({ name: 'Query pack', metadata: { credits_amount: '500' } });
    const price = fixture.addPrice({ product: product.id, unit_amount: 999, currency: 'eur' });
    const customer = await stripe.customers.create({ email: 'ada@example.com', metadata: { user_id: 'u1' } });
    return { product, price, customer };
  }

  /** A customer with the test card `token` saved as their default. */
  async function customerWithCard(token: string) {
    const { price, customer } = await pack();
    const card = await stripe.paymentMethods.attach(token, { customer: customer.id });
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
    return { price, customer, card };
  }

  async function openInvoice(customer: string, price: string, key?: string) {
    const options = (step: string) => (key ? { idempotencyKey: `${key}:${step}` } : {});
    const draft = await stripe.invoices.create(
      {
        customer,
        currency: 'eur',
        auto_advance: false,
        collection_method: 'charge_automatically',
        pending_invoice_items_behavior: 'exclude',
        description: 'Automatic top-up: Query pack',
        metadata: { top_up_id: 't1' },
      },
      options('invoice'),
    );
    await stripe.invoiceItems.create({ customer, invoice: draft.id!, pricing: { price } }, options('item'));
    return stripe.invoices.finalizeInvoice(draft.id!, { auto_advance: false }, options('finalize'));
  }

  it('saves the card a pack was paid with on the customer when the session asks to keep it', async () => {
    const { price, customer } = await pack();
    const checkout = (setupFutureUsage?: 'off_session') =>
      stripe.checkout.sessions.create({
        mode: 'payment',
        customer: customer.id,
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: SUCCESS_URL,
        ...(setupFutureUsage ? { payment_intent_data: { setup_future_usage: setupFutureUsage } } : {}),
      });
    const kept = await checkout('off_session');
    await fixture.completeCheckoutSession(kept.id, { card: 'pm_card_authenticationRequired' });
    const paid = (await stripe.checkout.sessions.retrieve(kept.id, { expand: ['payment_intent'] })).payment_intent as Stripe.PaymentIntent;
    // Its holder was on the page: the card that asks for them is paid.
    expect(paid).toMatchObject({ status: 'succeeded', setup_future_usage: 'off_session', amount_received: 999 });
    const card = await stripe.paymentMethods.retrieve(paid.payment_method as string);
    expect(card).toMatchObject({ customer: customer.id, card: { last4: '3184' } });

    const notKept = await checkout();
    await fixture.completeCheckoutSession(notKept.id);
    const once = (await stripe.checkout.sessions.retrieve(notKept.id, { expand: ['payment_intent'] }))
      .payment_intent as Stripe.PaymentIntent;
    expect(once.setup_future_usage).toBeNull();
    expect((await stripe.paymentMethods.retrieve(once.payment_method as string)).customer).toBeNull();
    expect((await stripe.paymentMethods.list({ customer: customer.id })).data.map((pm) => pm.id)).toEqual([card.id]);
  });

  it('lets the hosted Checkout page pick a test card, and says so when it is declined', async () => {
    const { price, customer } = await pack();
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: SUCCESS_URL,
    });
    const html = await (await fetch(session.url!)).text();
    expect(html).toContain('<legend>Card</legend>');
    expect(html).toMatch(/value="pm_card_authenticationRequired"/);
    const pay = (card: string) =>
      fetch(`${fixture.url}/checkout/${session.id}/complete`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ card }),
      });
    const declined = await pay('pm_card_chargeCustomerFail');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('<p role="alert">Your card was declined.</p>');
    expect(fixture.checkoutSessions.get(session.id)?.status).toBe('open');
    expect(received).toEqual([]);
    expect((await pay('pm_card_visa')).status).toBe(303);
    expect(received.map((e) => e.type)).toEqual(['checkout.session.completed']);
  });

  it.each([
    ['pm_card_visa', null, 'succeeded'],
    ['pm_card_chargeCustomerFail', 'card_declined', 'requires_payment_method'],
    ['pm_card_authenticationRequired', 'authentication_required', 'requires_payment_method'],
  ] as const)('charges a saved %s off session: %s', async (token, code, status) => {
    const { customer, card } = await customerWithCard(token);
    expect(card.customer).toBe(customer.id);
    const confirm = () =>
      stripe.paymentIntents.create({
        amount: 999,
        currency: 'eur',
        customer: customer.id,
        payment_method: card.id,
        confirm: true,
        off_session: true,
      });
    if (code === null) {
      expect(await confirm()).toMatchObject({ status, amount_received: 999, last_payment_error: null });
      return;
    }
    const failure = await confirm().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Stripe.errors.StripeCardError);
    const error = failure as Stripe.errors.StripeCardError;
    expect(error).toMatchObject({ statusCode: 402, code, decline_code: code === 'card_declined' ? 'generic_decline' : code });
    expect(error.payment_intent).toMatchObject({ status, last_payment_error: { code }, amount_received: 0 });
  });

  it('asks a holder who is there to authenticate, and charges the card that needs them', async () => {
    const { customer, card } = await customerWithCard('pm_card_authenticationRequired');
    const onSession = await stripe.paymentIntents.create({
      amount: 500,
      currency: 'eur',
      customer: customer.id,
      payment_method: card.id,
      confirm: true,
    });
    expect(onSession.status).toBe('succeeded');
  });

  it('pays an invoice of a one-time price off session with the saved card: numbered, its page, invoice.paid', async () => {
    const { price, customer, card } = await customerWithCard('pm_card_visa');
    const open = await openInvoice(customer.id, price.id);
    expect(open).toMatchObject({ status: 'open', total: 999, amount_due: 999, parent: null, billing_reason: 'manual' });
    expect(open.number).toMatch(/-0001$/);
    const paid = await stripe.invoices.pay(open.id!, { off_session: true, payment_method: card.id });
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 999, amount_remaining: 0, metadata: { top_up_id: 't1' } });
    await fixture.settle();
    expect(received.map((e) => e.type)).toEqual(['invoice.paid']);
    const page = await (await fetch(paid.hosted_invoice_url!)).text();
    expect(page).toContain('Automatic top-up: Query pack');
    expect((await stripe.invoices.list({ customer: customer.id })).data.map((i) => i.id)).toEqual([paid.id]);
  });

  it('leaves an invoice open when the card needs its holder, tells invoice.payment_failed, and voids it', async () => {
    const { price, customer, card } = await customerWithCard('pm_card_authenticationRequired');
    const open = await openInvoice(customer.id, price.id);
    await expect(stripe.invoices.pay(open.id!, { off_session: true, payment_method: card.id })).rejects.toMatchObject({
      type: 'StripeCardError',
      code: 'authentication_required',
    });
    await fixture.settle();
    expect(received.map((e) => e.type)).toEqual(['invoice.payment_failed']);
    expect((await stripe.invoices.retrieve(open.id!)).status).toBe('open');
    expect((await stripe.invoices.voidInvoice(open.id!)).status).toBe('void');
    await expect(stripe.invoices.pay(open.id!)).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
  });

  it('answers a repeated key with the first answer, a decline too, and makes one payment', async () => {
    const { price, customer, card } = await customerWithCard('pm_card_chargeCustomerFail');
    const open = await openInvoice(customer.id, price.id, 'top-up:use:1');
    expect(await openInvoice(customer.id, price.id, 'top-up:use:1')).toMatchObject({ id: open.id, total: 999 });
    const pay = () => stripe.invoices.pay(open.id!, { off_session: true, payment_method: card.id }, { idempotencyKey: 'top-up:use:1:pay' });
    const [first, second] = await Promise.all([pay().catch((e: unknown) => e), pay().catch((e: unknown) => e)]);
    expect(first).toMatchObject({ code: 'card_declined' });
    expect(second).toMatchObject({ code: 'card_declined' });
    expect([...fixture.paymentIntents.values()].filter((pi) => pi.customer === customer.id)).toHaveLength(1);
    expect(fixture.invoices.get(open.id!)?.attempt_count).toBe(1);
    await fixture.settle();
    expect(received.map((e) => e.type)).toEqual(['invoice.payment_failed']);
  });
});
