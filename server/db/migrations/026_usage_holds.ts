import { sql, type Kysely } from 'kysely';

/**
 * Holds (issue 39, decision 043): a query priced after it runs reserves units first and is settled
 * for what it took. A hold is a use whose row says what was held and until when: the same
 * `(user, requestId)` key, the same charging and the same idempotency as a use, and a settlement
 * that gives back what the query did not take. `hold_expires_at` is set while the hold is open.
 */
// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('usage_events').addColumn('held_units', 'integer').execute();
  await db.schema.alterTable('usage_events').addColumn('hold_expires_at', 'bigint').execute();
  // The seat that paid part of a hold, to give back to it when the seat was handed on meanwhile.
  await db.schema.alterTable('usage_events').addColumn('seat_id', 'text').execute();
  await db.schema.alterTable('usage_events').addColumn('settled_at', 'bigint').execute();
  await db.schema.alterTable('usage_events').addColumn('settle_fingerprint', 'text').execute();
  await db.schema.alterTable('usage_events').addColumn('settle_answer', 'text').execute();
  // Open holds only, so both stay as small as the holds in flight: housekeeping finds the expired
  // ones, and a user's "queries in progress" sums theirs.
  await sql`create index usage_events_open_holds_idx on usage_events (hold_expires_at) where hold_expires_at is not null`.execute(db);
  await sql`create index usage_events_user_holds_idx on usage_events (user_id) where hold_expires_at is not null`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists usage_events_user_holds_idx`.execute(db);
  await sql`drop index if exists usage_events_open_holds_idx`.execute(db);
  for (const column of ['settle_answer', 'settle_fingerprint', 'settled_at', 'seat_id', 'hold_expires_at', 'held_units'])
    await db.schema.alterTable('usage_events').dropColumn(column).execute();
}
