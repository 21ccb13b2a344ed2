import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { USAGE_ERRORS, type HoldSettled, type UsageRemaining } from '../../../contract/usage';
import type { Db } from '../../db';
import type { GroupCommit } from '../../db/groupCommit';
import { AppError, badRequest, conflict } from '../../errors';
import { createUserHold } from '../userLock';
import { lockPool } from './orgSeat';
import { settlement, type Paid } from './rules';
import { lockAccount } from './standing';

const DAY_MS = 86_400_000;
/** Expired holds released per transaction batch by housekeeping. */
const RELEASE_BATCH = 100;
/** A hold housekeeping released: its settlement fingerprint, so a late settle is told it expired. */
const RELEASED = 'released';

const holdNotFound = () => new AppError(404, USAGE_ERRORS.holdNotFound, 'No open or settled hold has this holdId');

/** The SHA-256 of what a settlement said: the same again answers the first answer, another is 409. */
const settleFingerprint = (units: number) =>
  createHash('sha256')
    .update(JSON.stringify(['settle', units]))
    .digest('hex');

export interface HoldDeps {
  db: Db;
  /** The uses' group commit (decision 044): a settlement shares their transactions. */
  commits: GroupCommit;
  /** What the user has left now, read inside `trx` (index.ts): the settlement's answer says it. */
  remainingIn: (trx: Db, userId: string, now: number) => Promise<UsageRemaining>;
}

/**
 * Settling and releasing holds (issue 39, decision 043). A hold is a use charged for what it held
 * (index.ts `take`); settling it keeps the units the query took, in the order they were taken, and
 * gives the rest back to where they came from: the credits (a ledger entry), the period's
 * allowance, the studio's pool and the seat. Under the same locks, in the same order, as a use:
 * the user's row, their balance, the seat, the pool.
 */
export function createHoldService({ db, commits, remainingIn }: HoldDeps) {
  const holdUser = createUserHold(db);

  /** Gives `returned` back, from the use `row` whose hold ends with `units` kept. */
  async function giveBack(trx: Db, row: HoldRow, returned: Paid, units: number, now: number): Promise<void> {
    const back = row.units - units;
    const dropsUse = units === 0 ? 1 : 0;
    if (returned.allowance > 0 || returned.credits > 0)
      await trx
        .updateTable('usage_periods')
        .set((eb) => ({
          allowance_used: eb('allowance_used', '-', returned.allowance),
          credits_used: eb('credits_used', '-', returned.credits),
        }))
        .where('user_id', '=', row.user_id)
        .where('period_start', '=', row.period_start)
        .execute();
    if (returned.credits > 0)
      await trx
        .insertInto('credit_ledger')
        .values({
          id: randomUUID(),
          user_id: row.user_id,
          amount: returned.credits,
          reason: 'Held queries given back',
          source: `hold:${row.id}`,
          created_at: now,
        })
        .execute();
    const day = Math.floor(Number(row.occurred_at) / DAY_MS);
    if (back > 0)
      await trx
        .updateTable('usage_daily')
        .set((eb) => ({ units: eb('units', '-', back), uses: eb('uses', '-', dropsUse) }))
        .where('user_id', '=', row.user_id)
        .where('day', '=', day)
        .where('project_id', '=', row.project_id ?? '')
        .where('engine_version', '=', row.engine_version ?? '')
        .execute();
    const orgId = row.org_id;
    if (orgId === null || row.org_period_start === null) return;
    const orgPeriod = Number(row.org_period_start);
    if (returned.seat > 0 && row.seat_id !== null)
      // The seat may have been handed on meanwhile: it keeps its period's use, so it is the seat's to get back.
      await trx
        .updateTable('org_seats')
        .set((eb) => ({ allowance_used: eb('allowance_used', '-', returned.seat) }))
        .where('id', '=', row.seat_id)
        .where('period_start', '=', orgPeriod)
        .where('allowance_used', '>=', returned.seat)
        .execute();
    if (returned.seat > 0 || returned.pool > 0)
      await trx
        .updateTable('org_member_periods')
        .set((eb) => ({ seat_used: eb('seat_used', '-', returned.seat), pool_used: eb('pool_used', '-', returned.pool) }))
        .where('org_id', '=', orgId)
        .where('user_id', '=', row.user_id)
        .where('period_start', '=', orgPeriod)
        .execute();
    if (returned.pool > 0) {
      await lockPool(trx, orgId);
      await trx
        .updateTable('org_pools')
        .set((eb) => ({ credits: eb('credits', '+', returned.pool) }))
        .where('org_id', '=', orgId)
        .execute();
    }
    if (back > 0)
      await trx
        .updateTable('org_usage_daily')
        .set((eb) => ({ units: eb('units', '-', back), uses: eb('uses', '-', dropsUse) }))
        .where('org_id', '=', orgId)
        .where('day', '=', day)
        .where('user_id', '=', row.user_id)
        .where('project_id', '=', row.project_id ?? '')
        .where('engine_version', '=', row.engine_version ?? '')
        .execute();
  }

  const holdRow = (trx: Db, holdId: string) =>
    trx
      .selectFrom('usage_events')
      .select([
        'id',
        'user_id',
        'request_id',
        'units',
        'held_units',
        'hold_expires_at',
        'from_allowance',
        'from_credits',
        'from_seat',
        'from_pool',
        'period_start',
        'occurred_at',
        'project_id',
        'engine_version',
        'org_id',
        'org_period_start',
        'seat_id',
        'settle_fingerprint',
        'settle_answer',
      ])
      .where('id', '=', holdId)
      .executeTakeFirst();
  type HoldRow = NonNullable<Awaited<ReturnType<typeof holdRow>>>;

  /**
   * Settles (or, `releasing`, releases) one hold inside `trx`. Answers the settlement, or null when
   * a release finds the hold settled meanwhile or not yet expired.
   */
  async function settleIn(
    trx: Db,
    holdId: string,
    callerUserId: string | null,
    units: number,
    now: number,
    releasing: boolean,
  ): Promise<HoldSettled | null> {
    const owner = await trx.selectFrom('usage_events').select('user_id').where('id', '=', holdId).executeTakeFirst();
    // A license token sees only its own user's holds: another's is as unknown as none.
    if (!owner || (callerUserId !== null && owner.user_id !== callerUserId)) throw holdNotFound();
    await holdUser(trx, owner.user_id);
    await lockAccount(trx, owner.user_id);
    const row = await holdRow(trx, holdId);
    if (!row || row.held_units === null) throw holdNotFound();
    const fingerprint = settleFingerprint(units);
    if (row.hold_expires_at === null) {
      if (releasing) return null;
      if (row.settle_fingerprint === fingerprint && row.settle_answer !== null) return JSON.parse(row.settle_answer) as HoldSettled;
      if (row.settle_fingerprint === RELEASED)
        throw conflict(
          USAGE_ERRORS.holdExpired,
          `This hold expired and its ${row.held_units} units were given back. Record what the query used as a new use.`,
        );
      throw conflict(USAGE_ERRORS.holdSettled, `This hold was already settled for ${row.units} units`);
    }
    if (releasing && Number(row.hold_expires_at) > now) return null;
    if (units > row.units) throw badRequest(USAGE_ERRORS.unitsOverHold, `units must be at most the ${row.units} held`);

    const held: Paid = {
      seat: Number(row.from_seat),
      pool: Number(row.from_pool),
      allowance: Number(row.from_allowance),
      credits: Number(row.from_credits),
    };
    const { kept, returned } = settlement(held, units);
    await giveBack(trx, row, returned, units, now);
    const answer: HoldSettled = {
      holdId,
      requestId: row.request_id,
      units,
      returned: row.units - units,
      charged: {
        allowance: kept.allowance,
        credits: kept.credits,
        ...(row.org_id !== null && kept.seat + kept.pool > 0 ? { org: { orgId: row.org_id, seat: kept.seat, pool: kept.pool } } : {}),
      },
      remaining: await remainingIn(trx, row.user_id, now),
    };
    await trx
      .updateTable('usage_events')
      .set({
        units,
        from_seat: kept.seat,
        from_pool: kept.pool,
        from_allowance: kept.allowance,
        from_credits: kept.credits,
        hold_expires_at: null,
        settled_at: now,
        settle_fingerprint: releasing ? RELEASED : fingerprint,
        settle_answer: JSON.stringify(answer),
      })
      .where('id', '=', holdId)
      .execute();
    return answer;
  }

  return {
    /**
     * `POST /api/ingest/usage/holds/{holdId}/settle`: charges the units the query took (0 to what
     * was held) and gives the rest back. The same settlement again answers the first answer; another
     * is 409, as is a settlement after the hold expired. A license token settles its user's only.
     */
    async settle(holdId: string, callerUserId: string | null, units: number, now = Date.now()): Promise<HoldSettled> {
      // Alone on PostgreSQL: a settlement may give back to a studio's seat and pool, outside the users' order.
      const settled = await commits.run((trx) => settleIn(trx, holdId, callerUserId, units, now, false), holdId, true);
      if (!settled) throw holdNotFound();
      return settled;
    },

    /**
     * Housekeeping: gives back every hold not settled by its expiry, each in its own transaction,
     * once whichever instance gets there first (the hold is read again under its user's lock).
     * Answers how many this call released.
     */
    async releaseExpired(now = Date.now()): Promise<number> {
      let released = 0;
      for (;;) {
        const due = await db
          .selectFrom('usage_events')
          .select('id')
          .where('hold_expires_at', 'is not', null)
          .where('hold_expires_at', '<=', now)
          .orderBy('hold_expires_at')
          .limit(RELEASE_BATCH)
          .execute();
        let batch = 0;
        for (const { id } of due) {
          // A hold whose user was deleted meanwhile went with them: nothing to give back.
          const done = await db
            .transaction()
            .execute((trx) => settleIn(trx, id, null, 0, now, true))
            .catch(() => null);
          if (done) batch += 1;
        }
        released += batch;
        if (due.length < RELEASE_BATCH || batch === 0) return released;
      }
    },

    /** The units the user's open holds keep: their queries in progress. */
    async heldBy(userId: string): Promise<number> {
      const row = await db
        .selectFrom('usage_events')
        .select(sql<number>`coalesce(sum(units), 0)`.as('held'))
        .where('user_id', '=', userId)
        .where('hold_expires_at', 'is not', null)
        .executeTakeFirst();
      return Number(row?.held ?? 0);
    },
  };
}
