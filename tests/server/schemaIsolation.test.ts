/**
 * Every server test file, benchmark and cluster run keeps its tables in a PostgreSQL schema of its
 * own in one shared database (scripts/postgresSchema.ts), and the server test files run two at a
 * time: a migration must read only its own schema, never trip over one another run is dropping.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../server/db';
import { createPostgresSchema } from '../../scripts/postgresSchema';

const baseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!baseUrl)('a PostgreSQL schema beside others', () => {
  it('lists only its own tables, not those of another schema of the database', async () => {
    const own = await createPostgresSchema(baseUrl!, 't');
    const other = await createPostgresSchema(baseUrl!, 't');
    const db = openDatabase({ databaseUrl: own.url, dataDir: '' });
    const otherDb = openDatabase({ databaseUrl: other.url, dataDir: '' });
    try {
      await migrateToLatest(otherDb);
      await migrateToLatest(db);
      const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
      expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([own.name]));
      expect(tables.map((t) => t.name)).toContain('kysely_migration');
      // As Kysely's own: its migration tables only when asked for.
      expect((await db.introspection.getTables()).map((t) => t.name)).toEqual(
        tables.map((t) => t.name).filter((name) => !name.startsWith('kysely_')),
      );
      const users = tables.find((t) => t.name === 'users');
      expect(users?.columns.find((c) => c.name === 'id')).toMatchObject({ isNullable: false });
    } finally {
      await db.destroy();
      await otherDb.destroy();
      await own.drop();
      await other.drop();
    }
  });

  it('migrates while other runs create and drop their schemas', async () => {
    // Another run's schemas appear and vanish, each with a table whose serial the stock
    // introspection looked up by name: a read of every schema failed on one dropped under it.
    const churn = new pg.Client({ connectionString: baseUrl });
    await churn.connect();
    let stop = false;
    let dropped = 0;
    const churning = (async () => {
      while (!stop) {
        const name = `t_churn_${process.pid}_${dropped}`;
        await churn.query(`create schema ${name}; create table ${name}.rows (id serial primary key)`);
        await churn.query(`drop schema ${name} cascade`);
        dropped += 1;
      }
    })();
    try {
      for (let round = 0; round < 2; round += 1) {
        const own = await createPostgresSchema(baseUrl!, 't');
        const db = openDatabase({ databaseUrl: own.url, dataDir: '' });
        try {
          await migrateToLatest(db);
          for (let read = 0; read < 10; read += 1) await db.introspection.getTables({ withInternalKyselyTables: true });
        } finally {
          await db.destroy();
          await own.drop();
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
    expect(dropped).toBeGreaterThan(0);
  });
});
