import { sql, type Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // An organisation's Stripe customer and the company details every invoice carries (decision 041).
  await db.schema
    .createTable('org_billing')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.unique())
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('address_line1', 'text', (c) => c.notNull())
    .addColumn('address_line2', 'text')
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('region', 'text')
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The organisation's subscriptions as Stripe last said: the live one's quantity is the seats bought.
  await db.schema
    .createTable('org_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('price_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('seats', 'integer', (c) => c.notNull())
    .addColumn('unit_amount', 'bigint')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull())
    .addColumn('current_period_start', 'bigint')
    .addColumn('current_period_end', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('synced_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('org_subscriptions_org_id_idx').on('org_subscriptions').column('org_id').execute();

  // Seats (decision 042): a seat keeps what it used this period when it changes hands, so taking
  // one back and giving it to another never starts a fresh allowance. A member holds one at most.
  await db.schema
    .createTable('org_seats')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('allowance_used', 'bigint', (c) => c.notNull())
    .addColumn('assigned_at', 'bigint')
    .execute();
  await sql`create unique index org_seats_holder on org_seats (org_id, user_id) where user_id is not null`.execute(db);
  await db.schema.createIndex('org_seats_user_id_idx').on('org_seats').column('user_id').execute();

  // The shared pool of credits (packs bought for the organisation, staff grants): one row per
  // organisation, the row every use charged to the organisation and every seat change lock.
  await db.schema
    .createTable('org_pools')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id').onDelete('cascade'))
    .addColumn('credits', 'bigint', (c) => c.notNull())
    // The most it held since its low notice: "under 10 %" is of that.
    .addColumn('high_water', 'bigint', (c) => c.notNull())
    .addColumn('low_notified_at', 'bigint')
    .execute();
  await sql`insert into org_pools (org_id, credits, high_water) select id, 0, 0 from orgs`.execute(db);
  await db.schema
    .createTable('org_credit_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    // What paid or granted it: a second entry for the same source is refused (a webhook twice).
    .addColumn('source', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('org_credit_ledger_org_idx').on('org_credit_ledger').columns(['org_id', 'created_at']).execute();

  // A member's monthly limit on the shared pool (null: none).
  await db.schema.alterTable('org_members').addColumn('monthly_limit', 'bigint').execute();
  // What the organisation paid for a member per period, and the limit notices already sent.
  await db.schema
    .createTable('org_member_periods')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    // A deleted account's figures go with it: the pool's credits they spent stay spent.
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('seat_used', 'bigint', (c) => c.notNull())
    .addColumn('pool_used', 'bigint', (c) => c.notNull())
    .addColumn('last_use_at', 'bigint', (c) => c.notNull())
    .addColumn('notified_80_at', 'bigint')
    .addColumn('notified_100_at', 'bigint')
    .addPrimaryKeyConstraint('org_member_periods_pkey', ['org_id', 'period_start', 'user_id'])
    .execute();
  await db.schema.createIndex('org_member_periods_user_id_idx').on('org_member_periods').column('user_id').execute();

  // Uses the organisation paid for carry it, with what the seat and the pool paid.
  await db.schema.alterTable('usage_events').addColumn('org_id', 'text').execute();
  await db.schema.alterTable('usage_events').addColumn('org_period_start', 'bigint').execute();
  await db.schema
    .alterTable('usage_events')
    .addColumn('from_seat', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('usage_events')
    .addColumn('from_pool', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index usage_events_org_period_idx on usage_events (org_id, org_period_start, occurred_at, id) where org_id is not null`.execute(
    db,
  );
  // The organisation's page reads its usage by member, day, project and engine version from here.
  await db.schema
    .createTable('org_usage_daily')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('engine_version', 'text', (c) => c.notNull())
    .addColumn('uses', 'bigint', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_usage_daily_pkey', ['org_id', 'day', 'user_id', 'project_id', 'engine_version'])
    .execute();
  await db.schema.createIndex('org_usage_daily_user_id_idx').on('org_usage_daily').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('org_usage_daily').execute();
  await sql`drop index if exists usage_events_org_period_idx`.execute(db);
  for (const column of ['from_pool', 'from_seat', 'org_period_start', 'org_id'])
    await db.schema.alterTable('usage_events').dropColumn(column).execute();
  await db.schema.dropTable('org_member_periods').execute();
  await db.schema.alterTable('org_members').dropColumn('monthly_limit').execute();
  for (const table of ['org_credit_ledger', 'org_pools', 'org_seats', 'org_subscriptions', 'org_billing'])
    await db.schema.dropTable(table).execute();
}
