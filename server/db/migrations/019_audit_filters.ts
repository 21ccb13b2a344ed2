import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The audit log's filters (issue 28): each by one exact column, newest first, a page at a time. Each
 * column's index carries the list's order (created_at, id) after it, so a filter reads its page and
 * its count from the index alone. The actor and target indexes replace migration 016's, which a
 * deletion's lookups of a user's entries use as well as the first column of these.
 * The unfiltered list's total is kept in row_counts as migration 005 keeps the users' (decision 011):
 * counting a million entries on every page took 90 ms on PostgreSQL.
 */
const FILTERED = ['actor_id', 'actor_email', 'action', 'target_id'] as const;

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('audit_log_actor_id_idx').execute();
  await db.schema.dropIndex('audit_log_target_id_idx').execute();
  for (const column of FILTERED) {
    // An action is one entry in ~20: with an actor or target as well, its index answers the other
    // filters too (PostgreSQL otherwise read ~5,000 rows for a month of one admin's one action).
    const others = column === 'action' ? ['actor_id', 'actor_email', 'target_id'] : [];
    await db.schema
      .createIndex(`audit_log_${column}_created_at_idx`)
      .on('audit_log')
      .columns([column, 'created_at', 'id', ...others])
      .execute();
  }

  await sql`insert into row_counts (table_name, row_count) select 'audit_log', count(*) from audit_log`.execute(db);
  if (isPostgres(db)) {
    // One update per statement, however many rows it touched.
    await sql`create function audit_log_row_count() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update row_counts set row_count = row_count + (select count(*) from changed_rows) where table_name = 'audit_log';
        else
          update row_counts set row_count = row_count - (select count(*) from changed_rows) where table_name = 'audit_log';
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger audit_log_count_insert after insert on audit_log referencing new table as changed_rows for each statement execute function audit_log_row_count()`.execute(
      db,
    );
    await sql`create trigger audit_log_count_delete after delete on audit_log referencing old table as changed_rows for each statement execute function audit_log_row_count()`.execute(
      db,
    );
  } else {
    await sql`create trigger audit_log_count_insert after insert on audit_log begin update row_counts set row_count = row_count + 1 where table_name = 'audit_log'; end`.execute(
      db,
    );
    await sql`create trigger audit_log_count_delete after delete on audit_log begin update row_counts set row_count = row_count - 1 where table_name = 'audit_log'; end`.execute(
      db,
    );
  }
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  await sql.raw(`drop trigger if exists audit_log_count_insert${postgres ? ' on audit_log' : ''}`).execute(db);
  await sql.raw(`drop trigger if exists audit_log_count_delete${postgres ? ' on audit_log' : ''}`).execute(db);
  if (postgres) await sql`drop function if exists audit_log_row_count()`.execute(db);
  await db.deleteFrom('row_counts').where('table_name', '=', 'audit_log').execute();
  for (const column of FILTERED) await db.schema.dropIndex(`audit_log_${column}_created_at_idx`).execute();
  await db.schema.createIndex('audit_log_target_id_idx').on('audit_log').column('target_id').execute();
  await db.schema.createIndex('audit_log_actor_id_idx').on('audit_log').column('actor_id').execute();
}
