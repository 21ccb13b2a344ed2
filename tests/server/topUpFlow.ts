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
import { createAuditService } from '../../server/services/audit';
import { createStripeGateway } from '../../server/services/billing/stripeGateway';
import type { TopUpDeps } from '../../server/services/topUp';
import { asUsers, USER_TOP_UPS, type TopUpTables } from '../../server/services/topUp/store';
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

/** Settings that run top-up: under 450 credits, buy the catalogue's pack, at most $30.00 a month. */
export const topUpSettings = (catalogue: Catalogue, changes: Partial<TopUpSettings> = {}): TopUpSettings => ({
  enabled: true,
  threshold: 450,
  priceId: catalogue.pack.price,
  monthlyCap: 3000,
  ...changes,
});

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

/** An account's top-ups, oldest first: a user's, or (ORG_TOP_UPS) a studio's. */
export function topUpsOf(db: Db, owner: string, tables: TopUpTables = USER_TOP_UPS) {
  const t = asUsers(tables);
  return db.selectFrom(t.topUps).selectAll().where(t.owner, '=', owner).orderBy('created_at').execute();
}

/** Waits until an account's top-ups have settled: none pending, and the paid ones' webhooks in. */
export async function settledTopUps(db: Db, stripe: StripeFixture, owner: string, count: number, tables: TopUpTables = USER_TOP_UPS) {
  await vi.waitFor(
    async () => {
      await stripe.settle();
      const rows = await topUpsOf(db, owner, tables);
      expect(rows.map((r) => r.status).filter((s) => s === 'pending' || s === 'paid')).toEqual([]);
      expect(rows).toHaveLength(count);
    },
    { timeout: 20_000, interval: 50 },
  );
  return topUpsOf(db, owner, tables);
}

export async function balanceOf(customer: Customer): Promise<number> {
  const response = await customer.client.get('/api/usage');
  return response.json<{ remaining: { credits: number } }>().remaining.credits;
}

/** A top-up of the catalogue's pack left pending since `at` (its process stopped mid-purchase), its owner's column to add. */
export const pendingTopUp = (catalogue: Catalogue, crossing: string, at: number, id: string = randomUUID()) => ({
  id,
  crossing,
  month: new Date().toISOString().slice(0, 7),
  price_id: catalogue.pack.price,
  credits: 500,
  amount: 999,
  currency: 'usd',
  status: 'pending',
  invoice_id: null,
  failure: null,
  created_at: at,
  updated_at: at,
});

/** A top-up service's own deps over the server's database and Stripe, mail and errors let go: another instance's housekeeping. */
export const housekeepingDeps = (server: TestServer): TopUpDeps => ({
  db: server.db,
  gateway: createStripeGateway(server.config.stripe!, () => undefined),
  audit: createAuditService(server.db),
  mailer: { send: async () => undefined },
  publicUrl: server.config.publicUrl,
  onMailError: () => undefined,
  onError: () => undefined,
});
