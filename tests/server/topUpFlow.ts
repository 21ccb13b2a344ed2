/**
 * Automatic top-up tests' shared steps: a customer who bought a pack through Checkout (the card is
 * saved then), their settings, their uses through the ingestion API, and what the database says of
 * their top-ups.
 */
import { randomUUID } from 'node:crypto';
import { expect, vi } from 'vitest';
import type { TopUp, TopUpSettings } from '../../contract/topUp';
import type { SageApp } from '../../server/app';
import type { Db } from '../../server/db';
import type { StripeFixture } from '../fixtures/stripeServer';
import { sessionIdOf, signedInUser, startCheckout, type Catalogue, type Customer } from './billingFlow';
import type { TestServer } from './harness';

export const SERVICE_TOKEN = 't'.repeat(40);
export const TOP_UP_ENV = { AI_SERVICE_TOKEN: SERVICE_TOKEN, FREE_QUERIES_PER_MONTH: '0' };

/** A new account that bought the catalogue's pack (500 credits) on Checkout with the test card `card`. */
export async function packBuyer(server: TestServer, stripe: StripeFixture, catalogue: Catalogue, card = 'pm_card_visa'): Promise<Customer> {
  const customer = await signedInUser(server, 'top-up');
  const url = await startCheckout(customer, catalogue.pack.price, catalogue.pack.id);
  await stripe.completeCheckoutSession(sessionIdOf(url), { card });
  return customer;
}

export async function saveTopUp(customer: Customer, settings: TopUpSettings) {
  const response = await customer.client.request('PUT', '/api/usage/top-up', { json: settings });
  return { status: response.statusCode, body: response.json<TopUp & { error?: string; message?: string }>() };
}

export async function topUpView(customer: Customer): Promise<TopUp> {
  const response = await customer.client.get('/api/usage/top-up');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TopUp>();
}

/** One use of `units` queries through the ingestion API, on `app`. */
export async function use(app: SageApp, userId: string, units: number): Promise<number> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/ingest/usage',
    headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
    payload: { requestId: randomUUID(), userId, units },
  });
  return response.statusCode;
}

export function topUpsOf(db: Db, userId: string) {
  return db.selectFrom('top_ups').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

/** Waits until the user's top-ups have settled: none pending, and the paid ones' webhooks in. */
export async function settledTopUps(db: Db, stripe: StripeFixture, userId: string, count: number) {
  await vi.waitFor(
    async () => {
      await stripe.settle();
      const rows = await topUpsOf(db, userId);
      expect(rows.map((r) => r.status).filter((s) => s === 'pending' || s === 'paid')).toEqual([]);
      expect(rows).toHaveLength(count);
    },
    { timeout: 20_000, interval: 50 },
  );
  return topUpsOf(db, userId);
}

export async function balanceOf(customer: Customer): Promise<number> {
  const response = await customer.client.get('/api/usage');
  return response.json<{ remaining: { credits: number } }>().remaining.credits;
}
