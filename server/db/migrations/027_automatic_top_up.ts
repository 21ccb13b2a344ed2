import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Automatic top-up (issue 39, decision 045): when the user's credits fall below `threshold`, buy
  // the pack of `price_id` with the saved card, at most `monthly_cap` (the pack's currency, minor
  // units) a UTC calendar month. A declined card, or one that needs its holder, pauses it.
  await db.schema
    .createTable('top_up_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('threshold', 'bigint', (c) => c.notNull())
    .addColumn('price_id', 'text', (c) => c.notNull())
    .addColumn('monthly_cap', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('paused_at', 'bigint')
    .addColumn('paused_reason', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Each top-up a crossing of the threshold set off: the crossing is unique, so one crossing buys
  // one pack whichever instance and however many uses saw it; the month's amounts are the cap's.
  await db.schema
    .createTable('top_ups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('crossing', 'text', (c) => c.notNull().unique())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('price_id', 'text', (c) => c.notNull())
    .addColumn('credits', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text')
    .addColumn('failure', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('top_ups_user_month_idx').on('top_ups').columns(['user_id', 'month']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('top_ups').execute();
  await db.schema.dropTable('top_up_settings').execute();
}
