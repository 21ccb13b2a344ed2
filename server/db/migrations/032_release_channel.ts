import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The release channel (issue 41, decision 050): a build's Markdown notes, whether builds older
  // than it must update, and its withdrawal (it stays in the history).
  await db.schema
    .alterTable('sage_builds')
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('sage_builds')
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sage_builds').addColumn('withdrawn_at', 'bigint').execute();
  await db.schema.alterTable('sage_builds').addColumn('withdrawn_by', 'text').execute();
  await db.schema.alterTable('sage_builds').addColumn('withdraw_reason', 'text').execute();
  await db.schema.createIndex('sage_builds_version_idx').on('sage_builds').column('version').execute();
  // Whether the user wants an e-mail when a build for their engine is released (off by default).
  await db.schema
    .alterTable('users')
    .addColumn('release_emails', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // One release e-mail per user per build: queued with the release, sent in batches by whichever
  // instance claims them first (`claimed_until`), `sent_at` once handed to SMTP.
  await db.schema
    .createTable('release_mails')
    .addColumn('build_id', 'text', (c) => c.notNull().references('sage_builds.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'bigint')
    .addPrimaryKeyConstraint('release_mails_pk', ['build_id', 'user_id'])
    .execute();
  await db.schema.createIndex('release_mails_pending_idx').on('release_mails').columns(['sent_at', 'claimed_until']).execute();
  await db.schema.createIndex('release_mails_user_idx').on('release_mails').column('user_id').execute();
  // The one-click unsubscribe links (RFC 8058) the mails carry: hashed, one per user, kept until used.
  await db.schema
    .createTable('release_mail_unsubscribes')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('release_mail_unsubscribes_user_idx').on('release_mail_unsubscribes').column('user_id').execute();
  // The console's adoption figures group recent installs by plugin version.
  await db.schema.createIndex('plugin_installs_last_used_idx').on('plugin_installs').column('last_used_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('plugin_installs_last_used_idx').execute();
  await db.schema.dropTable('release_mail_unsubscribes').execute();
  await db.schema.dropTable('release_mails').execute();
  await db.schema.alterTable('users').dropColumn('release_emails').execute();
  await db.schema.dropIndex('sage_builds_version_idx').execute();
  for (const column of ['withdraw_reason', 'withdrawn_by', 'withdrawn_at', 'required', 'notes']) {
    await db.schema.alterTable('sage_builds').dropColumn(column).execute();
  }
}
