import { PostgresAdapter, sql, type Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Any fixed number: serialises this migration's CREATE EXTENSION across schemas and programs. */
const PG_TRGM_LOCK = 7_007_007;

/**
 * Admin search finds 3 or more characters anywhere in a username or e-mail (issue 14). On
 * PostgreSQL, trigram GIN indexes (pg_trgm) answer `LIKE '%term%'` on the very expressions indexed;
 * on SQLite, an FTS5 table with the trigram tokenizer, kept in step with `users` by triggers.
 */
export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
  else await upSqlite(db);
}

async function upPostgres(db: AnyDb): Promise<void> {
  // One database holds the schemas of several apps or test suites migrating at once: two
  // concurrent CREATE EXTENSIONs race on the catalog's unique index, and a failed statement would
  // abort this migration's transaction. Kysely's migration lock already covers its own migrators;
  // this lock, held to commit, covers anyone else who migrates with this code.
  await sql`select pg_advisory_xact_lock(${sql.lit(PG_TRGM_LOCK)})`.execute(db);
  const installed = await trgmSchema(db);
  if (!installed) {
    // In `public` when there is one: an extension lives in one schema per database, and one made in
    // this app's schema would go with it (and with every other schema's indexes on it) on DROP SCHEMA.
    const { rows } = await sql<{ present: boolean }>`select exists (select from pg_namespace where nspname = 'public') as present`.execute(
      db,
    );
    await sql.raw(`create extension if not exists pg_trgm${rows[0]?.present ? ' with schema public' : ''}`).execute(db);
  }
  // Wherever it lives, name its operator class with the schema, whatever this search_path is.
  const opclass = `${await trgmSchema(db)}.gin_trgm_ops`;
  await sql.raw(`create index users_username_trgm_idx on users using gin (lower(username) ${opclass})`).execute(db);
  await sql.raw(`create index users_email_trgm_idx on users using gin (coalesce(email, '') ${opclass})`).execute(db);
}

/** The schema pg_trgm is installed in, as an identifier (regnamespace quotes it when it must be). */
async function trgmSchema(db: AnyDb): Promise<string | undefined> {
  const { rows } = await sql<{
    schema: string;
  }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema;
}

async function upSqlite(db: AnyDb): Promise<void> {
  // `users` has a TEXT primary key, so its rowid is implicit and VACUUM may renumber it: the FTS
  // rows are keyed on an explicit INTEGER PRIMARY KEY of their own, which VACUUM keeps.
  await sql`create table user_search_ids (search_id integer primary key, user_id text not null unique)`.execute(db);
  // The trigram tokenizer folds case (Unicode, not only ASCII) and indexes every 3 characters, so
  // a quoted phrase of 3 or more characters matches anywhere in a value.
  await sql`create virtual table users_search using fts5(username, email, tokenize = 'trigram')`.execute(db);

  const searchId = (user: 'new' | 'old') => `(select search_id from user_search_ids where user_id = ${user}.id)`;
  await sql
    .raw(
      `create trigger users_search_insert after insert on users begin
         insert into user_search_ids (user_id) values (new.id);
         insert into users_search (rowid, username, email) values (${searchId('new')}, new.username, new.email);
       end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger users_search_update after update of id, username, email on users
       when old.id is not new.id or old.username is not new.username or old.email is not new.email begin
         update user_search_ids set user_id = new.id where user_id = old.id;
         update users_search set username = new.username, email = new.email where rowid = ${searchId('new')};
       end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger users_search_delete after delete on users begin
         delete from users_search where rowid = ${searchId('old')};
         delete from user_search_ids where user_id = old.id;
       end`,
    )
    .execute(db);

  await sql`insert into user_search_ids (user_id) select id from users`.execute(db);
  await sql`insert into users_search (rowid, username, email) select s.search_id, u.username, u.email from user_search_ids s join users u on u.id = s.user_id`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The extension stays: other schemas of the database may index with it.
    await sql`drop index if exists users_username_trgm_idx`.execute(db);
    await sql`drop index if exists users_email_trgm_idx`.execute(db);
    return;
  }
  for (const trigger of ['users_search_insert', 'users_search_update', 'users_search_delete']) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
  await sql`drop table if exists users_search`.execute(db);
  await sql`drop table if exists user_search_ids`.execute(db);
}
