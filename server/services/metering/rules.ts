import { queriesOf } from '../../../contract/usage';

/**
 * The metering rules (issue 26, decision 027), free of I/O: which subscription's plan sets the
 * allowance, the billing period a use falls in, and how a use is paid for. Times are milliseconds.
 */

/** Statuses that keep their plan's allowance; any other leaves the free allowance only. */
const KEEPS_ALLOWANCE = new Set(['active', 'trialing', 'past_due']);

export interface PlanSubscription {
  status: string;
  /** The plan's `credits_amount`: queries per period, or Unlimited. */
  creditsAmount: string | undefined;
  /** Stripe's current period, in seconds, when the mirror knows it. */
  currentPeriodStart: number | null;
  currentPeriodEnd: number | null;
}

export interface Period {
  start: number;
  end: number;
}

export const keepsAllowance = (status: string): boolean => KEEPS_ALLOWANCE.has(status);

/** A plan's allowance per period: null is Unlimited. */
export const planAllowance = (subscription: PlanSubscription): number | null => queriesOf(subscription.creditsAmount);

/** Of several subscriptions, the one whose allowance is largest (Unlimited above all); null if none keeps one. */
export function governingSubscription(subscriptions: PlanSubscription[]): PlanSubscription | null {
  let best: PlanSubscription | null = null;
  for (const subscription of subscriptions.filter((s) => keepsAllowance(s.status))) {
    if (best === null) best = subscription;
    const [mine, theirs] = [planAllowance(subscription), planAllowance(best)];
    if (theirs !== null && (mine === null || mine > theirs)) best = subscription;
  }
  return best;
}

/** The UTC calendar month holding `now`. */
export function utcMonth(now: number): Period {
  const at = new Date(now);
  return { start: Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1), end: Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) };
}

/** The period a use at `now` falls in: the subscription's current period while `now` is in it, else the UTC month. */
export function billingPeriod(subscription: PlanSubscription | null, now: number): Period {
  const start = subscription?.currentPeriodStart;
  const end = subscription?.currentPeriodEnd;
  if (start != null && end != null && start * 1000 <= now && now < end * 1000) return { start: start * 1000, end: end * 1000 };
  return utcMonth(now);
}

/** The queries a period allows: the governing plan's, else the free allowance (FREE_QUERIES_PER_MONTH). */
export function periodAllowance(subscription: PlanSubscription | null, freeQueriesPerMonth: number): number | null {
  return subscription ? planAllowance(subscription) : freeQueriesPerMonth;
}

/** What is left to spend: of the period's allowance (null: Unlimited) and of pack credits, which never expire. */
export interface Balance {
  allowanceLeft: number | null;
  credits: number;
}

/** How a use is paid for: from the allowance first, then from credits. */
export interface Charge {
  allowance: number;
  credits: number;
}

/** The charge for `units`, or null when the balance cannot pay for all of them (nothing is charged then). */
export function charge(units: number, balance: Balance): Charge | null {
  if (balance.allowanceLeft === null) return { allowance: units, credits: 0 };
  const allowance = Math.min(units, Math.max(0, balance.allowanceLeft));
  const credits = units - allowance;
  return credits <= Math.max(0, balance.credits) ? { allowance, credits } : null;
}

/** The balance once `paid` is spent. */
export function spend(balance: Balance, paid: Charge): Balance {
  return {
    allowanceLeft: balance.allowanceLeft === null ? null : balance.allowanceLeft - paid.allowance,
    credits: balance.credits - paid.credits,
  };
}

/** What is left of a period's allowance once `used` is spent: never below 0; null stays Unlimited. */
export const allowanceLeft = (allowance: number | null, used: number): number | null =>
  allowance === null ? null : Math.max(0, allowance - used);

/** A notice a use may set off: 80 % and 100 % of the allowance (once per period each), and pack credits running out. */
export type UsageNotice = 'allowance_80' | 'allowance_100' | 'credits_exhausted';

export interface NoticeState {
  /** The period's allowance; null (Unlimited) and 0 (nothing to use up) set off no allowance notice. */
  allowance: number | null;
  usedBefore: number;
  usedAfter: number;
  /** Whether this period's 80 % and 100 % notices already went out. */
  sent80: boolean;
  sent100: boolean;
  creditsBefore: number;
  creditsAfter: number;
}

/**
 * The notices a use sets off. Crossing 80 % and 100 % in one use sends only the 100 % one (the
 * 80 % one is then marked sent too: it would say less). Credits run out when a use takes the last.
 */
export function noticesDue(state: NoticeState): UsageNotice[] {
  const due: UsageNotice[] = [];
  const { allowance } = state;
  if (allowance !== null && allowance > 0) {
    const reached = (share: number) => state.usedAfter * 100 >= allowance * share && state.usedBefore * 100 < allowance * share;
    if (!state.sent100 && reached(100)) due.push('allowance_100');
    else if (!state.sent80 && !state.sent100 && reached(80)) due.push('allowance_80');
  }
  if (state.creditsBefore > 0 && state.creditsAfter <= 0) due.push('credits_exhausted');
  return due;
}

const DAY_MS = 86_400_000;

/** How far after its arrival a use may say it happened and still count as arriving then: clocks differ. */
export const FUTURE_LEEWAY_MS = DAY_MS;

/** When a use happened, for the charts, or why its `occurredAt` is refused (issue 36). */
export type UseTime = { at: number } | { refused: 'too_old' | 'in_future' };

/**
 * Places a use in time: its `occurredAt` (ms), or its arrival without one. A time up to a day after
 * the arrival is the arrival (another clock); later is a caller's mistake. A time before the raw
 * uses' retention window (`retentionDays` before the arrival) is refused too: such a use would land
 * on daily charts that are kept for good (1970 on the console's Home) while its own row would
 * describe a day long pruned.
 */
export function useTime(occurredAt: number | undefined, arrival: number, retentionDays: number): UseTime {
  if (occurredAt === undefined) return { at: arrival };
  if (occurredAt < arrival - retentionDays * DAY_MS) return { refused: 'too_old' };
  if (occurredAt > arrival + FUTURE_LEEWAY_MS) return { refused: 'in_future' };
  return { at: Math.min(occurredAt, arrival) };
}

/**
 * What an organisation can pay toward a seat holder's use (decision 042): what the seat's
 * allowance has left this period (null: Unlimited), the shared pool's credits, and what the
 * member's monthly limit leaves them of the pool (null: no limit).
 */
export interface OrgBalance {
  seatLeft: number | null;
  pool: number;
  limitLeft: number | null;
}

/** What the organisation pays of `units`: the seat's allowance first, then the pool within the member's limit; the rest is the member's own. */
export interface OrgCharge {
  seat: number;
  pool: number;
}

export function orgCharge(units: number, balance: OrgBalance): OrgCharge {
  const seat = balance.seatLeft === null ? units : Math.min(units, Math.max(0, balance.seatLeft));
  const poolCap = balance.limitLeft === null ? balance.pool : Math.min(balance.pool, balance.limitLeft);
  return { seat, pool: Math.min(units - seat, Math.max(0, poolCap)) };
}

/** Whose limit a refused use reached: the member's own (no seat), the member's monthly limit on the pool, or the organisation's seat and pool. */
export type Exhaustion = 'own' | 'member_limit' | 'organisation';

export function exhaustion(balance: OrgBalance | null): Exhaustion {
  if (!balance) return 'own';
  return balance.limitLeft !== null && balance.limitLeft < balance.pool ? 'member_limit' : 'organisation';
}

/** A pool is low under a tenth of the most it held since it was last topped up; told once until then. */
export const poolLowDue = (state: { highWater: number; after: number; notified: boolean }): boolean =>
  !state.notified && state.highWater > 0 && state.after * 10 < state.highWater;

/**
 * How many of `units` a hold can take now (decision 043): all of them under Unlimited, else what
 * the organisation pays (`fromOrg`) and what the allowance and credits have left, at most `units`.
 */
export function unitsAvailable(units: number, fromOrg: number, balance: Balance): number {
  if (balance.allowanceLeft === null) return units;
  return Math.min(units, fromOrg + Math.max(0, balance.allowanceLeft) + Math.max(0, balance.credits));
}

/** What paid for a use, in the order it was taken: the seat, the pool, the allowance, the credits. */
export interface Paid {
  seat: number;
  pool: number;
  allowance: number;
  credits: number;
}

const PAID_IN_ORDER = ['seat', 'pool', 'allowance', 'credits'] as const;

/**
 * A hold settled for `units` (0 to what it held): the use keeps the first `units` in the order they
 * were taken, exactly what a use of `units` would have been charged then, and gives the rest back,
 * last taken first (pack credits before the allowance).
 */
export function settlement(held: Paid, units: number): { kept: Paid; returned: Paid } {
  const kept: Paid = { seat: 0, pool: 0, allowance: 0, credits: 0 };
  const returned: Paid = { ...held };
  let left = units;
  for (const source of PAID_IN_ORDER) {
    const take = Math.min(left, held[source]);
    kept[source] = take;
    returned[source] = held[source] - take;
    left -= take;
  }
  if (left > 0) throw new RangeError(`a hold of ${PAID_IN_ORDER.reduce((n, s) => n + held[s], 0)} cannot settle for ${units}`);
  return { kept, returned };
}
