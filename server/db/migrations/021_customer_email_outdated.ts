import { sql, type Kysely } from 'kysely';

/**
 * A Stripe customer whose e-mail is behind the account's (issue 27): set in the transaction that
 * changes the address, cleared once Stripe has the new one (server/services/billing/customerEmail.ts).
 * Customers of accounts that changed their e-mail before Stripe was told of changes are marked
 * here, so the first retry sends them their account's address.
 */

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('billing_customers').addColumn('email_outdated_since', 'bigint').execute();
  await db
    .updateTable('billing_customers')
    .set({ email_outdated_since: Date.now() })
    .where(sql<boolean>`user_id in (select target_id from audit_log where action = 'account.email.change')`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('billing_customers').dropColumn('email_outdated_since').execute();
}
