import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Staff's notes on a user (issue 28). They go with the user (CASCADE); the author's account may go
  // first (SET NULL), so the author's e-mail is kept with the note to say who wrote it.
  await db.schema
    .createTable('user_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_email', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The user's page lists them newest first.
  await db.schema.createIndex('user_notes_user_id_created_at_idx').on('user_notes').columns(['user_id', 'created_at']).execute();
  // An author's deletion clears author_id: without an index each deletion would read the whole table.
  await db.schema.createIndex('user_notes_author_id_idx').on('user_notes').column('author_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_notes').execute();
}
