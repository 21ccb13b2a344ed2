import type { TopUpPack, TopUpPauseReason, TopUpSettings, TopUpStatus } from '../../../contract/topUp';
import { queriesOf } from '../../../contract/usage';
import { isPostgres, type Db } from '../../db';
import type { TopUpSettingsTable, TopUpsTable } from '../../db/schema';
import type { TopUpTrigger } from './rules';

/**
 * Automatic top-up's rows, of an account that is a user (migration 027: `top_up_settings`,
 * `top_ups`, keyed by `user_id`) or a studio's shared pool (migration 028: the same columns in
 * `org_top_up_settings`, `org_top_ups`, keyed by `org_id`, and who last saved the settings).
 */
export interface TopUpTables {
  settings: 'top_up_settings' | 'org_top_up_settings';
  topUps: 'top_ups' | 'org_top_ups';
  owner: 'user_id' | 'org_id';
  /** The settings' column of who last saved them, where the kind keeps it. */
  savedBy: 'updated_by' | null;
}

export const USER_TOP_UPS: TopUpTables = { settings: 'top_up_settings', topUps: 'top_ups', owner: 'user_id', savedBy: null };
export const ORG_TOP_UPS: TopUpTables = { settings: 'org_top_up_settings', topUps: 'org_top_ups', owner: 'org_id', savedBy: 'updated_by' };

/**
 * The kinds' tables alike but for the owner's column, and Kysely types one table at a time: the
 * store writes its queries as the user's and runs them on the kind's tables. The only cast.
 */
export const asUsers = (tables: TopUpTables) => tables as { settings: 'top_up_settings'; topUps: 'top_ups'; owner: 'user_id' };

/** An account's settings, their owner's column left out. */
export type AccountSettings = Omit<TopUpSettingsTable, 'user_id'>;

/** One top-up of an account: its row, with its owner (the user or the organisation) named apart from the kind's column. */
export type AccountTopUp = Omit<TopUpsTable, 'user_id'> & { owner: string };

/** A top-up row as read, with its owner taken from the kind's column. */
export const accountTopUp = (tables: TopUpTables, row: TopUpsTable): AccountTopUp => {
  const { [asUsers(tables).owner]: owner, ...columns } = row;
  return { ...columns, owner };
};

/** The statuses whose amounts count against the month's cap: bought, or being bought. */
export const SPENDING: readonly TopUpStatus[] = ['pending', 'paid', 'credited'];

export const triggerOf = (row: AccountSettings | undefined): TopUpTrigger | null =>
  row ? { enabled: row.enabled === 1, paused: row.paused_at !== null, threshold: Number(row.threshold) } : null;

export const settingsOf = (row: AccountSettings): TopUpSettings => ({
  enabled: row.enabled === 1,
  threshold: Number(row.threshold),
  priceId: row.price_id,
  monthlyCap: Number(row.monthly_cap),
});

/** The account's settings, unlocked. */
export function readSettings(db: Db, tables: TopUpTables, owner: string): Promise<AccountSettings | undefined> {
  const t = asUsers(tables);
  return db.selectFrom(t.settings).selectAll().where(t.owner, '=', owner).executeTakeFirst();
}

/**
 * The account's settings, taken for the rest of the transaction: every top-up of one account and
 * every save of its settings queue here, on whichever instance (`for update` on PostgreSQL; SQLite
 * runs one transaction at a time), so the month's cap counts every top-up before it.
 */
export function lockSettings(trx: Db, tables: TopUpTables, owner: string): Promise<AccountSettings | undefined> {
  const t = asUsers(tables);
  const query = trx.selectFrom(t.settings).selectAll().where(t.owner, '=', owner);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

/** The settings a save writes, all but the owner and who saved them. */
export type SavedSettings = Omit<AccountSettings, 'updated_by'>;

/** Writes the account's settings (`savedBy`: the member who saved them, where the kind keeps it). */
export async function writeSettings(trx: Db, tables: TopUpTables, owner: string, values: SavedSettings, savedBy: string): Promise<void> {
  const t = asUsers(tables);
  const written = { ...values, ...(tables.savedBy ? { [tables.savedBy]: savedBy } : {}) };
  await trx
    .insertInto(t.settings)
    .values({ ...written, [t.owner]: owner })
    .onConflict((oc) => oc.column(t.owner).doUpdateSet(written))
    .execute();
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

/** What the account's top-ups of `month` in `currency` cost, bought or being bought: what the cap counts. */
export async function spentIn(db: Db, tables: TopUpTables, owner: string, month: string, currency: string): Promise<number> {
  const t = asUsers(tables);
  const row = await db
    .selectFrom(t.topUps)
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('spent'))
    .where(t.owner, '=', owner)
    .where('month', '=', month)
    .where('currency', '=', currency)
    .where('status', 'in', SPENDING)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}

/** The account's newest top-up. */
export async function lastTopUp(db: Db, tables: TopUpTables, owner: string): Promise<AccountTopUp | undefined> {
  const t = asUsers(tables);
  const row = await db
    .selectFrom(t.topUps)
    .selectAll()
    .where(t.owner, '=', owner)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row && accountTopUp(tables, row);
}

/** Records a top-up once per crossing; answers whether this call recorded it (a second sight of the crossing does not). */
export async function recordTopUp(trx: Db, tables: TopUpTables, topUp: AccountTopUp): Promise<boolean> {
  const t = asUsers(tables);
  const { owner, ...columns } = topUp;
  const result = await trx
    .insertInto(t.topUps)
    .values({ ...columns, [t.owner]: owner })
    .onConflict((oc) => oc.column('crossing').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** A top-up's outcome; `from` guards against going back (a webhook may have credited it already). */
export async function settleTopUp(
  db: Db,
  tables: TopUpTables,
  id: string,
  from: TopUpStatus,
  to: { status: TopUpStatus; invoiceId?: string | null; failure?: string | null },
  now: number,
): Promise<void> {
  await db
    .updateTable(asUsers(tables).topUps)
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

/** A paid top-up's credits landed (Stripe's webhook): only the account's own top-up is marked. */
export async function markCredited(trx: Db, tables: TopUpTables, id: string, owner: string, invoiceId: string, now: number): Promise<void> {
  const t = asUsers(tables);
  await trx
    .updateTable(t.topUps)
    .set({ status: 'credited', invoice_id: invoiceId, updated_at: now })
    .where('id', '=', id)
    .where(t.owner, '=', owner)
    .execute();
}

/** Pauses the account's top-up; answers whether this call paused it (it was running). */
export async function pause(db: Db, tables: TopUpTables, owner: string, reason: TopUpPauseReason, now: number): Promise<boolean> {
  const t = asUsers(tables);
  const result = await db
    .updateTable(t.settings)
    .set({ paused_at: now, paused_reason: reason })
    .where(t.owner, '=', owner)
    .where('enabled', '=', 1)
    .where('paused_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
