import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Usage metering (issue 26, decisions 027 and 028): what each use of the AI charged, each user's
 * spend per billing period, per-user daily roll-ups for the charts, and each user's credit balance
 * kept beside the ledger so that a use reads one row, not a sum over every entry.
 */

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // Periods follow Stripe's: its start joins the end the mirror already kept (unix seconds).
  await db.schema.alterTable('billing_subscriptions').addColumn('current_period_start', 'bigint').execute();

  // The ledger's sum per user. A use locks its user's row (PostgreSQL) before it reads what is
  // left, which serialises one user's uses across instances; the trigger below keeps it equal to
  // the ledger's sum in the transaction of every entry, whoever writes it.
  await db.schema
    .createTable('credit_balances')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('credits', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into credit_balances (user_id, credits) select user_id, sum(amount) from credit_ledger group by user_id`.execute(db);

  const addToBalance = (from: string) =>
    `insert into credit_balances (user_id, credits) ${from} on conflict (user_id) do update set credits = credit_balances.credits + excluded.credits`;
  if (postgres) {
    await sql
      .raw(
        `create function credit_ledger_balance() returns trigger language plpgsql as $$ begin
           ${addToBalance('select user_id, sum(amount) from new_rows group by user_id')};
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        'create trigger credit_ledger_balance after insert on credit_ledger referencing new table as new_rows for each statement execute function credit_ledger_balance()',
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create trigger credit_ledger_balance after insert on credit_ledger begin ${addToBalance('values (new.user_id, new.amount)')}; end`,
      )
      .execute(db);
  }

  // "Credits sold" (the admin Home) counts packs bought, not staff grants (migration 008 counted
  // every positive entry; before this migration packs were the only ones).
  if (postgres) {
    await sql
      .raw(
        `create or replace function credit_ledger_daily_credits_sold() returns trigger language plpgsql as $$ begin
           insert into daily_activity (metric, day, amount)
             select 'credits_sold', n.created_at / 86400000, sum(n.amount) from new_rows n
             where n.amount > 0 and n.source like 'checkout:%' group by 1, 2
             on conflict (metric, day) do update set amount = daily_activity.amount + excluded.amount;
           return null;
         end $$`,
      )
      .execute(db);
  } else {
    await sql`drop trigger credit_ledger_daily_credits_sold`.execute(db);
    await sql
      .raw(
        `create trigger credit_ledger_daily_credits_sold after insert on credit_ledger when new.amount > 0 and new.source like 'checkout:%' begin
           insert into daily_activity (metric, day, amount) values ('credits_sold', new.created_at / 86400000, new.amount)
             on conflict (metric, day) do update set amount = amount + excluded.amount;
         end`,
      )
      .execute(db);
  }

  // One row per user and billing period: what its allowance paid for, what credits paid for, and
  // which notices went out. A period is known by its start.
  await db.schema
    .createTable('usage_periods')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('period_end', 'bigint', (c) => c.notNull())
    .addColumn('allowance_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('notified_80_at', 'bigint')
    .addColumn('notified_100_at', 'bigint')
    .addPrimaryKeyConstraint('usage_periods_pk', ['user_id', 'period_start'])
    .execute();

  // Each use, as recorded: kept USAGE_RETENTION_DAYS. The answer is the first answer, given again
  // to a repeated request id; the fingerprint tells a repeat from another use under the same id.
  await db.schema
    .createTable('usage_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('units', 'integer', (c) => c.notNull())
    .addColumn('from_allowance', 'integer', (c) => c.notNull())
    .addColumn('from_credits', 'integer', (c) => c.notNull())
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addColumn('project_id', 'text')
    .addColumn('engine_version', 'text')
    .addColumn('plugin_version', 'text')
    .addColumn('model', 'text')
    .addColumn('feature', 'text')
    .addColumn('answer', 'text', (c) => c.notNull())
    .addUniqueConstraint('usage_events_request_uq', ['user_id', 'request_id'])
    .execute();
  await db.schema.createIndex('usage_events_period_idx').on('usage_events').columns(['user_id', 'period_start', 'occurred_at']).execute();
  await db.schema.createIndex('usage_events_recorded_at_idx').on('usage_events').column('recorded_at').execute();

  // Per user, UTC day, project and engine version: what the charts and tables read, kept for ever
  // (raw uses are pruned). '' stands for "not said".
  await db.schema
    .createTable('usage_daily')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('engine_version', 'text', (c) => c.notNull())
    .addColumn('uses', 'bigint', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['user_id', 'day', 'project_id', 'engine_version'])
    .execute();
  await db.schema.createIndex('usage_daily_day_idx').on('usage_daily').columns(['day', 'user_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of ['usage_daily', 'usage_events', 'usage_periods']) await db.schema.dropTable(table).execute();
  await sql.raw(`drop trigger if exists credit_ledger_balance${postgres ? ' on credit_ledger' : ''}`).execute(db);
  if (postgres) await sql`drop function if exists credit_ledger_balance()`.execute(db);
  await db.schema.dropTable('credit_balances').execute();
  await db.schema.alterTable('billing_subscriptions').dropColumn('current_period_start').execute();
}
