import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The local mirror of Stripe's catalogue; dashboard and checkout reads never call Stripe.
  await db.schema
    .createTable('billing_products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('images', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('synced_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('billing_prices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('unit_amount', 'bigint')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('recurring_interval', 'text')
    .addColumn('recurring_interval_count', 'integer')
    .addColumn('synced_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_prices_product_id_idx').on('billing_prices').column('product_id').execute();

  await db.schema
    .createTable('billing_customers')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull().unique())
    .addColumn('default_payment_method', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('billing_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('price_id', 'text', (c) => c.notNull())
    .addColumn('unit_amount', 'bigint')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('recurring_interval', 'text')
    .addColumn('recurring_interval_count', 'integer')
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('product_description', 'text')
    .addColumn('cancel_at', 'bigint')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull())
    .addColumn('trial_end', 'bigint')
    .addColumn('current_period_end', 'bigint')
    .addColumn('default_payment_method', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('synced_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_subscriptions_user_id_idx').on('billing_subscriptions').column('user_id').execute();

  // Each webhook event id is handled once, whatever Stripe's retries deliver.
  await db.schema
    .createTable('billing_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    // What the entry pays for (e.g. `checkout:cs_…`): unique, so a pack is credited exactly once.
    .addColumn('source', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_ledger_user_id_idx').on('credit_ledger').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'credit_ledger',
    'billing_events',
    'billing_subscriptions',
    'billing_customers',
    'billing_prices',
    'billing_products',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
