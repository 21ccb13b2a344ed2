import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The Stripe mirror's subscriptions tallied by what the admin Home reads of them (decision 012):
 * status, price and the UTC day the trial ends. Triggers keep the tally in step with every insert,
 * update and delete of `billing_subscriptions`, in the same transaction, so the Home reads a few
 * thousand rows at most instead of every subscription (250,000 of them took 200–400 ms on SQLite
 * through indexes on status and trial_end).
 */

/** The tally's key, from a subscriptions row (`$` is the row); nulls become values a key can hold. */
const KEY = {
  status: '$.status',
  currency: '$.currency',
  unit_amount: 'coalesce($.unit_amount, -1)',
  recurring_interval: `coalesce($.recurring_interval, '')`,
  recurring_interval_count: 'coalesce($.recurring_interval_count, 0)',
  trial_day: 'coalesce($.trial_end / 86400, -1)',
};
const COLUMNS = Object.keys(KEY).join(', ');
const of = (row: string) => Object.values(KEY).map((expression) => expression.replaceAll('$', row));
const matching = (row: string) =>
  Object.keys(KEY)
    .map((column, i) => `subscription_tallies.${column} = ${of(row)[i]}`)
    .join(' and ');

/** Adds the rows of `from` (grouped) to the tally; `sign` -1 takes them away. */
const addGrouped = (from: string, sign: 1 | -1) =>
  `insert into subscription_tallies (${COLUMNS}, subscriptions) select ${of('r').join(', ')}, ${sign} * count(*) from ${from} r group by ${of('r').join(', ')}
   on conflict (${COLUMNS}) do update set subscriptions = subscription_tallies.subscriptions + excluded.subscriptions`;

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscription_tallies')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** Minor units; -1 for a price Stripe computes. */
    .addColumn('unit_amount', 'bigint', (c) => c.notNull())
    /** '' for a one-time price. */
    .addColumn('recurring_interval', 'text', (c) => c.notNull())
    .addColumn('recurring_interval_count', 'integer', (c) => c.notNull())
    /** UTC days since 1970-01-01 of `trial_end`; -1 without a trial. */
    .addColumn('trial_day', 'integer', (c) => c.notNull())
    .addColumn('subscriptions', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscription_tallies_pk', [
      'status',
      'currency',
      'unit_amount',
      'recurring_interval',
      'recurring_interval_count',
      'trial_day',
    ])
    .execute();
  await sql.raw(addGrouped('billing_subscriptions', 1)).execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Per statement: a bulk write is one upsert per key. An upsert's inserted rows reach the insert
    // trigger and its updated rows the update trigger, each in its own transition tables.
    const triggers = [
      { name: 'subscription_tallies_insert', on: 'insert', referencing: 'new table as new_rows', body: addGrouped('new_rows', 1) },
      { name: 'subscription_tallies_delete', on: 'delete', referencing: 'old table as old_rows', body: addGrouped('old_rows', -1) },
      {
        name: 'subscription_tallies_update',
        on: 'update',
        referencing: 'old table as old_rows new table as new_rows',
        body: `${addGrouped('old_rows', -1)}; ${addGrouped('new_rows', 1)}`,
      },
    ];
    for (const t of triggers) {
      await sql.raw(`create function ${t.name}() returns trigger language plpgsql as $$ begin ${t.body}; return null; end $$`).execute(db);
      await sql
        .raw(
          `create trigger ${t.name} after ${t.on} on billing_subscriptions referencing ${t.referencing} for each statement execute function ${t.name}()`,
        )
        .execute(db);
    }
  } else {
    const add = (row: string) =>
      `insert into subscription_tallies (${COLUMNS}, subscriptions) values (${of(row).join(', ')}, 1)
       on conflict (${COLUMNS}) do update set subscriptions = subscriptions + 1;`;
    const remove = (row: string) => `update subscription_tallies set subscriptions = subscriptions - 1 where ${matching(row)};`;
    await sql.raw(`create trigger subscription_tallies_insert after insert on billing_subscriptions begin ${add('new')} end`).execute(db);
    await sql
      .raw(`create trigger subscription_tallies_delete after delete on billing_subscriptions begin ${remove('old')} end`)
      .execute(db);
    await sql
      .raw(`create trigger subscription_tallies_update after update on billing_subscriptions begin ${remove('old')} ${add('new')} end`)
      .execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of ['subscription_tallies_insert', 'subscription_tallies_delete', 'subscription_tallies_update']) {
    await sql.raw(`drop trigger if exists ${name}${postgres ? ' on billing_subscriptions' : ''}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropTable('subscription_tallies').execute();
}
