import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** Tables whose size the admin console shows, each with its count kept by triggers. */
const COUNTED = ['users'] as const;

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The number of rows of a table, kept exact by triggers in the same transaction as every insert
  // and delete (decision 011): the admin console reads one row instead of counting a million.
  await db.schema
    .createTable('row_counts')
    .addColumn('table_name', 'text', (c) => c.primaryKey())
    .addColumn('row_count', 'bigint', (c) => c.notNull())
    .execute();

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of COUNTED) {
    await sql`insert into row_counts (table_name, row_count) select ${table}, count(*) from ${sql.table(table)}`.execute(db);
    if (postgres) {
      // One update per statement, however many rows it touched (a bulk insert, a cascade).
      await sql
        .raw(
          `create function ${table}_row_count() returns trigger language plpgsql as $$
           begin
             if tg_op = 'INSERT' then
               update row_counts set row_count = row_count + (select count(*) from changed_rows) where table_name = '${table}';
             else
               update row_counts set row_count = row_count - (select count(*) from changed_rows) where table_name = '${table}';
             end if;
             return null;
           end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${table}_count_insert after insert on ${table} referencing new table as changed_rows for each statement execute function ${table}_row_count()`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${table}_count_delete after delete on ${table} referencing old table as changed_rows for each statement execute function ${table}_row_count()`,
        )
        .execute(db);
    } else {
      await sql
        .raw(
          `create trigger ${table}_count_insert after insert on ${table} begin update row_counts set row_count = row_count + 1 where table_name = '${table}'; end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${table}_count_delete after delete on ${table} begin update row_counts set row_count = row_count - 1 where table_name = '${table}'; end`,
        )
        .execute(db);
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of COUNTED) {
    await sql.raw(`drop trigger if exists ${table}_count_insert${postgres ? ` on ${table}` : ''}`).execute(db);
    await sql.raw(`drop trigger if exists ${table}_count_delete${postgres ? ` on ${table}` : ''}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${table}_row_count()`).execute(db);
  }
  await db.schema.dropTable('row_counts').execute();
}
