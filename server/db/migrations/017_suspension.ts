import { sql, type Kysely } from 'kysely';

/**
 * Suspension (issue 28, decision 029): `users.status` becomes `Active` or `Suspended`, and a
 * suspension keeps when it began and why. Statuses typed by hand before are normalised: one that
 * meant the account was shut (suspended, banned, blocked, disabled, locked, in any case) becomes
 * `Suspended`, its old text kept as the reason; every other becomes `Active`. Accounts suspended
 * here have their sessions ended, as a suspension from the console does.
 */

const SHUT = ['suspended', 'banned', 'blocked', 'disabled', 'locked'];

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('suspended_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('suspension_reason', 'text').execute();
  const shut = sql<boolean>`lower(trim(status)) in (${sql.join(SHUT)})`;
  await db
    .updateTable('users')
    .set({
      status: 'Suspended',
      suspended_at: sql`updated_at`,
      suspension_reason: sql`'Status was "' || status || '" before suspension was enforced'`,
    })
    .where(shut)
    .execute();
  await db.updateTable('users').set({ status: 'Active' }).where('status', '<>', 'Suspended').execute();
  await db
    .deleteFrom('sessions')
    .where('user_id', 'in', db.selectFrom('users').select('id').where('status', '=', 'Suspended'))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('suspension_reason').execute();
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
}
