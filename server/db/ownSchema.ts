import {
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  table: string;
  table_type: string;
  schema: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  comment: string | null;
  auto_incrementing: string | null;
}

/**
 * Kysely's PostgreSQL introspection (which its migrator asks whether its tables exist) reads every
 * schema of the database and looks each one up by name: a schema another run drops meanwhile fails
 * it ("schema … does not exist"). Test files, benchmarks and cluster runs share one database, each in
 * a schema of its own, so this one reads only the connection's own schema (its search path).
 */
class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  getSchemas() {
    return new PostgresIntrospector(this.db).getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    // The select list's name lookups run only on rows the where clause kept: this schema's.
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as table_type, ns.nspname as "schema",
        a.attname as "column", a.attnotnull as not_null, a.atthasdef as has_default,
        typ.typname as "type", dtns.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as "comment",
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as auto_incrementing
      from pg_catalog.pg_attribute a
        join pg_catalog.pg_class c on a.attrelid = c.oid
        join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
        join pg_catalog.pg_type typ on a.atttypid = typ.oid
        join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
        and a.attnum >= 0 and not a.attisdropped
        and (${options.withInternalKyselyTables} or c.relname not in ('kysely_migration', 'kysely_migration_lock'))
      order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, { name: string; isView: boolean; schema: string; columns: ColumnMetadata[] }>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, isView: row.table_type === 'v', schema: row.schema, columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isAutoIncrementing: row.auto_incrementing !== null,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL as Kysely speaks it, with an introspection that stays inside the connection's schema. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
