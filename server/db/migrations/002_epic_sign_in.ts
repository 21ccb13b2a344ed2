import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('epic_account_id', 'text').execute();
  await db.schema.alterTable('users').addColumn('epic_display_name', 'text').execute();
  await db.schema.createIndex('users_epic_account_id_idx').on('users').column('epic_account_id').unique().execute();

  await db.schema
    .createTable('sign_in_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('oauth_state', 'text')
    .addColumn('oauth_code_verifier', 'text')
    .addColumn('plugin_redirect_uri', 'text')
    .addColumn('plugin_state', 'text')
    .addColumn('plugin_code_challenge', 'text')
    .addColumn('epic_account_id', 'text')
    .addColumn('epic_display_name', 'text')
    .addColumn('link_email', 'text')
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('ue_status', 'text')
    .addColumn('ue_message', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_flows_expires_at_idx').on('sign_in_flows').column('expires_at').execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('flow_id', 'text', (c) => c.notNull().references('sign_in_flows.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('epic_account_id', 'text', (c) => c.notNull())
    .addColumn('epic_display_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .execute();
  // One live link per flow: a new mail replaces the row, and two sends at once cannot both insert.
  await db.schema.createIndex('email_verifications_flow_id_idx').on('email_verifications').column('flow_id').unique().execute();

  await db.schema
    .createTable('plugin_hand_off_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('flow_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('plugin_hand_off_codes_flow_id_idx').on('plugin_hand_off_codes').column('flow_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['plugin_hand_off_codes', 'email_verifications', 'sign_in_flows']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('users_epic_account_id_idx').execute();
  await db.schema.alterTable('users').dropColumn('epic_display_name').execute();
  await db.schema.alterTable('users').dropColumn('epic_account_id').execute();
}
