import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, sql, PostgresAdapter, SqliteDialect, type LogConfig, type Migration } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { OwnSchemaPostgresDialect } from './ownSchema';
import * as m001 from './migrations/001_initial';
import * as m002 from './migrations/002_epic_sign_in';
import * as m003 from './migrations/003_billing';
import * as m004 from './migrations/004_admin_console';
import * as m005 from './migrations/005_row_counts';
import * as m006 from './migrations/006_user_list_seek';
import * as m007 from './migrations/007_user_search';
import * as m008 from './migrations/008_business_insights';
import * as m009 from './migrations/009_account_control';
import * as m010 from './migrations/010_subscription_tallies';
import * as m011 from './migrations/011_chat_session_owners';
import * as m012 from './migrations/012_usage_metering';
import * as m013 from './migrations/013_account_sessions';
import * as m014 from './migrations/014_password_change_required';
import * as m015 from './migrations/015_email_changes';
import * as m016 from './migrations/016_keep_accounting_rows';
import * as m017 from './migrations/017_suspension';
import * as m018 from './migrations/018_user_notes';
import * as m019 from './migrations/019_audit_filters';
import * as m020 from './migrations/020_staff_roles';
import * as m021 from './migrations/021_customer_email_outdated';
import * as m022 from './migrations/022_staff_email_edits_outdated';
import * as m023 from './migrations/023_organisations';
import * as m024 from './migrations/024_org_invitations';
import * as m025 from './migrations/025_org_billing';
import * as m026 from './migrations/026_usage_holds';
import * as m027 from './migrations/027_automatic_top_up';
import * as m028 from './migrations/028_org_top_up';
import * as m029 from './migrations/029_second_factor';
import * as m030 from './migrations/030_passkeys';
import * as m031 from './migrations/031_epic_linking';
import * as m032 from './migrations/032_release_channel';
import * as m033 from './migrations/033_usage_by_time';

export type { Database } from './schema';
export type Db = Kysely<Database>;

// PostgreSQL returns bigint as text; our bigints are epoch milliseconds, safely within a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type DatabaseKind = 'sqlite' | 'postgres';

/** Whether `db` is PostgreSQL (else the embedded SQLite): where the two dialects' SQL differs. */
export const isPostgres = (db: Kysely<Database>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** Told how long each query took and whether it failed (the server's metrics); never its SQL. */
export type QueryObserver = (database: DatabaseKind, durationMs: number, ok: boolean) => void;

/** Kysely times queries only when it logs them: its log is the observer's way in. */
function observed(database: DatabaseKind, onQuery: QueryObserver | undefined): LogConfig | undefined {
  if (!onQuery) return undefined;
  return (event) => onQuery(database, event.queryDurationMillis, event.level === 'query');
}

/** Opens PostgreSQL when `databaseUrl` is given, else the embedded SQLite file under `dataDir`. */
export function openDatabase(opts: { databaseUrl?: string; dataDir: string; onQuery?: QueryObserver }): Db {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // A user-list search answers the first SEARCH_LIST_LIMIT matches a scan finds (decision 020). A
    // synchronized scan starts where the last one over the table stopped, so page 2 could come from
    // other users than page 1: scan every table from its start. (A client runs its queries in order.)
    pool.on('connect', (client) => void client.query('set synchronize_seqscans = off').catch(() => undefined));
    return new Kysely<Database>({
      dialect: new OwnSchemaPostgresDialect({ pool }),
      log: observed('postgres', opts.onQuery),
    });
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  return openSqlite(path.join(opts.dataDir, 'sage.db'), opts.onQuery);
}

export function openSqlite(file: string, onQuery?: QueryObserver): Db {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 64 MiB of pages kept in the process rather than SQLite's default 2 MiB: admin reads over a
  // million users (a trigram doclist, a sort of matches) re-read the same pages (issue 14).
  sqlite.pragma('cache_size = -65536');
  // SQLite's own lower() folds ASCII only; admin search lower-cases its terms as JavaScript does,
  // so the indexed lower(username) must too (migration 004). Deterministic, so usable in an index.
  sqlite.function('lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log: observed('sqlite', onQuery) });
}

/** How many distinct SQL texts keep their prepared statement. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * better-sqlite3 as Kysely sees it, with each SQL text prepared once and its statement reused:
 * Kysely prepares on every query, and preparing was the largest single cost of a session lookup
 * (issue 12's profile). A statement still being iterated (a streamed read) is never handed out
 * twice: the caller then gets one of its own.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string): SQLite.Statement {
      const cached = statements.get(text);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(text);
      if (!cached) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

// Listed here rather than read from a folder so the same list works under tsx and in bundles.
const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_epic_sign_in': m002,
  '003_billing': m003,
  '004_admin_console': m004,
  '005_row_counts': m005,
  '006_user_list_seek': m006,
  '007_user_search': m007,
  '008_business_insights': m008,
  '009_account_control': m009,
  '010_subscription_tallies': m010,
  '011_chat_session_owners': m011,
  '012_usage_metering': m012,
  '013_account_sessions': m013,
  '014_password_change_required': m014,
  '015_email_changes': m015,
  '016_keep_accounting_rows': m016,
  '017_suspension': m017,
  '018_user_notes': m018,
  '019_audit_filters': m019,
  '020_staff_roles': m020,
  '021_customer_email_outdated': m021,
  '022_staff_email_edits_outdated': m022,
  '023_organisations': m023,
  '024_org_invitations': m024,
  '025_org_billing': m025,
  '026_usage_holds': m026,
  '027_automatic_top_up': m027,
  '028_org_top_up': m028,
  '029_second_factor': m029,
  '030_passkeys': m030,
  '031_epic_linking': m031,
  '032_release_channel': m032,
  '033_usage_by_time': m033,
};

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which one: another schema
  // of the same database that has them (another app, a parallel test suite) would pass for ours.
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/** True when the database answers a trivial query. */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
