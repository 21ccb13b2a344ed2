/**
 * The rules behind the admin Home's figures (issue 14), apart from the database so each is tested
 * on its own: UTC days, per-day series, recurring revenue per month, trial conversion.
 */

export const DAY_MS = 86_400_000;

/** The UTC day (days since 1970-01-01) an instant falls on, whatever the server's time zone. */
export const utcDay = (ms: number): number => Math.floor(ms / DAY_MS);

/** `YYYY-MM-DD` of a UTC day. */
export const dayLabel = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The last `length` UTC days up to and including today's. */
export function rangeDays(now: number, length: number): { first: number; last: number } {
  const last = utcDay(now);
  return { first: last - length + 1, last };
}

/** One value per day from `first` to `last`; days without a row are 0. */
export function dailySeries(rows: readonly { day: number; amount: number }[], first: number, last: number): number[] {
  const series = Array.from({ length: last - first + 1 }, () => 0);
  for (const { day, amount } of rows) {
    if (day >= first && day <= last) series[day - first]! += Number(amount);
  }
  return series;
}

/** Months in one billing interval of Stripe's `recurring.interval` (per one `interval_count`). */
const MONTHS_PER_INTERVAL: Record<string, number> = { day: 12 / 365, week: 12 / 52, month: 1, year: 12 };

/**
 * What one subscription at this price brings in a month, in the price's minor units: a yearly
 * price counts a twelfth, a weekly one 52/12 of itself, every 3 months a third. Null for prices
 * that do not recur or that Stripe computes (no unit amount).
 */
export function monthlyAmount(unitAmount: number | null, interval: string | null, intervalCount: number | null): number | null {
  if (unitAmount === null || interval === null) return null;
  const months = MONTHS_PER_INTERVAL[interval];
  if (months === undefined) return null;
  return unitAmount / (months * Math.max(1, intervalCount ?? 1));
}

/** Subscription statuses that are billed: the monthly recurring revenue counts these. */
export const REVENUE_STATUSES = ['active', 'past_due'] as const;

export interface PricedSubscriptions {
  currency: string;
  unitAmount: number | null;
  interval: string | null;
  intervalCount: number | null;
  subscriptions: number;
}

/** Monthly recurring revenue per currency (minor units, rounded once at the end), largest first. */
export function monthlyRecurringRevenue(
  groups: readonly PricedSubscriptions[],
): { currency: string; amount: number; subscriptions: number }[] {
  const byCurrency = new Map<string, { amount: number; subscriptions: number }>();
  for (const group of groups) {
    const perMonth = monthlyAmount(group.unitAmount, group.interval, group.intervalCount);
    if (perMonth === null || group.subscriptions === 0) continue;
    const currency = group.currency.toLowerCase();
    const total = byCurrency.get(currency) ?? { amount: 0, subscriptions: 0 };
    total.amount += perMonth * group.subscriptions;
    total.subscriptions += group.subscriptions;
    byCurrency.set(currency, total);
  }
  return [...byCurrency]
    .map(([currency, { amount, subscriptions }]) => ({ currency, amount: Math.round(amount), subscriptions }))
    .sort((a, b) => b.amount - a.amount || a.currency.localeCompare(b.currency));
}

/**
 * Of the subscriptions whose trial ended, how many went on to be billed: active, or past due while
 * Stripe retries a payment. Canceled, paused (no payment method at the trial's end), unpaid and
 * incomplete ones did not convert; one still `trialing` has not ended, whatever its trial_end says.
 */
export function trialConversions(endedByStatus: readonly { status: string; count: number }[]): { ended: number; converted: number } {
  let ended = 0;
  let converted = 0;
  for (const { status, count } of endedByStatus) {
    if (status === 'trialing') continue;
    ended += count;
    if ((REVENUE_STATUSES as readonly string[]).includes(status)) converted += count;
  }
  return { ended, converted };
}

/** Status counts, most first (ties by name), so the chart reads from the largest. */
export function byCountDescending<T extends { status: string; count: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => b.count - a.count || a.status.localeCompare(b.status));
}
