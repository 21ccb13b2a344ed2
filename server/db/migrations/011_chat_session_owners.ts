import { sql, type Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Who each chat session belongs to (issue 24): a license token may only add to its own user's
  // sessions. The primary key settles a race of two users writing one new session id: one insert
  // wins, the other finds the winner. null: a session only the AI service may write to.
  await db.schema
    .createTable('chat_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('chat_sessions_user_id_idx').on('chat_sessions').column('user_id').execute();

  // Sessions stored before: the order of their first messages is lost (createdAt was the caller's
  // word), so a session belongs to its one user if it has exactly one, and to no user (the service
  // only) if it has none or several: a session two users already wrote to stays closed to both.
  await sql`
    insert into chat_sessions (id, user_id)
    select session_id, case when count(distinct user_id) = 1 then max(user_id) end
    from stored_messages
    group by session_id`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_sessions').execute();
}
