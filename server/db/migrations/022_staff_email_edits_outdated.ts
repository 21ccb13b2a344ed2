import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Customers whose user's e-mail staff changed in the console before such edits were sent on to
 * Stripe (issue 27) are marked as migration 021 marked those of users' own changes: whether Stripe
 * still holds an older address cannot be known, so every customer with such an edit is marked, and
 * the first retry sends the account's address as it is then. An edit is the `user.update` audit entry
 * whose e-mail differs before and after (JSON text on both databases; an edit of the username, status
 * or role alone keeps it).
 */

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  const emailIn = (column: 'before_json' | 'after_json') =>
    postgres ? sql`(${sql.ref(column)}::jsonb ->> 'email')` : sql`json_extract(${sql.ref(column)}, '$.email')`;
  // Null-safe: an address given to an account that had none (an Epic account) is a change too.
  const changed = postgres
    ? sql`${emailIn('before_json')} is distinct from ${emailIn('after_json')}`
    : sql`${emailIn('before_json')} is not ${emailIn('after_json')}`;
  await db
    .updateTable('billing_customers')
    .set({ email_outdated_since: Date.now() })
    .where(sql<boolean>`user_id in (select target_id from audit_log where action = 'user.update' and ${changed})`)
    .execute();
}

/** Nothing to undo: clearing the marks would also forget changes made since that Stripe has not taken yet. */
export async function down(): Promise<void> {}
