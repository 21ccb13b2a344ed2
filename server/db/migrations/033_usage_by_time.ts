import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The console Home's plugin versions (issue 41) read the last 30 days of every user's uses: a
  // range of this index rather than the whole table (kept 400 days by default).
  await db.schema.createIndex('usage_events_occurred_at_idx').on('usage_events').column('occurred_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('usage_events_occurred_at_idx').execute();
}
