import { PostgresAdapter, sql, type Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The admin user list pages by seeking (decision 011): each sort key gets an index that ends with
  // `id`, the tie-breaker, so a page's first row is found on the index alone and the page is a
  // range read from there. They replace the single-key indexes, which they serve as prefixes.
  // The e-mail key is `coalesce(email, '')`: a user who signed in with Epic may have none, and a
  // NULL would fall out of every range comparison (and sorts differently on the two databases).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // INCLUDE the column under each expression: PostgreSQL reads an expression index alone only
    // when the columns the expression uses are in it too.
    await sql`create index users_username_seek_idx on users ((lower(username) collate "C"), id) include (username)`.execute(db);
    await sql`create index users_email_seek_idx on users ((coalesce(email, '') collate "C"), id) include (email)`.execute(db);
    await sql`drop index users_username_lower_idx`.execute(db);
    await sql`drop index users_email_bytes_idx`.execute(db);
  } else {
    await sql`create index users_username_seek_idx on users (lower(username), id)`.execute(db);
    await sql`create index users_email_seek_idx on users (coalesce(email, ''), id)`.execute(db);
    await sql`drop index users_username_lower_idx`.execute(db);
  }
  await db.schema.createIndex('users_created_seek_idx').on('users').columns(['created_at', 'id']).execute();
  await db.schema.dropIndex('users_created_at_idx').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();
  await db.schema.dropIndex('users_created_seek_idx').execute();
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
  await db.schema.dropIndex('users_username_seek_idx').execute();
  await db.schema.dropIndex('users_email_seek_idx').execute();
}
