import { isPostgres, type Db } from '../db';
import { withParameters } from '../db/compiledQuery';
import { notFound } from '../errors';

/**
 * The one lock order of a user's writes (issue 36): the user's row first, then whatever hangs off
 * it. An account's deletion takes the row for update (deletion.ts); the AI service's writes for a
 * user (uses, chat messages, threads) take it `for key share` before anything else, which never
 * waits on another write, only on a deletion. They used to take it last, through their foreign
 * keys, after the balance row or the chat session the deletion's cascade wanted too: PostgreSQL
 * then ended one of them with `deadlock detected` and a 500. SQLite runs one write transaction at
 * a time, so there the read only says whether the user is still there.
 */

/** A write for a user deleted meanwhile: what the API answers for a user it does not know. */
export const USER_GONE_MESSAGE = 'This user no longer exists.';

/** `hold(trx, userId)`: takes the user's row for the rest of `trx`; 404 when the user is gone. Compiled once. */
export function createUserHold(db: Db) {
  const query = db.selectFrom('users').select('id').where('id', '=', '');
  const statement = (isPostgres(db) ? query.forKeyShare() : query).compile();
  return async function hold(trx: Db, userId: string): Promise<void> {
    const [row] = (await trx.executeQuery(withParameters(statement, [userId]))).rows;
    if (!row) throw notFound(USER_GONE_MESSAGE);
  };
}

/** PostgreSQL's deadlock and serialization failures: the transaction was rolled back whole and may run again. */
export function isRetryableConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs `work` in a transaction, and once more if PostgreSQL rolled it back for a deadlock or a
 * serialization failure: the lock order makes them rare (two admins' deletions still lock each
 * other's rows), and the second run sees the winner's commit and decides on it.
 */
export async function transactionRetriedOnDeadlock<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (err) {
    if (!isRetryableConflict(err)) throw err;
    return db.transaction().execute(work);
  }
}
