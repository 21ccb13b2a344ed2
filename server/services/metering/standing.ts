import type { UsageRemaining } from '../../../contract/usage';
import { isPostgres, type Db } from '../../db';
import { withParameters } from '../../db/compiledQuery';
import { allowanceLeft, billingPeriod, governingSubscription, periodAllowance, type Period, type PlanSubscription } from './rules';

/** Where a user stands at a moment: the governing plan, its period, what that period allows and has used, and credits. */
export interface Standing {
  /** The governing plan's product name; null: the free allowance. */
  plan: string | null;
  period: Period;
  allowance: number | null;
  allowanceUsed: number;
  creditsUsed: number;
  sent80: boolean;
  sent100: boolean;
  credits: number;
}

type NamedSubscription = PlanSubscription & { name: string };

function metadataCredits(metadata: string | null): string | undefined {
  if (!metadata) return undefined;
  try {
    const value = (JSON.parse(metadata) as Record<string, unknown>).credits_amount;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the user's account for the rest of the transaction and answers their credit balance. On
 * PostgreSQL the balance row is locked (`for update`): every use, grant, deduction and refund of
 * one user queues here, on whichever instance it runs. SQLite runs one transaction at a time.
 */
export async function lockAccount(trx: Db, userId: string): Promise<number> {
  const read = () => {
    const query = trx.selectFrom('credit_balances').select('credits').where('user_id', '=', userId);
    return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  };
  let row = await read();
  if (!row) {
    await trx
      .insertInto('credit_balances')
      .values({ user_id: userId, credits: 0 })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    row = await read();
  }
  return Number(row?.credits ?? 0);
}

/** The user's credit balance, unlocked. */
export async function creditsOf(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('credit_balances').select('credits').where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.credits ?? 0);
}

/** The plan that governs a user's uses at a moment: its name (null: the free allowance), period and allowance. */
export interface PlanStanding {
  plan: string | null;
  period: Period;
  allowance: number | null;
}

const planQuery = (db: Db, userId: string) =>
  db
    .selectFrom('billing_subscriptions as s')
    .leftJoin('billing_products as p', 'p.id', 's.product_id')
    .select(['s.status', 's.current_period_start', 's.current_period_end', 's.product_name', 'p.metadata'])
    .where('s.user_id', '=', userId);

type PlanRow = Awaited<ReturnType<ReturnType<typeof planQuery>['execute']>>[number];

function planFrom(rows: PlanRow[], now: number, freeQueriesPerMonth: number): PlanStanding {
  const subscriptions: NamedSubscription[] = rows.map((r) => ({
    status: r.status,
    creditsAmount: metadataCredits(r.metadata),
    currentPeriodStart: r.current_period_start,
    currentPeriodEnd: r.current_period_end,
    name: r.product_name,
  }));
  const governing = governingSubscription(subscriptions) as NamedSubscription | null;
  return {
    plan: governing?.name ?? null,
    period: billingPeriod(governing, now),
    allowance: periodAllowance(governing, freeQueriesPerMonth),
  };
}

/** The plan governing the user's uses at `now`, from their subscriptions and the products they are for. */
export async function planOf(db: Db, userId: string, now: number, freeQueriesPerMonth: number): Promise<PlanStanding> {
  return planFrom(await planQuery(db, userId).execute(), now, freeQueriesPerMonth);
}

/** `planOf` compiled once (db/compiledQuery.ts): every use and hold reads it. */
export function createPlanStatement(db: Db) {
  const statement = planQuery(db, '').compile();
  return async (userId: string, now: number, freeQueriesPerMonth: number): Promise<PlanStanding> =>
    planFrom((await db.executeQuery(withParameters(statement, [userId]))).rows as PlanRow[], now, freeQueriesPerMonth);
}

/** Where the user stands at `now`; `credits` when the caller already read them (under its lock). */
export async function standingOf(db: Db, userId: string, now: number, freeQueriesPerMonth: number, credits?: number): Promise<Standing> {
  const { plan, period, allowance } = await planOf(db, userId, now, freeQueriesPerMonth);
  const [spent, balance] = await Promise.all([
    db
      .selectFrom('usage_periods')
      .select(['allowance_used', 'credits_used', 'notified_80_at', 'notified_100_at'])
      .where('user_id', '=', userId)
      .where('period_start', '=', period.start)
      .executeTakeFirst(),
    credits === undefined ? creditsOf(db, userId) : Promise.resolve(credits),
  ]);
  return {
    plan,
    period,
    allowance,
    allowanceUsed: Number(spent?.allowance_used ?? 0),
    creditsUsed: Number(spent?.credits_used ?? 0),
    sent80: spent?.notified_80_at != null,
    sent100: spent?.notified_100_at != null,
    credits: balance,
  };
}

export const remainingOf = (standing: Pick<Standing, 'allowance' | 'allowanceUsed' | 'credits' | 'period'>): UsageRemaining => ({
  allowance: allowanceLeft(standing.allowance, standing.allowanceUsed),
  credits: standing.credits,
  periodEnd: new Date(standing.period.end).toISOString(),
});
