/**
 * Admin tests' shared steps: signed-in admins and users, rows inserted straight into the database
 * (registration is rate limited to a few accounts per test), and the console's PUT/DELETE calls.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { AuditEntry } from '../../contract/admin';
import type { Db } from '../../server/db';
import type { BillingSubscriptionsTable, UsersTable } from '../../server/db/schema';
import { uniqueEmail, type TestClient, type TestServer } from './harness';

export interface Signed {
  client: TestClient;
  id: string;
  email: string;
}

/** A registered user, signed in. */
export async function signedInUser(server: TestServer, prefix = 'user'): Promise<Signed> {
  const client = server.client();
  const email = uniqueEmail(prefix);
  await client.register(email);
  const me = await client.get('/api/user');
  expect(me.statusCode).toBe(200);
  return { client, id: me.json<{ id: string }>().id, email };
}

/** A registered user made an admin in the database, signed in. */
export async function signedInAdmin(server: TestServer): Promise<Signed> {
  const admin = await signedInUser(server, 'admin');
  await server.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.id).execute();
  return admin;
}

let tagCounter = 0;
/** A lower-case word no other test of the run uses: a `q` prefix that finds only this test's rows. */
export function uniqueTag(prefix = 't'): string {
  tagCounter += 1;
  return `${prefix}${tagCounter}x${randomBytes(3).toString('hex')}`;
}

/** A complete users row; `overrides` win. */
export function userRow(overrides: Partial<UsersTable> = {}): UsersTable {
  const now = Date.now();
  return {
    id: randomUUID(),
    username: `someone-${randomBytes(4).toString('hex')}`,
    email: `${randomBytes(8).toString('hex')}@example.com`,
    email_verified_at: null,
    password_hash: null,
    status: 'Active',
    is_admin: 0,
    license_token: randomBytes(24).toString('base64url'),
    epic_account_id: null,
    epic_display_name: null,
    created_at: now,
    updated_at: now,
    last_sign_in_at: null,
    last_sign_in_method: null,
    ...overrides,
  };
}

/** A complete billing_subscriptions row (the Stripe mirror) for the user; `overrides` win. */
export function subscriptionRow(userId: string, overrides: Partial<BillingSubscriptionsTable> = {}): BillingSubscriptionsTable {
  return {
    id: `sub_${randomUUID()}`,
    user_id: userId,
    customer_id: `cus_${userId}`,
    status: 'active',
    item_id: `si_${randomUUID()}`,
    price_id: 'price_monthly',
    unit_amount: 1999,
    currency: 'usd',
    recurring_interval: 'month',
    recurring_interval_count: 1,
    product_id: 'prod_pro',
    product_name: 'Sage Pro',
    product_description: null,
    cancel_at: null,
    cancel_at_period_end: 0,
    trial_end: null,
    current_period_end: null,
    default_payment_method: null,
    created: 1_700_000_000,
    synced_at: Date.now(),
    ...overrides,
  };
}

/** Inserts the rows in batches (one statement each), fast on both databases. */
export async function insertUsers(db: Db, rows: UsersTable[], batch = 250): Promise<UsersTable[]> {
  for (let i = 0; i < rows.length; i += batch) {
    await db.insertInto('users').values(rows.slice(i, i + batch)).execute();
  }
  return rows;
}

export const put = (client: TestClient, url: string, json: unknown): Promise<LightMyRequestResponse> => client.request('PUT', url, { json });
export const del = (client: TestClient, url: string): Promise<LightMyRequestResponse> => client.request('DELETE', url);

/** The newest audit entries, as the console lists them. */
export async function auditLog(admin: TestClient, perPage = 25): Promise<{ entries: AuditEntry[]; total: number }> {
  const response = await admin.get(`/api/admin/audit?perPage=${perPage}`);
  expect(response.statusCode).toBe(200);
  return { entries: response.json<AuditEntry[]>(), total: Number(response.headers['x-total-count']) };
}

/** Lets the clock move on, so two writes never share a millisecond. */
export const tick = (ms = 3): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
