import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // When and how the user last signed in (issue 14): written with the session row it starts.
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_method', 'text').execute();

  // License tokens an admin replaced (issue 14): only their SHA-256, so the plugin holding one is
  // told to sign in again rather than that its token was never valid.
  await db.schema
    .createTable('revoked_license_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('revoked_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revoked_license_tokens_user_id_idx').on('revoked_license_tokens').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('revoked_license_tokens').execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_method').execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
}
