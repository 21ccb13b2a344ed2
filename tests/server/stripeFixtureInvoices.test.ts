// The Stripe fixture's invoices, driven by the real SDK: an invoice per billed period of a
// subscription, listed by GET /v1/invoices as api.stripe.com lists them.
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeFixture } from '../fixtures/stripeServer';

const SUCCESS_URL = 'http://sage.test/billing/success?session_id={CHECKOUT_SESSION_ID}';

describe('Stripe fixture invoices, driven by the real SDK', () => {
  let fixture: StripeFixture;
  let stripe: Stripe;

  beforeAll(async () => {
    fixture = await startStripeServer();
    stripe = fixture.client();
  });
  afterAll(() => fixture.close());
  beforeEach(() => fixture.deliverTo(async () => 200));

  /** A monthly plan's subscription for a new customer: with a trial (and a card or not), or paid at once. */
  async function subscription(opts: { trial: boolean; card: boolean; onMissingCard?: 'pause' | 'cancel' | 'create_invoice' }) {
    const product = fixture.addProduct({ name: 'Sage Pro' });
    const monthly = fixture.addPrice({ product: product.id, unit_amount: 1999, recurring: { interval: 'month' } });
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: monthly.id, quantity: 1 }],
      success_url: SUCCESS_URL,
      ...(opts.trial
        ? {
            subscription_data: {
              trial_period_days: 14,
              trial_settings: { end_behavior: { missing_payment_method: opts.onMissingCard ?? 'pause' } },
            },
            payment_method_collection: 'if_required' as const,
          }
        : {}),
    });
    const { subscription: sub } = await fixture.completeCheckoutSession(session.id, { withPaymentMethod: opts.card });
    return { customer, id: sub!.id };
  }

  it('bills the first period at checkout and each renewal, numbered per customer, with its page and PDF', async () => {
    const { customer, id } = await subscription({ trial: false, card: true });
    const before = await stripe.subscriptions.retrieve(id);
    const first = await fixture.renewSubscription(id);
    expect(first.events.map((e) => e.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    const listed = await stripe.invoices.list({ customer: customer.id });
    expect(listed.data.map((i) => [i.number, i.billing_reason, i.status, i.amount_paid, i.total])).toEqual([
      [`${customer.invoice_prefix}-0002`, 'subscription_cycle', 'paid', 1999, 1999],
      [`${customer.invoice_prefix}-0001`, 'subscription_create', 'paid', 1999, 1999],
    ]);
    const [latest] = listed.data;
    expect(latest?.hosted_invoice_url).toBe(`${fixture.url}/invoice/${latest?.id}`);
    expect(latest?.invoice_pdf).toBe(`${fixture.url}/invoice/${latest?.id}/pdf`);
    expect((await stripe.subscriptions.retrieve(id)).latest_invoice).toBe(latest?.id);
    // The renewed period starts where the last one ended.
    expect(first.subscription.items.data[0]?.current_period_start).toBe(before.items.data[0]?.current_period_end);

    expect((await stripe.invoices.list({ customer: customer.id, status: 'open' })).data).toEqual([]);
    expect((await stripe.invoices.list({ subscription: id, limit: 1 })).has_more).toBe(true);
    await expect(stripe.invoices.list({ customer: 'cus_nope' })).rejects.toMatchObject({ statusCode: 400, param: 'customer' });
  });

  it('ends a trial: paid with a card, paused or open and past_due without one', async () => {
    const withCard = await subscription({ trial: true, card: true });
    const paid = await fixture.renewSubscription(withCard.id);
    expect(paid.subscription).toMatchObject({ status: 'active' });
    expect(paid.invoice).toMatchObject({ status: 'paid', amount_paid: 1999, billing_reason: 'subscription_cycle' });

    const paused = await fixture.renewSubscription((await subscription({ trial: true, card: false })).id);
    expect(paused.subscription.status).toBe('paused');
    expect(paused.invoice).toBeUndefined();

    const billed = await fixture.renewSubscription((await subscription({ trial: true, card: false, onMissingCard: 'create_invoice' })).id);
    expect(billed.subscription.status).toBe('past_due');
    expect(billed.invoice).toMatchObject({ status: 'open', amount_paid: 0, amount_remaining: 1999 });
    expect(billed.events.map((e) => e.type)).toEqual(['customer.subscription.updated', 'invoice.payment_failed']);
  });

  it('serves the hosted invoice page and a PDF', async () => {
    const { customer } = await subscription({ trial: false, card: true });
    const [invoice] = (await stripe.invoices.list({ customer: customer.id })).data;
    const page = await fetch(invoice?.hosted_invoice_url ?? '');
    const html = await page.text();
    expect(html).toContain(`<h1>Invoice ${invoice?.number}</h1>`);
    expect(html).toContain('$19.99');
    expect(html).toContain(`href="${invoice?.invoice_pdf}"`);
    const pdf = await fetch(invoice?.invoice_pdf ?? '');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).toString('latin1')).toMatch(/^%PDF-1\.4\n[\s\S]*\(Total: 19\.99 USD\) '[\s\S]*%%EOF\n$/);
    expect((await fetch(`${fixture.url}/invoice/in_nope`)).status).toBe(404);
  });
});
