import { PostgresAdapter, sql, type Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // "Where you're signed in" (issue 27). A session's public id: its token hash never leaves the
  // server. Nullable, as every column added here: instances of the previous release still insert
  // sessions during a rolling restart (docs/deploy.md), and the service gives those an id when it
  // first lists them. The user agent (cut short) and the network it signed in from are recorded
  // when it starts; sessions from before are "Unknown".
  await db.schema.alterTable('sessions').addColumn('id', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('ip_network', 'text').execute();
  // One statement for every existing session, a random UUID each (SQLite evaluates randomblob per row).
  await (
    postgres
      ? sql`update sessions set id = gen_random_uuid()::text where id is null`
      : sql`update sessions set id =
        lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' ||
        substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))
      where id is null`
  ).execute(db);
  await db.schema.createIndex('sessions_id_idx').on('sessions').column('id').unique().execute();

  // The versions a plugin says when it starts a sign-in, carried from its flow to its code.
  await db.schema.alterTable('sign_in_flows').addColumn('plugin_engine_version', 'text').execute();
  await db.schema.alterTable('sign_in_flows').addColumn('plugin_version', 'text').execute();
  await db.schema.alterTable('plugin_hand_off_codes').addColumn('engine_version', 'text').execute();
  await db.schema.alterTable('plugin_hand_off_codes').addColumn('plugin_version', 'text').execute();

  // A plugin install, recorded by the exchange of its hand-off. All installs of a user share the
  // user's license token: `last_used_at` moves when a token call names the install (X-Sage-Install).
  await db.schema
    .createTable('plugin_installs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('engine_version', 'text')
    .addColumn('plugin_version', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('plugin_installs_user_id_idx').on('plugin_installs').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('plugin_installs').execute();
  await db.schema.alterTable('plugin_hand_off_codes').dropColumn('plugin_version').execute();
  await db.schema.alterTable('plugin_hand_off_codes').dropColumn('engine_version').execute();
  await db.schema.alterTable('sign_in_flows').dropColumn('plugin_version').execute();
  await db.schema.alterTable('sign_in_flows').dropColumn('plugin_engine_version').execute();
  await db.schema.dropIndex('sessions_id_idx').execute();
  await db.schema.alterTable('sessions').dropColumn('ip_network').execute();
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  await db.schema.alterTable('sessions').dropColumn('id').execute();
}
