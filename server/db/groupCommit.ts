import fs from 'node:fs/promises';
import { sql } from 'kysely';
import { AppError } from '../errors';
import { isPostgres, type Db } from './index';

/**
 * Group commit (issue 39, decision 044): writes that arrive together share one transaction and
 * one commit, and each is answered only once that commit is durable.
 *
 * On SQLite every commit is an fsync of the write-ahead log, one at a time: a use paid a commit of
 * its own and recording ran at the disk's pace. Here the first write starts a transaction at once;
 * the writes that arrive while it runs and commits wait, and the next transaction takes all of
 * them (up to `maxBatch`). An idle server adds no wait; a busy one commits many writes per fsync.
 *
 * A write refuses (throws an AppError: 402, 409, 404…) before it writes, so a refusal leaves the
 * others' work in place. Any other failure rolls the batch back and runs each of its writes again
 * in a transaction of its own, so one write's failure is its own alone.
 *
 * PostgreSQL already shares the log's flush among transactions that commit at the same moment
 * (its own group commit), and runs many transactions at once on the pool's connections: there
 * each write keeps a transaction of its own.
 */
export interface GroupCommit {
  run<T>(work: (trx: Db) => Promise<T>): Promise<T>;
}

interface Waiting {
  work: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export function createGroupCommit(db: Db, { maxBatch = 256 }: { maxBatch?: number } = {}): GroupCommit {
  if (isPostgres(db)) return { run: (work) => db.transaction().execute(work) };

  const waiting: Waiting[] = [];
  let draining = false;

  // The write-ahead log beside the database file: fsync of any descriptor of a file flushes it.
  let logPath: Promise<string> | undefined;
  async function flushLog(): Promise<void> {
    logPath ??= sql<{ file: string }>`select file from pragma_database_list where name = 'main'`
      .execute(db)
      .then(({ rows }) => `${rows[0]!.file}-wal`);
    const log = await fs.open(await logPath, 'r');
    try {
      await log.sync();
    } finally {
      await log.close();
    }
  }

  async function commit(batch: Waiting[]): Promise<void> {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; err: unknown })[] = [];
    let committed = false;
    try {
      // The batch's COMMIT writes its log frames without waiting for the disk (NORMAL), on the
      // connection held for it alone, which then goes back to FULL for every other write.
      await db.connection().execute(async (connection) => {
        await sql`pragma synchronous = NORMAL`.execute(connection);
        try {
          await connection.transaction().execute(async (trx) => {
            for (const write of batch) {
              try {
                outcomes.push({ ok: true, value: await write.work(trx) });
              } catch (err) {
                if (!(err instanceof AppError)) throw err;
                outcomes.push({ ok: false, err });
              }
            }
          });
          committed = true;
        } finally {
          await sql`pragma synchronous = FULL`.execute(connection);
        }
      });
    } catch (err) {
      // Rolled back: each write runs again alone. (Once committed, never again: that would charge twice.)
      if (!committed) {
        if (batch.length === 1) return batch[0]!.reject(err);
        for (const write of batch) await commit([write]);
        return;
      }
    }
    // The log is flushed on libuv's thread pool while the next batch is written, and only then
    // is any write of this batch answered: as durable as FULL, whose COMMIT flushes the log while
    // it blocks the event loop.
    void flushLog().then(
      () =>
        batch.forEach((write, i) => {
          const outcome = outcomes[i]!;
          if (outcome.ok) write.resolve(outcome.value);
          else write.reject(outcome.err);
        }),
      (err: unknown) => batch.forEach((write) => write.reject(err)),
    );
  }

  async function drain(): Promise<void> {
    draining = true;
    try {
      while (waiting.length > 0) await commit(waiting.splice(0, maxBatch));
    } finally {
      draining = false;
    }
  }

  return {
    run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
        // The writes that arrive in this turn of the event loop join the first transaction.
        if (!draining) {
          draining = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
