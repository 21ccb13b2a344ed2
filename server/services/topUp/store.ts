import type { TopUpPack, TopUpPauseReason, TopUpSettings, TopUpStatus } from '../../../contract/topUp';
import { queriesOf } from '../../../contract/usage';
import { isPostgres, type Db } from '../../db';
import type { TopUpSettingsTable, TopUpsTable } from '../../db/schema';
import type { TopUpTrigger } from './rules';

/** Automatic top-up's rows (migration 027): the user's settings and each top-up. */

/** The statuses whose amounts count against the month's cap: bought, or being bought. */
export const SPENDING: readonly TopUpStatus[] = ['pending', 'paid', 'credited'];

export const triggerOf = (row: TopUpSettingsTable | undefined): TopUpTrigger | null =>
  row ? { enabled: row.enabled === 1, paused: row.paused_at !== null, threshold: Number(row.threshold) } : null;

export const settingsOf = (row: TopUpSettingsTable): TopUpSettings => ({
  enabled: row.enabled === 1,
  threshold: Number(row.threshold),
  priceId: row.price_id,
  monthlyCap: Number(row.monthly_cap),
});

/** The user's settings, unlocked. */
export function readSettings(db: Db, userId: string): Promise<TopUpSettingsTable | undefined> {
  return db.selectFrom('top_up_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * The user's settings, taken for the rest of the transaction: every top-up of one user and every
 * save of their settings queue here, on whichever instance (`for update` on PostgreSQL; SQLite runs
 * one transaction at a time), so the month's cap counts every top-up before it.
 */
export function lockSettings(trx: Db, userId: string): Promise<TopUpSettingsTable | undefined> {
  const query = trx.selectFrom('top_up_settings').selectAll().where('user_id', '=', userId);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

/** The credit packs on sale, cheapest first: active one-time prices of active products that add whole credits. */
export async function packsOnSale(db: Db): Promise<TopUpPack[]> {
  const rows = await db
    .selectFrom('billing_prices as price')
    .innerJoin('billing_products as product', 'product.id', 'price.product_id')
    .select(['price.id', 'price.unit_amount', 'price.currency', 'product.name', 'product.metadata'])
    .where('price.active', '=', 1)
    .where('product.active', '=', 1)
    .where('price.recurring_interval', 'is', null)
    .where('price.unit_amount', 'is not', null)
    .execute();
  return rows
    .flatMap((row) => {
      const credits = queriesOf((JSON.parse(row.metadata) as Record<string, string | undefined>).credits_amount);
      return credits && credits > 0
        ? [{ priceId: row.id, name: row.name, credits, amount: Number(row.unit_amount), currency: row.currency }]
        : [];
    })
    .sort((a, b) => a.amount - b.amount || a.priceId.localeCompare(b.priceId));
}

/** What the user's top-ups of `month` in `currency` cost, bought or being bought: what the cap counts. */
export async function spentIn(db: Db, userId: string, month: string, currency: string): Promise<number> {
  const row = await db
    .selectFrom('top_ups')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('spent'))
    .where('user_id', '=', userId)
    .where('month', '=', month)
    .where('currency', '=', currency)
    .where('status', 'in', SPENDING)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}

/** The user's newest top-up. */
export function lastTopUp(db: Db, userId: string): Promise<TopUpsTable | undefined> {
  return db
    .selectFrom('top_ups')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Records a top-up once per crossing; answers whether this call recorded it (a second sight of the crossing does not). */
export async function recordTopUp(trx: Db, row: TopUpsTable): Promise<boolean> {
  const result = await trx
    .insertInto('top_ups')
    .values(row)
    .onConflict((oc) => oc.column('crossing').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** A top-up's outcome; `from` guards against going back (a webhook may have credited it already). */
export async function settleTopUp(
  db: Db,
  id: string,
  from: TopUpStatus,
  to: { status: TopUpStatus; invoiceId?: string | null; failure?: string | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('top_ups')
    .set({
      status: to.status,
      ...(to.invoiceId !== undefined ? { invoice_id: to.invoiceId } : {}),
      ...(to.failure !== undefined ? { failure: to.failure } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', from)
    .execute();
}

/** Pauses the user's top-up; answers whether this call paused it (it was running). */
export async function pause(db: Db, userId: string, reason: TopUpPauseReason, now: number): Promise<boolean> {
  const result = await db
    .updateTable('top_up_settings')
    .set({ paused_at: now, paused_reason: reason })
    .where('user_id', '=', userId)
    .where('enabled', '=', 1)
    .where('paused_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
