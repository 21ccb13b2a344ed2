import type { QueryCreator } from 'kysely';
import { isPostgres, type Db } from '../../db';
import { withParameters } from '../../db/compiledQuery';
import type { Database } from '../../db/schema';
import type { WritePart, WriteStep } from './recording';
import { billingPeriod, governingSubscription, periodAllowance, type Period, type PlanSubscription } from './rules';

/**
 * A seat holder's uses charged to their organisation (issue 38, decision 042). Read before the
 * use's transaction: which seat the user holds and the plan it is on. Read again with the seat's
 * row taken: whether they still hold it, what it has left, and the member's limit; the pool's row
 * is taken after it only when the pool pays. Taking a seat back or removing its holder updates
 * that row, so it waits for a use in flight, and a member taken off a seat is never charged to
 * the organisation once that change has answered.
 */

/** The seat a user holds and its plan, as it stood when the use arrived. */
export interface SeatPlan {
  orgId: string;
  orgName: string;
  period: Period;
  /** Queries per seat and period; null: Unlimited; 0 with no live plan (the pool may still pay). */
  allowancePerSeat: number | null;
}

/** What a seat holder's use reads with its seat taken (and the pool, when it pays). */
export interface SeatAccount {
  seatId: string;
  /** The seat's use this period, whoever held it. */
  seatUsed: number;
  monthlyLimit: number | null;
  pool: number;
  highWater: number;
  lowNotified: boolean;
  poolUsed: number;
  sent80: boolean;
  sent100: boolean;
}

function creditsAmountOf(metadata: string | null): string | undefined {
  try {
    const value = (JSON.parse(metadata ?? '{}') as Record<string, unknown>).credits_amount;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An organisation's subscription as the plan reads use: none on a row of an outer join that found none. */
interface SubscriptionRow {
  status: string | null;
  current_period_start: number | null;
  current_period_end: number | null;
  metadata: string | null;
}

/** The plan of an organisation's seats at `now` from its subscriptions: the live one's, else none (allowance 0, UTC month). */
function orgPlanFrom(rows: SubscriptionRow[], now: number): { period: Period; allowancePerSeat: number | null } {
  const subscriptions: PlanSubscription[] = rows.flatMap((row) =>
    row.status === null
      ? []
      : [
          {
            status: row.status,
            creditsAmount: creditsAmountOf(row.metadata),
            currentPeriodStart: row.current_period_start === null ? null : Number(row.current_period_start),
            currentPeriodEnd: row.current_period_end === null ? null : Number(row.current_period_end),
          },
        ],
  );
  const governing = governingSubscription(subscriptions);
  return { period: billingPeriod(governing, now), allowancePerSeat: governing ? periodAllowance(governing, 0) : 0 };
}

/** The plan an organisation's seats are on at `now` and its period: its live subscription's, else none (allowance 0, UTC month). */
export async function orgPlanOf(db: Db, orgId: string, now: number): Promise<{ period: Period; allowancePerSeat: number | null }> {
  const rows = await db
    .selectFrom('org_subscriptions as s')
    .leftJoin('billing_products as p', 'p.id', 's.product_id')
    .select(['s.status', 's.current_period_start', 's.current_period_end', 'p.metadata'])
    .where('s.org_id', '=', orgId)
    .execute();
  return orgPlanFrom(rows, now);
}

/**
 * The seat `userId` holds (the longest held, if several organisations gave one), its organisation
 * and the organisation's subscriptions, in one query: a row per subscription, one with no
 * subscription's columns if it has none, no row if the user holds no seat.
 */
const seatPlanQuery = (db: Db, userId: string) =>
  db
    .selectFrom((eb) =>
      eb
        .selectFrom('org_seats')
        .select('org_id')
        .where('user_id', '=', userId)
        .orderBy('assigned_at')
        .orderBy('org_id')
        .limit(1)
        .as('seat'),
    )
    .innerJoin('orgs as o', 'o.id', 'seat.org_id')
    .leftJoin('org_subscriptions as s', 's.org_id', 'seat.org_id')
    .leftJoin('billing_products as p', 'p.id', 's.product_id')
    .select(['seat.org_id', 'o.name', 's.status', 's.current_period_start', 's.current_period_end', 'p.metadata']);

function seatPlanFrom(rows: (SubscriptionRow & { org_id: string; name: string })[], now: number): SeatPlan | null {
  const [seat] = rows;
  return seat ? { orgId: seat.org_id, orgName: seat.name, ...orgPlanFrom(rows, now) } : null;
}

/** The seat `userId` holds (the longest held, if several organisations gave one) and its plan; null if none. */
export async function seatPlanOf(db: Db, userId: string, now: number): Promise<SeatPlan | null> {
  return seatPlanFrom(await seatPlanQuery(db, userId).execute(), now);
}

const poolColumns = ['credits', 'high_water', 'low_notified_at'] as const;

/** The organisation's pool as a use reads it. */
export interface Pool {
  credits: number;
  highWater: number;
  lowNotified: boolean;
}

type PoolRow = { credits: number | null; high_water: number | null; low_notified_at: number | null };
export const poolOf = (row: PoolRow | undefined): Pool => ({
  credits: Number(row?.credits ?? 0),
  highWater: Number(row?.high_water ?? 0),
  lowNotified: row?.low_notified_at != null,
});

/**
 * Takes the organisation's pool row for the rest of the transaction (PostgreSQL `for update`;
 * SQLite runs one write at a time) and answers its credits; the row is made if missing.
 */
export async function lockPool(trx: Db, orgId: string): Promise<Pool> {
  const read = () => {
    const query = trx.selectFrom('org_pools').select(poolColumns).where('org_id', '=', orgId);
    return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  };
  let row = await read();
  if (!row) {
    await trx
      .insertInto('org_pools')
      .values({ org_id: orgId, credits: 0, high_water: 0, low_notified_at: null })
      .onConflict((oc) => oc.column('org_id').doNothing())
      .execute();
    row = await read();
  }
  return poolOf(row);
}

/** The seat `userId` holds in `orgId`, its member's limit and what the organisation paid for them in the period. */
const seatQuery = (db: Db, orgId: string, userId: string, periodStart: number) =>
  db
    .selectFrom('org_seats as s')
    .innerJoin('org_members as m', (join) => join.onRef('m.org_id', '=', 's.org_id').onRef('m.user_id', '=', 's.user_id'))
    .leftJoin('org_member_periods as mp', (join) =>
      join.onRef('mp.org_id', '=', 's.org_id').onRef('mp.user_id', '=', 's.user_id').on('mp.period_start', '=', periodStart),
    )
    .select(['s.id', 's.period_start', 's.allowance_used', 'm.monthly_limit', 'mp.pool_used', 'mp.notified_80_at', 'mp.notified_100_at'])
    .where('s.org_id', '=', orgId)
    .where('s.user_id', '=', userId);

/** The seat a member holds, their limit and what the organisation paid for them in the period. */
export type SeatRow = {
  id: string;
  period_start: number;
  allowance_used: number;
  monthly_limit: number | null;
  pool_used: number | null;
  notified_80_at: number | null;
  notified_100_at: number | null;
};

const seatAccountOf = (row: SeatRow, periodStart: number, pool: Pool): SeatAccount => ({
  seatId: row.id,
  seatUsed: Number(row.period_start) === periodStart ? Number(row.allowance_used) : 0,
  monthlyLimit: row.monthly_limit === null ? null : Number(row.monthly_limit),
  pool: pool.credits,
  highWater: pool.highWater,
  lowNotified: pool.lowNotified,
  poolUsed: Number(row.pool_used ?? 0),
  sent80: row.notified_80_at != null,
  sent100: row.notified_100_at != null,
});

/** The seat `userId` holds now in `orgId` and what it, the member and the pool have used, unlocked (for a screen); null if none. */
export async function readSeatAccount(db: Db, orgId: string, userId: string, periodStart: number): Promise<SeatAccount | null> {
  const [pool, row] = await Promise.all([
    db.selectFrom('org_pools').select(poolColumns).where('org_id', '=', orgId).executeTakeFirst(),
    seatQuery(db, orgId, userId, periodStart).executeTakeFirst(),
  ]);
  return row ? seatAccountOf(row, periodStart, poolOf(pool)) : null;
}

/** What the organisation paid toward one use of a seat holder, as recording writes it. */
export interface SeatUseWritten {
  orgId: string;
  seatId: string;
  periodStart: number;
  seat: number;
  pool: number;
  notified80At: number | null;
  notified100At: number | null;
  poolLowAt: number | null;
}

// The organisation's writes of a use (recording.ts runs them with the user's: one statement on
// PostgreSQL, one each on SQLite), each compiled once with placeholder values.

/** A seat's count belongs to one period: a use in a new period starts it again from this use. */
const addToSeat: WritePart = {
  name: 'seat',
  build: (qc: QueryCreator<Database>) =>
    qc
      .updateTable('org_seats')
      .set((eb) => ({
        allowance_used: eb
          .case()
          .when('period_start', '=', 0)
          .then(eb('allowance_used', '+', 0))
          .else(eb.val(0))
          .end(),
        period_start: 0,
      }))
      .where('id', '=', ''),
};
const addToMemberPeriod: WritePart = {
  name: 'member_period',
  build: (qc: QueryCreator<Database>) =>
    qc
      .insertInto('org_member_periods')
      .values({
        org_id: '',
        user_id: '',
        period_start: 0,
        seat_used: 0,
        pool_used: 0,
        last_use_at: 0,
        notified_80_at: 0,
        notified_100_at: 0,
      })
      .onConflict((oc) =>
        oc.columns(['org_id', 'period_start', 'user_id']).doUpdateSet((eb) => ({
          seat_used: eb('org_member_periods.seat_used', '+', eb.ref('excluded.seat_used')),
          pool_used: eb('org_member_periods.pool_used', '+', eb.ref('excluded.pool_used')),
          last_use_at: eb.ref('excluded.last_use_at'),
          notified_80_at: eb.fn.coalesce('org_member_periods.notified_80_at', 'excluded.notified_80_at'),
          notified_100_at: eb.fn.coalesce('org_member_periods.notified_100_at', 'excluded.notified_100_at'),
        })),
      ),
};
/** The pool pays, or is told it is low: its notice time is kept once set. */
const takeFromPool: WritePart = {
  name: 'pool',
  build: (qc: QueryCreator<Database>) =>
    qc
      .updateTable('org_pools')
      .set((eb) => ({ credits: eb('credits', '-', 0), low_notified_at: eb.fn.coalesce(eb.val<number | null>(0), 'low_notified_at') }))
      .where('org_id', '=', ''),
};
const addToOrgDay: WritePart = {
  name: 'org_day',
  build: (qc: QueryCreator<Database>) =>
    qc
      .insertInto('org_usage_daily')
      .values({ org_id: '', day: 0, user_id: '', project_id: '', engine_version: '', uses: 1, units: 0 })
      .onConflict((oc) =>
        oc.columns(['org_id', 'day', 'user_id', 'project_id', 'engine_version']).doUpdateSet((eb) => ({
          uses: eb('org_usage_daily.uses', '+', eb.ref('excluded.uses')),
          units: eb('org_usage_daily.units', '+', eb.ref('excluded.units')),
        })),
      ),
};

/**
 * What the organisation's paying for a use writes, with each statement's values in its order: the
 * seat's period when the seat paid, the member's period, the pool when it paid or is told it is
 * low, and the day's roll-up.
 */
export function seatWriteSteps(
  use: { userId: string; units: number; day: number; projectId: string | null; engineVersion: string | null; at: number },
  org: SeatUseWritten,
): WriteStep[] {
  const { orgId, periodStart } = org;
  const steps: WriteStep[] = [];
  if (org.seat > 0) steps.push([addToSeat, [periodStart, org.seat, org.seat, periodStart, org.seatId]]);
  steps.push([addToMemberPeriod, [orgId, use.userId, periodStart, org.seat, org.pool, use.at, org.notified80At, org.notified100At]]);
  if (org.pool > 0 || org.poolLowAt !== null) steps.push([takeFromPool, [org.pool, org.poolLowAt, orgId]]);
  steps.push([addToOrgDay, [orgId, use.day, use.userId, use.projectId ?? '', use.engineVersion ?? '', 1, use.units]]);
  return steps;
}

/**
 * The seat reads of `POST /api/ingest/usage`, compiled once (db/compiledQuery.ts); the pool is
 * taken with the user's account (recording.ts).
 */
export function createSeatStatements(db: Db) {
  const plan = seatPlanQuery(db, '').compile();
  const seat = seatQuery(db, '', '', 0).compile();

  return {
    /** seatPlanOf in one compiled statement. */
    async planOf(userId: string, now: number): Promise<SeatPlan | null> {
      return seatPlanFrom((await db.executeQuery(withParameters(plan, [userId, 1]))).rows, now);
    },

    /**
     * The seat `userId` holds now in `orgId` and what it, the member and the pool have used, once
     * the pool is taken (recording.ts lockAndRead, which read the seat too on SQLite); null if they
     * hold none now. On PostgreSQL the seat is read by the statement after the one that took the
     * pool: a statement that waited for the lock would see the seat as it was before the wait.
     */
    async seatAt(trx: Db, orgId: string, userId: string, periodStart: number, taken: { pool: Pool; seat?: SeatRow | null }) {
      const row =
        taken.seat !== undefined ? taken.seat : (await trx.executeQuery(withParameters(seat, [periodStart, orgId, userId]))).rows[0];
      return row ? seatAccountOf(row, periodStart, taken.pool) : null;
    },
  };
}

/** Takes every seat row of the organisation (PostgreSQL), as its deletion must before its pool. */
export async function lockSeats(trx: Db, orgId: string): Promise<void> {
  if (isPostgres(trx)) await trx.selectFrom('org_seats').select('id').where('org_id', '=', orgId).forUpdate().execute();
}

/**
 * Takes the member's seat back, if they hold one: the seat keeps this period's use for its next
 * holder. Its row is what a use of theirs takes, so the update waits for one in flight, and none
 * after it is charged to the organisation. The caller holds the organisation's row.
 */
export async function releaseSeat(trx: Db, orgId: string, userId: string): Promise<boolean> {
  const result = await trx
    .updateTable('org_seats')
    .set({ user_id: null, assigned_at: null })
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
