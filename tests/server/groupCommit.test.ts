/**
 * Group commit (issue 39, decision 044): writes that arrive together share one transaction, each
 * is answered only once its commit is durable, a refusal is its own, and a failure rolls back only
 * the write that failed.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, openSqlite, type Db } from '../../server/db';
import { createGroupCommit } from '../../server/db/groupCommit';
import { AppError } from '../../server/errors';
import { databases, withSearchPath, type OpenedDatabase } from './harness';

describe.each(databases)('group commit on $label', (database) => {
  let opened: OpenedDatabase;
  let db: Db;
  let other: Db;
  beforeEach(async () => {
    opened = await database.open();
    db = opened.db;
    await sql`create table writes (n integer primary key)`.execute(db);
    // Another connection: it sees only what was committed.
    if (database.kind === 'postgres') {
      const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!;
      other = openDatabase({ databaseUrl: withSearchPath(process.env.TEST_DATABASE_URL!, schema), dataDir: '/tmp' });
    } else {
      const { file } = (await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db)).rows[0]!;
      other = openSqlite(file);
    }
  });
  afterEach(async () => {
    await other.destroy();
    await opened.dispose();
  });

  const committed = async () => (await sql<{ n: number }>`select n from writes order by n`.execute(other)).rows.map((row) => row.n);

  it('writes what arrives together in one transaction, and answers each after the commit', async () => {
    const group = createGroupCommit(db);
    const transactions = new Set<Db>();
    const seenAtAnswer: number[][] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        group
          .run(async (trx) => {
            transactions.add(trx);
            await sql`insert into writes (n) values (${n})`.execute(trx);
            return n;
          }, 'one user')
          .then(async (answer) => {
            expect(answer).toBe(n);
            seenAtAnswer.push(await committed());
          }),
      ),
    );
    expect(transactions.size).toBe(1);
    // Whenever a write was answered, it (and all of its transaction) was already on disk.
    for (const seen of seenAtAnswer) expect(seen).toHaveLength(20);
  });

  it('takes the writes that arrive during a commit into the next transaction', async () => {
    const group = createGroupCommit(db);
    const transactions: Db[] = [];
    const write = (n: number) =>
      group.run(async (trx) => {
        transactions.push(trx);
        await sql`insert into writes (n) values (${n})`.execute(trx);
      }, 'one user');
    const first = write(0);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, ...Array.from({ length: 10 }, (_, i) => write(i + 1))]);
    expect(new Set(transactions).size).toBeLessThanOrEqual(2);
    expect(await committed()).toHaveLength(11);
  });

  it.runIf(database.kind === 'sqlite')(
    'leaves every other write of the connection flushing the log inside its COMMIT (synchronous = FULL)',
    async () => {
      const group = createGroupCommit(db);
      await group.run(async (trx) => {
        await sql`insert into writes (n) values (1)`.execute(trx);
      }, 'one user');
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      expect(rows[0]!.synchronous).toBe(2);
    },
  );

  it('keeps a refusal to its own write: the others commit', async () => {
    const group = createGroupCommit(db);
    const answers = await Promise.allSettled(
      [1, 2, 3].map((n) =>
        group.run(async (trx) => {
          if (n === 2) throw new AppError(402, 'quota_exhausted', 'No queries are left');
          await sql`insert into writes (n) values (${n})`.execute(trx);
        }, 'one user'),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((answers[1] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 402 });
    expect(await committed()).toEqual([1, 3]);
  });

  it('rolls back only the write that failed: the others run again alone and commit', async () => {
    const group = createGroupCommit(db);
    const answers = await Promise.allSettled(
      [1, 2, 3].map((n) =>
        group.run(async (trx) => {
          await sql`insert into writes (n) values (${n})`.execute(trx);
          // A write that fails after writing: a broken statement.
          if (n === 2) await sql`insert into no_such_table values (1)`.execute(trx);
        }, 'one user'),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await committed()).toEqual([1, 3]);
  });
});

describe.runIf(databases.some((d) => d.kind === 'postgres'))('group commit on PostgreSQL: lanes', () => {
  it("takes a batch's users in order, and runs a write that must be alone in a transaction of its own", async () => {
    const opened = await databases.find((d) => d.kind === 'postgres')!.open();
    try {
      await sql`create table writes (n integer primary key)`.execute(opened.db);
      const group = createGroupCommit(opened.db, { lanes: 1 });
      const order: string[] = [];
      const transactions = new Set<Db>();
      const write = (key: string, n: number, alone = false) =>
        group.run(
          async (trx) => {
            order.push(key);
            transactions.add(trx);
            await sql`insert into writes (n) values (${n})`.execute(trx);
          },
          key,
          alone,
        );
      await Promise.all([write('u3', 3), write('u1', 1), write('u2', 2), write('u0', 0, true)]);
      expect(order.filter((key) => key !== 'u0')).toEqual(['u1', 'u2', 'u3']);
      expect(transactions.size).toBe(2);
    } finally {
      await opened.dispose();
    }
  });
});
