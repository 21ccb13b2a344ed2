import { TOP_USERS_LIMIT, type Insights, type InsightRange } from '../../contract/insights';
import type { Db } from '../db';
import type { DailyMetric } from '../db/schema';
import {
  byCountDescending,
  DAY_MS,
  dailySeries,
  dayLabel,
  monthlyRecurringRevenue,
  rangeDays,
  REVENUE_STATUSES,
  trialConversions,
} from './insightRules';

/**
 * The admin Home's figures of the business (issue 14, decision 012). Per-day series come from the
 * `daily_activity` roll-ups that triggers keep (migration 008): one indexed range read of at most
 * 5 × 90 rows. Subscription figures come from the Stripe mirror's tallies by status, price and
 * trial day (migration 010), also kept by triggers. Queries come from the metering's per-user
 * `usage_daily` roll-up (migration 012), read by its (day, user_id) index. Nothing here calls
 * Stripe or PostHog.
 */
export function createInsightService(db: Db, now: () => number = Date.now) {
  return {
    async forRange(days: InsightRange): Promise<Insights> {
      const at = now();
      const { first, last } = rangeDays(at, days);

      const tallies = () => db.selectFrom('subscription_tallies').where('subscriptions', '>', 0);
      const monthStart = monthStartDay(at);
      const [activity, queries, topUsers, statuses, priced, trialsEnded] = await Promise.all([
        db.selectFrom('daily_activity').select(['metric', 'day', 'amount']).where('day', '>=', first).where('day', '<=', last).execute(),
        db
          .selectFrom('usage_daily')
          .select(['day', (eb) => eb.fn.sum<number>('units').as('units')])
          .where('day', '>=', first)
          .where('day', '<=', last)
          .groupBy('day')
          .execute(),
        // This month's ten first, by the (day, user_id) index; then only their ten users are read.
        db
          .selectFrom((qb) =>
            qb
              .selectFrom('usage_daily')
              .select(['user_id', (eb) => eb.fn.sum<number>('units').as('units')])
              .where('day', '>=', monthStart)
              .groupBy('user_id')
              .orderBy((eb) => eb.fn.sum('units'), 'desc')
              // Ties by id, so the list is the same on both databases and from one reading to the next.
              .orderBy('user_id')
              .limit(TOP_USERS_LIMIT)
              .as('top'),
          )
          .innerJoin('users', 'users.id', 'top.user_id')
          .select(['users.id', 'users.username', 'users.email', 'top.units'])
          .orderBy('top.units', 'desc')
          .orderBy('users.id')
          .execute(),
        tallies()
          .select(['status', (eb) => eb.fn.sum<number>('subscriptions').as('count')])
          .groupBy('status')
          .execute(),
        tallies()
          .select([
            'currency',
            'unit_amount',
            'recurring_interval',
            'recurring_interval_count',
            (eb) => eb.fn.sum<number>('subscriptions').as('count'),
          ])
          .where('status', 'in', [...REVENUE_STATUSES])
          .groupBy(['currency', 'unit_amount', 'recurring_interval', 'recurring_interval_count'])
          .execute(),
        // Trials that ended in the range: those still trialing today have not (trialConversions).
        tallies()
          .select(['status', (eb) => eb.fn.sum<number>('subscriptions').as('count')])
          .where('trial_day', '>=', first)
          .where('trial_day', '<=', last)
          .groupBy('status')
          .execute(),
      ]);

      const series = (metric: DailyMetric) =>
        dailySeries(
          activity.filter((row) => row.metric === metric).map((row) => ({ day: Number(row.day), amount: Number(row.amount) })),
          first,
          last,
        );
      const counted = (rows: { status: string; count: number | string | bigint }[]) =>
        rows.map((row) => ({ status: row.status, count: Number(row.count) }));

      return {
        days: Array.from({ length: last - first + 1 }, (_, i) => dayLabel(first + i)),
        signUps: { epic: series('sign_ups.epic'), email: series('sign_ups.email') },
        pluginSignIns: series('plugin_sign_ins'),
        creditsSold: series('credits_sold'),
        messagesStored: series('messages_stored'),
        queriesPerDay: dailySeries(
          queries.map((row) => ({ day: Number(row.day), amount: Number(row.units) })),
          first,
          last,
        ),
        topUsers: topUsers.map((row) => ({ userId: row.id, username: row.username, email: row.email, units: Number(row.units) })),
        subscriptionsByStatus: byCountDescending(counted(statuses)),
        monthlyRecurringRevenue: monthlyRecurringRevenue(
          priced.map((row) => ({
            currency: row.currency,
            // The tally's stand-ins for "none" (migration 010).
            unitAmount: Number(row.unit_amount) < 0 ? null : Number(row.unit_amount),
            interval: row.recurring_interval === '' ? null : row.recurring_interval,
            intervalCount: Number(row.recurring_interval_count) || null,
            subscriptions: Number(row.count),
          })),
        ),
        trialConversions: trialConversions(counted(trialsEnded)),
        generatedAt: new Date(at).toISOString(),
      };
    },
  };
}

/** The UTC day (days since 1970-01-01) the UTC month of `now` starts on: "this month" of the top users. */
export function monthStartDay(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
}

export type InsightService = ReturnType<typeof createInsightService>;
