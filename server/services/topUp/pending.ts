import type { Db } from '../../db';
import { accountTopUp, asUsers, type AccountTopUp, type TopUpTables } from './store';

/** How long a pending top-up is left to its own process before housekeeping buys it again. */
const RETRY_AFTER_MS = 5 * 60_000;
/** Stripe keeps an idempotency key for 24 hours: a top-up still pending after 23 is given up. */
const GIVE_UP_AFTER_MS = 23 * 3_600_000;

/**
 * Housekeeping of a user's (`top_ups`) or a studio's (`org_top_ups`) top-ups: those left pending
 * (a process stopped mid-purchase, Stripe unreachable) are bought again with their keys (the same
 * invoice and payment at Stripe), once each, whichever instance gets there; those older than
 * Stripe keeps keys for are given up. Answers how many this call bought again.
 */
export async function retryPending(
  db: Db,
  tables: TopUpTables,
  buy: (topUp: AccountTopUp, now: number) => Promise<void>,
  onError: (err: unknown) => void,
  now: number,
): Promise<number> {
  const rows = asUsers(tables).topUps;
  await db
    .updateTable(rows)
    .set({ status: 'failed', failure: 'Stripe could not be reached', updated_at: now })
    .where('status', '=', 'pending')
    .where('created_at', '<', now - GIVE_UP_AFTER_MS)
    .execute();
  const stale = await db
    .selectFrom(rows)
    .selectAll()
    .where('status', '=', 'pending')
    .where('updated_at', '<', now - RETRY_AFTER_MS)
    .execute();
  let retried = 0;
  for (const topUp of stale) {
    // Taken by moving its time on: another instance's housekeeping then leaves it.
    const taken = await db
      .updateTable(rows)
      .set({ updated_at: now })
      .where('id', '=', topUp.id)
      .where('status', '=', 'pending')
      .where('updated_at', '=', topUp.updated_at)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) continue;
    await buy(accountTopUp(tables, topUp), now).catch(onError);
    retried += 1;
  }
  return retried;
}
