import { PostgresAdapter, sql, type Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Admin search matches the start of a username or e-mail: a range over these indexes, in byte
  // order (SQLite's default; "C" on PostgreSQL, whose linguistic collations ignore punctuation).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create index users_username_lower_idx on users ((lower(username) collate "C"))`.execute(db);
    await sql`create index users_email_bytes_idx on users ((email collate "C"))`.execute(db);
  } else {
    await db.schema
      .createIndex('users_username_lower_idx')
      .on('users')
      .expression(sql`lower(username)`)
      .execute();
  }

  // Who changed what: kept when the actor or the target is deleted, so no foreign keys.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_at_idx').on('audit_log').column('created_at').execute();

  // Messages the AI service stores per chat session (product §3 Stored message).
  await db.schema
    .createTable('stored_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('message_size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stored_messages_session_created_idx').on('stored_messages').columns(['session_id', 'created_at']).execute();
  await db.schema.createIndex('stored_messages_created_at_idx').on('stored_messages').column('created_at').execute();
  await db.schema.createIndex('stored_messages_user_id_idx').on('stored_messages').column('user_id').execute();

  // AI chat threads (product §3 AI history): the AI service sends each thread whole.
  await db.schema
    .createTable('ai_threads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ai_threads_user_created_idx').on('ai_threads').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('ai_thread_messages')
    .addColumn('thread_id', 'text', (c) => c.notNull().references('ai_threads.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ai_thread_messages_pk', ['thread_id', 'position'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['ai_thread_messages', 'ai_threads', 'stored_messages', 'audit_log']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('users_username_lower_idx').execute();
  await db.schema.dropIndex('users_email_bytes_idx').ifExists().execute();
}
