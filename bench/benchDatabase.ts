// The database a seeding benchmark measures: a fresh SQLite file, or a PostgreSQL schema of its own
// with BENCH_DATABASE_URL; BENCH_DATA_DIR keeps the SQLite file there (reused on the next run),
// BENCH_PG_SCHEMA likewise the PostgreSQL schema of that name. Migrated to the latest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase, type Db } from '../server/db';
import { createPostgresSchema, keptPostgresSchema } from '../scripts/postgresSchema';

export interface BenchDatabase {
  db: Db;
  label: 'SQLite' | 'PostgreSQL';
  /** The server's DATA_DIR (and the SQLite file's folder). */
  dataDir: string;
  /** The server's DATABASE_URL on PostgreSQL. */
  databaseUrl: string | undefined;
  /** The kept folder or schema, when the seed outlives the run. */
  kept: string | undefined;
  /** Closes the database, and drops what is not kept. */
  close(): Promise<void>;
}

export async function openBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const url = process.env.BENCH_DATABASE_URL;
  const keptDir = url ? undefined : process.env.BENCH_DATA_DIR;
  if (keptDir) fs.mkdirSync(keptDir, { recursive: true });
  const dataDir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `sage-${prefix.replaceAll('_', '-')}-`));
  const keptSchema = url ? process.env.BENCH_PG_SCHEMA : undefined;
  const pgSchema = url ? (keptSchema ? await keptPostgresSchema(url, keptSchema) : await createPostgresSchema(url, prefix)) : null;
  const db = openDatabase({ dataDir, databaseUrl: pgSchema?.url });
  await migrateToLatest(db);
  return {
    db,
    label: pgSchema ? 'PostgreSQL' : 'SQLite',
    dataDir,
    databaseUrl: pgSchema?.url,
    kept: keptDir ?? keptSchema,
    async close() {
      await db.destroy();
      await pgSchema?.drop();
      if (!keptDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
