import { isPostgres, type Db } from '../../db';
import { billingPeriod, governingSubscription, periodAllowance, type Period, type PlanSubscription } from './rules';

/**
 * A seat holder's uses charged to their organisation (issue 38, decision 042). Read before the
 * use's transaction: which seat the user holds and the plan it is on. Read again under the
 * organisation's pool lock: whether they still hold it, what it and the pool have left, and the
 * member's limit. Every seat change and removal takes that lock too (orgSeats.ts), so a member
 * taken off a seat is never charged to the organisation once that change has answered.
 */

/** The seat a user holds and its plan, as it stood when the use arrived. */
export interface SeatPlan {
  orgId: string;
  orgName: string;
  period: Period;
  /** Queries per seat and period; null: Unlimited; 0 with no live plan (the pool may still pay). */
  allowancePerSeat: number | null;
}

/** What a seat holder's use reads under the pool's lock. */
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

/** The plan an organisation's seats are on at `now` and its period: its live subscription's, else none (allowance 0, UTC month). */
export async function orgPlanOf(db: Db, orgId: string, now: number): Promise<{ period: Period; allowancePerSeat: number | null }> {
  const rows = await db
    .selectFrom('org_subscriptions as s')
    .leftJoin('billing_products as p', 'p.id', 's.product_id')
    .select(['s.status', 's.current_period_start', 's.current_period_end', 'p.metadata'])
    .where('s.org_id', '=', orgId)
    .execute();
  const subscriptions: PlanSubscription[] = rows.map((row) => ({
    status: row.status,
    creditsAmount: creditsAmountOf(row.metadata),
    currentPeriodStart: row.current_period_start === null ? null : Number(row.current_period_start),
    currentPeriodEnd: row.current_period_end === null ? null : Number(row.current_period_end),
  }));
  const governing = governingSubscription(subscriptions);
  return { period: billingPeriod(governing, now), allowancePerSeat: governing ? periodAllowance(governing, 0) : 0 };
}

/** The seat `userId` holds (the longest held, if several organisations gave one) and its plan; null if none. */
export async function seatPlanOf(db: Db, userId: string, now: number): Promise<SeatPlan | null> {
  const seat = await db
    .selectFrom('org_seats as s')
    .innerJoin('orgs as o', 'o.id', 's.org_id')
    .select(['s.org_id', 'o.name'])
    .where('s.user_id', '=', userId)
    .orderBy('s.assigned_at')
    .orderBy('s.org_id')
    .limit(1)
    .executeTakeFirst();
  if (!seat) return null;
  const plan = await orgPlanOf(db, seat.org_id, now);
  return { orgId: seat.org_id, orgName: seat.name, ...plan };
}

/**
 * Takes the organisation's pool row for the rest of the transaction (PostgreSQL `for update`;
 * SQLite runs one write at a time) and answers its credits; the row is made if missing.
 */
export async function lockPool(trx: Db, orgId: string): Promise<{ credits: number; highWater: number; lowNotified: boolean }> {
  const read = () => {
    const query = trx.selectFrom('org_pools').select(['credits', 'high_water', 'low_notified_at']).where('org_id', '=', orgId);
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
  return { credits: Number(row?.credits ?? 0), highWater: Number(row?.high_water ?? 0), lowNotified: row?.low_notified_at != null };
}

/** The pool's credits, unlocked. */
async function readPool(db: Db, orgId: string) {
  const row = await db
    .selectFrom('org_pools')
    .select(['credits', 'high_water', 'low_notified_at'])
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return { credits: Number(row?.credits ?? 0), highWater: Number(row?.high_water ?? 0), lowNotified: row?.low_notified_at != null };
}

/**
 * The seat `userId` holds now in `orgId` and what it, the member and the pool have used; null if
 * they hold none now. `lock`: under the pool's lock, for a use (else a plain read, for a screen).
 */
export async function readSeatAccount(
  trx: Db,
  orgId: string,
  userId: string,
  periodStart: number,
  { lock }: { lock: boolean },
): Promise<SeatAccount | null> {
  const pool = lock ? await lockPool(trx, orgId) : await readPool(trx, orgId);
  const row = await trx
    .selectFrom('org_seats as s')
    .innerJoin('org_members as m', (join) => join.onRef('m.org_id', '=', 's.org_id').onRef('m.user_id', '=', 's.user_id'))
    .leftJoin('org_member_periods as mp', (join) =>
      join.onRef('mp.org_id', '=', 's.org_id').onRef('mp.user_id', '=', 's.user_id').on('mp.period_start', '=', periodStart),
    )
    .select(['s.id', 's.period_start', 's.allowance_used', 'm.monthly_limit', 'mp.pool_used', 'mp.notified_80_at', 'mp.notified_100_at'])
    .where('s.org_id', '=', orgId)
    .where('s.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    seatId: row.id,
    seatUsed: Number(row.period_start) === periodStart ? Number(row.allowance_used) : 0,
    monthlyLimit: row.monthly_limit === null ? null : Number(row.monthly_limit),
    pool: pool.credits,
    highWater: pool.highWater,
    lowNotified: pool.lowNotified,
    poolUsed: Number(row.pool_used ?? 0),
    sent80: row.notified_80_at != null,
    sent100: row.notified_100_at != null,
  };
}

/** One seat holder's use as the organisation records it. */
export interface SeatUseWritten {
  orgId: string;
  userId: string;
  seatId: string;
  periodStart: number;
  seat: number;
  pool: number;
  units: number;
  day: number;
  projectId: string | null;
  engineVersion: string | null;
  at: number;
  notified80At: number | null;
  notified100At: number | null;
  poolLowAt: number | null;
}

/** Writes what the organisation paid: the seat's period, the member's period, the pool, the day's roll-up. */
export async function writeSeatUse(trx: Db, use: SeatUseWritten): Promise<void> {
  const { orgId, userId, periodStart } = use;
  if (use.seat > 0) {
    // A seat's count belongs to one period: a use in a new period starts it again from this use.
    await trx
      .updateTable('org_seats')
      .set((eb) => ({
        allowance_used: eb
          .case()
          .when('period_start', '=', periodStart)
          .then(eb('allowance_used', '+', use.seat))
          .else(use.seat)
          .end(),
        period_start: periodStart,
      }))
      .where('id', '=', use.seatId)
      .execute();
  }
  await trx
    .insertInto('org_member_periods')
    .values({
      org_id: orgId,
      user_id: userId,
      period_start: periodStart,
      seat_used: use.seat,
      pool_used: use.pool,
      last_use_at: use.at,
      notified_80_at: use.notified80At,
      notified_100_at: use.notified100At,
    })
    .onConflict((oc) =>
      oc.columns(['org_id', 'period_start', 'user_id']).doUpdateSet((eb) => ({
        seat_used: eb('org_member_periods.seat_used', '+', eb.ref('excluded.seat_used')),
        pool_used: eb('org_member_periods.pool_used', '+', eb.ref('excluded.pool_used')),
        last_use_at: eb.ref('excluded.last_use_at'),
        notified_80_at: eb.fn.coalesce('org_member_periods.notified_80_at', 'excluded.notified_80_at'),
        notified_100_at: eb.fn.coalesce('org_member_periods.notified_100_at', 'excluded.notified_100_at'),
      })),
    )
    .execute();
  if (use.pool > 0 || use.poolLowAt !== null) {
    await trx
      .updateTable('org_pools')
      .set((eb) => ({
        credits: eb('credits', '-', use.pool),
        low_notified_at: use.poolLowAt === null ? eb.ref('low_notified_at') : use.poolLowAt,
      }))
      .where('org_id', '=', orgId)
      .execute();
  }
  await trx
    .insertInto('org_usage_daily')
    .values({
      org_id: orgId,
      day: use.day,
      user_id: userId,
      project_id: use.projectId ?? '',
      engine_version: use.engineVersion ?? '',
      uses: 1,
      units: use.units,
    })
    .onConflict((oc) =>
      oc.columns(['org_id', 'day', 'user_id', 'project_id', 'engine_version']).doUpdateSet((eb) => ({
        uses: eb('org_usage_daily.uses', '+', eb.ref('excluded.uses')),
        units: eb('org_usage_daily.units', '+', eb.ref('excluded.units')),
      })),
    )
    .execute();
}

/**
 * Takes the member's seat back, if they hold one: the seat keeps this period's use for its next
 * holder. The caller holds the organisation's and the pool's locks (removal, un-seating).
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
