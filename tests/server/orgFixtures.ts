/** Studios for server tests: rows written directly, as a checkout and its webhooks would leave them. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../server/db';
import { userRow, type Signed } from './adminFlow';
import type { TestClient } from './harness';

/** An organisation owned by `owner` with `members`, a live plan of `seats` seats of `perSeat` queries, and `pool` shared credits. */
export async function studio(
  db: Db,
  owner: Signed,
  members: Signed[],
  plan: { seats: number; perSeat: number; pool: number },
): Promise<string> {
  const orgId = randomUUID();
  const productId = `prod_${randomUUID()}`;
  const now = Date.now();
  await db.insertInto('orgs').values({ id: orgId, name: 'Race Studio', created_at: now, updated_at: now }).execute();
  await db
    .insertInto('org_members')
    .values([
      { org_id: orgId, user_id: owner.id, role: 'owner', joined_at: now },
      ...members.map((m) => ({ org_id: orgId, user_id: m.id, role: 'member', joined_at: now })),
    ])
    .execute();
  await db.insertInto('org_pools').values({ org_id: orgId, credits: plan.pool, high_water: plan.pool, low_notified_at: null }).execute();
  await db
    .insertInto('billing_products')
    .values({
      id: productId,
      name: 'Studio',
      description: null,
      images: '[]',
      active: 1,
      metadata: JSON.stringify({ credits_amount: String(plan.perSeat) }),
      synced_at: now,
    })
    .execute();
  const second = Math.floor(now / 1000);
  await db
    .insertInto('org_subscriptions')
    .values({
      id: `sub_${randomUUID()}`,
      org_id: orgId,
      customer_id: `cus_${randomUUID()}`,
      status: 'active',
      item_id: 'si_1',
      price_id: 'price_1',
      product_id: productId,
      product_name: 'Studio',
      seats: plan.seats,
      unit_amount: 1000,
      currency: 'usd',
      cancel_at_period_end: 0,
      current_period_start: second - 3600,
      current_period_end: second + 30 * 86_400,
      created: second - 3600,
      synced_at: now,
    })
    .execute();
  return orgId;
}

/** Accounts that only use Sage here: rows, not sign-ups (which are rate-limited per address). */
export async function accounts(db: Db, count: number): Promise<Signed[]> {
  const rows = Array.from({ length: count }, () => userRow());
  await db.insertInto('users').values(rows).execute();
  return rows.map((row) => ({ id: row.id, email: row.email ?? '', client: undefined as unknown as TestClient }));
}
