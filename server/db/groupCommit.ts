import fs from 'node:fs/promises';
import { sql } from 'kysely';
import { AppError } from '../errors';
import { isPostgres, type Db } from './index';

/**
 * Group commit (issue 39, decision 044): writes that arrive together share one transaction and
 * one commit, and each is answered only once that commit is durable.
 *
 * The first write starts a transaction at the next turn of the event loop; the writes that
 * arrive while it runs and commits wait, and the next transaction takes all of them (up to
 * `maxBatch`). An idle server adds no wait; a busy one commits many writes at once.
 *
 * A write refuses (throws an AppError: 402, 409, 404…) before it writes, so a refusal leaves the
 * others' work in place. Any other failure (PostgreSQL's deadlock detector included) rolls the
 * batch back and runs each of its writes again in a transaction of its own, so one write's
 * failure is its own alone.
 *
 * SQLite has one connection and one lane. On PostgreSQL writes go to `lanes` lanes by their key
 * (the user), each a connection's worth of batches, and a batch takes its users in the key's
 * order, so two batches never wait for each other's users in a circle. A write whose locks fall
 * outside that order (a studio's seat and pool) runs alone (`alone`).
 */
export interface GroupCommit {
  run<T>(work: (trx: Db) => Promise<T>, key: string, alone?: boolean): Promise<T>;
}

interface Waiting {
  work: (trx: Db) => Promise<unknown>;
  key: string;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** Runs each write of `batch` in `trx`, keeping refusals apart; anything else rolls the batch back. */
async function writeAll(trx: Db, batch: Waiting[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const write of batch) {
    try {
      outcomes.push({ ok: true, value: await write.work(trx) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      outcomes.push({ ok: false, err });
    }
  }
  return outcomes;
}

const answer = (batch: Waiting[], outcomes: Outcome[]) =>
  batch.forEach((write, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) write.resolve(outcome.value);
    else write.reject(outcome.err);
  });

/**
 * How a batch is made durable: commits it and answers it (now or once on disk); resolves once the
 * next batch may start; rejects, having committed nothing, when it was rolled back.
 */
type Committer = (batch: Waiting[]) => Promise<void>;

/**
 * SQLite: the batch's COMMIT writes its log frames without waiting for the disk (NORMAL), on the
 * connection held for it alone, which then goes back to FULL for every other write. The log is
 * flushed on libuv's thread pool while the next batch is written, and only then is any write of
 * this batch answered: as durable as FULL, whose COMMIT flushes the log while it blocks the event
 * loop (better-sqlite3 is synchronous) for every request in the process.
 */
function sqliteCommitter(db: Db): Committer {
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

  return async (batch) => {
    let outcomes: Outcome[] = [];
    let committed = false;
    try {
      await db.connection().execute(async (connection) => {
        await sql`pragma synchronous = NORMAL`.execute(connection);
        try {
          outcomes = await connection.transaction().execute((trx) => writeAll(trx, batch));
          committed = true;
        } finally {
          await sql`pragma synchronous = FULL`.execute(connection);
        }
      });
    } catch (err) {
      // Once committed, never run again: that would charge twice.
      if (!committed) throw err;
    }
    void flushLog().then(
      () => answer(batch, outcomes),
      (err: unknown) => batch.forEach((write) => write.reject(err)),
    );
  };
}

/** PostgreSQL: the batch in one transaction, its users taken in order; COMMIT returns once it is flushed. */
function postgresCommitter(db: Db): Committer {
  return async (batch) => {
    const outcomes = await db.transaction().execute((trx) => writeAll(trx, batch));
    answer(batch, outcomes);
  };
}

export function createGroupCommit(db: Db, { maxBatch = 256, lanes = 4 }: { maxBatch?: number; lanes?: number } = {}): GroupCommit {
  const postgres = isPostgres(db);
  const commit = postgres ? postgresCommitter(db) : sqliteCommitter(db);
  const queues = Array.from({ length: postgres ? lanes : 1 }, () => ({ waiting: [] as Waiting[], draining: false }));

  async function commitOrSplit(batch: Waiting[]): Promise<void> {
    try {
      await commit(batch);
    } catch (err) {
      // Rolled back: each write runs again alone.
      if (batch.length === 1) return batch[0]!.reject(err);
      for (const write of batch) await commitOrSplit([write]);
    }
  }

  async function drain(queue: (typeof queues)[number]): Promise<void> {
    try {
      while (queue.waiting.length > 0) {
        const batch = queue.waiting.splice(0, maxBatch);
        if (postgres) batch.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        await commitOrSplit(batch);
      }
    } finally {
      queue.draining = false;
    }
  }

  const laneOf = (key: string) => {
    let hash = 0;
    for (let i = 0; i < key.length; i += 1) hash = (hash * 31 + key.charCodeAt(i)) | 0;
    return queues[Math.abs(hash) % queues.length]!;
  };

  return {
    run<T>(work: (trx: Db) => Promise<T>, key: string, alone = false): Promise<T> {
      if (postgres && alone) return db.transaction().execute(work);
      return new Promise<T>((resolve, reject) => {
        const queue = laneOf(key);
        queue.waiting.push({ work, key, resolve: resolve as (value: unknown) => void, reject });
        // The writes that arrive in this turn of the event loop join the first transaction.
        if (!queue.draining) {
          queue.draining = true;
          setImmediate(() => void drain(queue));
        }
      });
    },
  };
}
