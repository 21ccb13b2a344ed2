/**
 * Billing tests' shared steps: a Stripe-compatible server per suite (tests/fixtures/stripeServer.ts)
 * that the app's real Stripe SDK talks to, its webhooks delivered to the test's app, a catalogue,
 * and a signed-in customer who checks out.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Db } from '../../server/db';
import { startStripeServer, type StripeFixture } from '../fixtures/stripeServer';
import { PUBLIC_URL, uniqueEmail, useTestServer, type TestClient, type TestDatabase, type TestServer } from './harness';

export const WEB_SUCCESS_URL = `${PUBLIC_URL}/api/stripe/subscription-update-success?client=web`;
export const WEB_CANCEL_URL = `${PUBLIC_URL}/products-checkout?client=web`;

/** The app of each test, with Stripe configured to the suite's fixture and its webhooks wired in. */
export function useBillingServer(
  database: TestDatabase,
  env: Record<string, string> = {},
): { server: () => TestServer; stripe: () => StripeFixture } {
  let fixture: StripeFixture | undefined;
  beforeAll(async () => {
    fixture = await startStripeServer();
  });
  afterAll(async () => {
    await fixture?.close();
  });
  const stripe = () => {
    if (!fixture) throw new Error('the Stripe fixture is not running');
    return fixture;
  };
  const server = useTestServer(database, () => ({ ...stripe().env, ...env }));
  beforeEach(() => {
    stripe().deliverTo(async (payload, headers) => {
      const response = await server().app.inject({ method: 'POST', url: '/api/stripe/webhook', payload, headers });
      return response.statusCode;
    });
  });
  return { server, stripe };
}

export interface Catalogue {
  plan: { id: string; monthly: string; yearly: string };
  pack: { id: string; price: string; credits: number };
}

let catalogueCounter = 0;

/** A plan (monthly and yearly) and a credit pack, announced to the app by Stripe's events. */
export async function seedCatalogue(stripe: StripeFixture): Promise<Catalogue> {
  catalogueCounter += 1;
  const emit = { emit: true };
  const plan = await stripe.addProduct(
    { name: `Sage Pro ${catalogueCounter}`, description: 'For daily work', metadata: { popular: 'true', credits_amount: '1000' } },
    emit,
  );
  const monthly = await stripe.addPrice({ product: plan.id, unit_amount: 1999, currency: 'usd', recurring: { interval: 'month' } }, emit);
  const yearly = await stripe.addPrice({ product: plan.id, unit_amount: 19999, currency: 'usd', recurring: { interval: 'year' } }, emit);
  const pack = await stripe.addProduct(
    { name: `500 queries ${catalogueCounter}`, description: 'A credit pack', metadata: { credits_amount: '500' } },
    emit,
  );
  const packPrice = await stripe.addPrice({ product: pack.id, unit_amount: 999, currency: 'usd', recurring: null }, emit);
  return {
    plan: { id: plan.id, monthly: monthly.id, yearly: yearly.id },
    pack: { id: pack.id, price: packPrice.id, credits: 500 },
  };
}

export interface Customer {
  client: TestClient;
  email: string;
  userId: string;
}

/** A new account, signed in. */
export async function signedInUser(server: TestServer, prefix = 'buyer'): Promise<Customer> {
  const client = server.client();
  const email = uniqueEmail(prefix);
  await client.register(email);
  const me = (await client.get('/api/user')).json<{ id: string }>();
  return { client, email, userId: me.id };
}

/** `create-checkout-session` as the web client sends it; answers the checkout URL. */
export async function startCheckout(customer: Customer, priceId: string, productId: string): Promise<string> {
  const response = await customer.client.post('/api/stripe/create-checkout-session', {
    priceId,
    productId,
    successUrl: WEB_SUCCESS_URL,
    cancelUrl: WEB_CANCEL_URL,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ url: string }>().url;
}

/** The Checkout session behind a hosted-checkout URL of the fixture. */
export function sessionIdOf(url: string): string {
  const id = new URL(url).pathname.split('/').pop();
  if (!id) throw new Error(`not a checkout URL: ${url}`);
  return id;
}

/** Checks out a plan and completes the session (webhooks delivered); answers the subscription id. */
export async function subscribe(
  stripe: StripeFixture,
  customer: Customer,
  catalogue: Catalogue,
  opts: { price?: string; withPaymentMethod?: boolean } = {},
): Promise<string> {
  const url = await startCheckout(customer, opts.price ?? catalogue.plan.monthly, catalogue.plan.id);
  const { subscription } = await stripe.completeCheckoutSession(sessionIdOf(url), { withPaymentMethod: opts.withPaymentMethod });
  if (!subscription) throw new Error('the checkout made no subscription');
  return subscription.id;
}

export interface SubscriptionView {
  id: string;
  status: string;
  trial_end: number | null;
  current_period_end: number | null;
  cancel_at: number | null;
  default_payment_method: string | null;
  items: { data: { id: string; price: { id: string; unit_amount: number; currency: string; product: { name: string } } }[] };
}

export async function userSubscriptions(customer: Customer) {
  const response = await customer.client.get('/api/stripe/user-subscriptions');
  return {
    status: response.statusCode,
    body: response.json<{ hasSubscription: boolean; has_default_payment_method: boolean; subscriptions: SubscriptionView[] }>(),
  };
}

export async function creditBalance(db: Db, userId: string): Promise<number> {
  const rows = await db.selectFrom('credit_ledger').select('amount').where('user_id', '=', userId).execute();
  return rows.reduce((sum, row) => sum + Number(row.amount), 0);
}
