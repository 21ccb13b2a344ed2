// A PostgreSQL schema of its own for one test suite, benchmark or cluster run, so runs never see
// each other's tables, dropped afterwards. Shared by tests/server, bench:admin and the local cluster.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Appends `options=-c search_path=<schema>` so every pooled connection works inside the schema. */
export function withSearchPath(url: string, schema: string): string {
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

async function query(baseUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export interface PostgresSchema {
  name: string;
  /** `baseUrl` with the schema as its search path. */
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty schema named `<prefix>_<random>` in the database at `baseUrl`. */
export async function createPostgresSchema(baseUrl: string, prefix: string): Promise<PostgresSchema> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await query(baseUrl, `CREATE SCHEMA ${name}`);
  return { name, url: withSearchPath(baseUrl, name), drop: () => query(baseUrl, `DROP SCHEMA IF EXISTS ${name} CASCADE`) };
}

/** The schema `name` in the database at `baseUrl`, created if missing and kept: drop() leaves it. */
export async function keptPostgresSchema(baseUrl: string, name: string): Promise<PostgresSchema> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`a schema name is lower-case letters, digits and _: ${name}`);
  await query(baseUrl, `CREATE SCHEMA IF NOT EXISTS ${name}`);
  return { name, url: withSearchPath(baseUrl, name), drop: async () => undefined };
}
