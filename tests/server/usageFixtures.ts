/** Metered accounts for server tests: plans, packs and a meter of another instance, written as checkout and its webhooks would leave them. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../server/db';
import { createMeteringService } from '../../server/services/metering';
import { subscriptionRow, userRow } from './adminFlow';

/** A plan product whose `credits_amount` is `queries` ('' for Unlimited), and a live subscription of the user to it. */
export async function subscribeTo(db: Db, userId: string, queries: string, overrides: Parameters<typeof subscriptionRow>[1] = {}) {
  const productId = `prod_${randomUUID()}`;
  await db
    .insertInto('billing_products')
    .values({
      id: productId,
      name: 'Sage Pro',
      description: null,
      images: '[]',
      active: 1,
      metadata: JSON.stringify(queries ? { credits_amount: queries } : {}),
      synced_at: Date.now(),
    })
    .execute();
  await db
    .insertInto('billing_subscriptions')
    .values(subscriptionRow(userId, { product_id: productId, ...overrides }))
    .execute();
}

export async function grantPack(db: Db, userId: string, credits: number) {
  await db
    .insertInto('credit_ledger')
    .values({
      id: randomUUID(),
      user_id: userId,
      amount: credits,
      reason: 'Credit pack',
      source: `checkout:cs_${randomUUID()}`,
      created_at: Date.now(),
    })
    .execute();
}

/** A user with a plan of `allowance` queries (null: Unlimited) and `credits` pack credits. */
export async function meteredAccount(db: Db, allowance: number | null, credits: number): Promise<string> {
  const user = userRow();
  await db.insertInto('users').values(user).execute();
  const productId = `prod_${randomUUID()}`;
  const metadata = JSON.stringify(allowance === null ? {} : { credits_amount: String(allowance) });
  await db
    .insertInto('billing_products')
    .values({ id: productId, name: 'Plan', description: null, images: '[]', active: 1, metadata, synced_at: Date.now() })
    .execute();
  await db
    .insertInto('billing_subscriptions')
    .values(subscriptionRow(user.id, { product_id: productId }))
    .execute();
  if (credits > 0) await grantPack(db, user.id, credits);
  return user.id;
}

/** The meter as another instance's housekeeping runs it, on `db`, with a clock of the test's (its calls take `now`). */
export const housekeepingMeter = (db: Db) =>
  createMeteringService({
    db,
    freeQueriesPerMonth: 0,
    retentionDays: 400,
    holdMinutes: 15,
    mailer: { send: async () => undefined },
    publicUrl: 'http://sage.test',
    onMailError: () => undefined,
  });
