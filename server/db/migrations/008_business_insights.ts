import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Daily roll-ups for the admin Home's charts (decision 012). Each event the charts count adds to
 * its UTC day's row in `daily_activity`, by trigger, in the transaction that wrote the event: the
 * charts read at most a few hundred rows, however many users and messages there are.
 *
 * Events stay counted when their rows go (a deleted user still signed up that day; used hand-off
 * codes are purged), and no row of `daily_activity` says who.
 */

const DAY_MS = 86_400_000;

interface RolledUp {
  /** Trigger and function names. */
  name: string;
  table: string;
  /** The metric (a SQL expression over the row). */
  metric: string;
  /** When it happened, epoch milliseconds (a SQL expression over the row). */
  at: string;
  /** How much it adds (a SQL expression over the row). */
  amount: string;
  /** Which rows count (a SQL condition over the row). */
  when: string;
}

/** Inserts: sign-ups by method, credits bought with packs, messages stored. */
const ON_INSERT: RolledUp[] = [
  {
    name: 'users_daily_sign_ups',
    table: 'users',
    metric: `case when $.epic_account_id is null then 'sign_ups.email' else 'sign_ups.epic' end`,
    at: '$.created_at',
    amount: '1',
    when: 'true',
  },
  {
    name: 'credit_ledger_daily_credits_sold',
    table: 'credit_ledger',
    metric: `'credits_sold'`,
    at: '$.created_at',
    amount: '$.amount',
    when: '$.amount > 0',
  },
  {
    name: 'stored_messages_daily_messages',
    table: 'stored_messages',
    metric: `'messages_stored'`,
    at: '$.created_at',
    amount: '1',
    when: 'true',
  },
];

const over = (expression: string, row: string) => expression.replaceAll('$', row);

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('daily_activity')
    .addColumn('metric', 'text', (c) => c.notNull())
    /** UTC days since 1970-01-01. */
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_activity_pk', ['metric', 'day'])
    .execute();

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const addTo = (select: string) =>
    `insert into daily_activity (metric, day, amount) ${select} on conflict (metric, day) do update set amount = daily_activity.amount + excluded.amount`;

  // What happened before this migration, from the rows that are still there.
  for (const r of ON_INSERT) {
    await sql
      .raw(
        addTo(
          `select ${over(r.metric, 't')}, ${over(r.at, 't')} / ${DAY_MS}, sum(${over(r.amount, 't')}) from ${r.table} t where ${over(r.when, 't')} group by 1, 2`,
        ),
      )
      .execute(db);
  }
  await sql
    .raw(
      addTo(`select 'plugin_sign_ins', used_at / ${DAY_MS}, count(*) from plugin_hand_off_codes where used_at is not null group by 1, 2`),
    )
    .execute(db);

  if (postgres) {
    // One upsert per statement and day, however many rows it wrote (a seed's bulk insert).
    for (const r of ON_INSERT) {
      await sql
        .raw(
          `create function ${r.name}() returns trigger language plpgsql as $$ begin
             ${addTo(`select ${over(r.metric, 'n')}, ${over(r.at, 'n')} / ${DAY_MS}, sum(${over(r.amount, 'n')}) from new_rows n where ${over(r.when, 'n')} group by 1, 2`)};
             return null;
           end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${r.name} after insert on ${r.table} referencing new table as new_rows for each statement execute function ${r.name}()`,
        )
        .execute(db);
    }
    // A plugin sign-in completes when its hand-off code is exchanged: used_at goes from null to a time.
    await sql
      .raw(
        `create function plugin_hand_off_daily_sign_ins() returns trigger language plpgsql as $$ begin
           ${addTo(`select 'plugin_sign_ins', n.used_at / ${DAY_MS}, count(*) from new_rows n join old_rows o on o.code_hash = n.code_hash where o.used_at is null and n.used_at is not null group by 1, 2`)};
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger plugin_hand_off_daily_sign_ins after update on plugin_hand_off_codes referencing old table as old_rows new table as new_rows for each statement execute function plugin_hand_off_daily_sign_ins()`,
      )
      .execute(db);
  } else {
    for (const r of ON_INSERT) {
      await sql
        .raw(
          `create trigger ${r.name} after insert on ${r.table} when ${over(r.when, 'new')} begin
             insert into daily_activity (metric, day, amount) values (${over(r.metric, 'new')}, ${over(r.at, 'new')} / ${DAY_MS}, ${over(r.amount, 'new')})
               on conflict (metric, day) do update set amount = amount + excluded.amount;
           end`,
        )
        .execute(db);
    }
    await sql
      .raw(
        `create trigger plugin_hand_off_daily_sign_ins after update of used_at on plugin_hand_off_codes when old.used_at is null and new.used_at is not null begin
           insert into daily_activity (metric, day, amount) values ('plugin_sign_ins', new.used_at / ${DAY_MS}, 1)
             on conflict (metric, day) do update set amount = amount + excluded.amount;
         end`,
      )
      .execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const triggers = [...ON_INSERT, { name: 'plugin_hand_off_daily_sign_ins', table: 'plugin_hand_off_codes' }];
  for (const { name, table } of triggers) {
    await sql.raw(`drop trigger if exists ${name}${postgres ? ` on ${table}` : ''}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropTable('daily_activity').execute();
}
