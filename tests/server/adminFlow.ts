/**
 * Admin tests' shared steps: signed-in admins and users, rows inserted straight into the database
 * (registration is rate limited to a few accounts per test), and the console's PUT/DELETE calls.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { AdminUser, AuditEntry } from '../../contract/admin';
import { CONTENT_RANGE_HEADER, listQuery, type ListParams } from '../../contract/restList';
import type { Db } from '../../server/db';
import type { BillingSubscriptionsTable, UsersTable } from '../../server/db/schema';
import { uniqueEmail, type TestClient, type TestServer } from './harness';

export type { ListParams };

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
    current_period_start: null,
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
    await db
      .insertInto('users')
      .values(rows.slice(i, i + batch))
      .execute();
  }
  return rows;
}

export const put = (client: TestClient, url: string, json: unknown): Promise<LightMyRequestResponse> =>
  client.request('PUT', url, { json });
export const del = (client: TestClient, url: string): Promise<LightMyRequestResponse> => client.request('DELETE', url);

/** The address of an admin list with these parameters. */
export function listUrl(resource: 'users' | 'audit' | 'orgs', params: ListParams = {}): string {
  const query = listQuery(params);
  return `/api/admin/${resource}${query ? `?${query}` : ''}`;
}

/** The rows of page `page` (from 1) of `perPage`, as a `range`. */
export const pageRange = (page: number, perPage: number): [number, number] => [(page - 1) * perPage, page * perPage - 1];

export interface ContentRange {
  resource: string;
  /** Null for `*`: no rows. */
  first: number | null;
  last: number | null;
  total: number;
}

/** The answer's `Content-Range: <resource> <first>-<last>/<total>` (`*` for first-last on an empty page), which must be there. */
export function contentRangeOf(response: LightMyRequestResponse): ContentRange {
  const header = response.headers[CONTENT_RANGE_HEADER];
  const match = /^([a-z]+) (?:(\d+)-(\d+)|\*)\/(\d+)$/.exec(String(header));
  expect(match, `Content-Range: ${String(header)}`).not.toBeNull();
  const [, resource, first, last, total] = match!;
  return {
    resource: resource!,
    first: first === undefined ? null : Number(first),
    last: last === undefined ? null : Number(last),
    total: Number(total),
  };
}

/**
 * A list's rows and total, from a 200 answer whose Content-Range names `resource` and counts the
 * rows it holds (`*` exactly when there are none).
 */
export function listed<T>(response: LightMyRequestResponse, resource: 'users' | 'audit' | 'orgs'): { rows: T[]; total: number } {
  expect(response.statusCode, response.body).toBe(200);
  const rows = response.json<T[]>();
  expect(Array.isArray(rows)).toBe(true);
  const range = contentRangeOf(response);
  expect(range.resource).toBe(resource);
  expect(range.first === null ? 0 : range.last! - range.first + 1, String(response.headers[CONTENT_RANGE_HEADER])).toBe(rows.length);
  return { rows, total: range.total };
}

/** A page of the user list as the console asks for it, with the total matching. */
export async function listUsers(admin: TestClient, params: ListParams = {}): Promise<{ users: AdminUser[]; total: number }> {
  const { rows, total } = listed<AdminUser>(await admin.get(listUrl('users', params)), 'users');
  return { users: rows, total };
}

/** The newest audit entries, as the console lists them. */
export async function auditLog(admin: TestClient, perPage = 25): Promise<{ entries: AuditEntry[]; total: number }> {
  const { rows, total } = listed<AuditEntry>(await admin.get(listUrl('audit', { range: [0, perPage - 1] })), 'audit');
  return { entries: rows, total };
}

/** Lets the clock move on, so two writes never share a millisecond. */
export const tick = (ms = 3): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
