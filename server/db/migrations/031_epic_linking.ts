import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Linking an Epic account to an existing Sage account (issue 40, decision 047). The user an Epic
  // sign-in is to be linked to, once Epic answers; and whether that sign-in then starts a session
  // (1: the account was proved by an e-mailed link, not by a session of this browser).
  await db.schema.alterTable('sign_in_flows').addColumn('link_user_id', 'text').execute();
  await db.schema
    .alterTable('sign_in_flows')
    .addColumn('link_signs_in', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The e-mailed single-use links that prove an account to link Epic to: from the link page
  // (`flow_id`: the sign-in waiting for it) or, with LEGACY_LOGIN=off, from the login page.
  await db.schema
    .createTable('epic_link_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('flow_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('epic_link_tokens_user_idx').on('epic_link_tokens').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('epic_link_tokens').execute();
  await db.schema.alterTable('sign_in_flows').dropColumn('link_signs_in').execute();
  await db.schema.alterTable('sign_in_flows').dropColumn('link_user_id').execute();
}
