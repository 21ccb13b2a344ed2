import type { Insights, InsightRange } from '../../contract/insights';
import type { Db } from '../db';
import type { DailyMetric } from '../db/schema';
import {
  byCountDescending,
  dailySeries,
  dayLabel,
  monthlyRecurringRevenue,
  rangeDays,
  REVENUE_STATUSES,
  trialConversions,
  DAY_MS,
} from './insightRules';

/**
 * The admin Home's figures of the business (issue 14, decision 012). Per-day series come from the
 * `daily_activity` roll-ups that triggers keep (migration 008): one indexed range read of at most
 * 5 × 90 rows. Subscription figures come from the Stripe mirror through its status and trial_end
 * indexes. Nothing here calls Stripe or PostHog.
 */
export function createInsightService(db: Db, now: () => number = Date.now) {
  return {
    async forRange(days: InsightRange): Promise<Insights> {
      const at = now();
      const { first, last } = rangeDays(at, days);
      const rangeStartSeconds = Math.floor((first * DAY_MS) / 1000);

      const [activity, statuses, priced, trialsEnded] = await Promise.all([
        db.selectFrom('daily_activity').select(['metric', 'day', 'amount']).where('day', '>=', first).where('day', '<=', last).execute(),
        db
          .selectFrom('billing_subscriptions')
          .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
          .groupBy('status')
          .execute(),
        db
          .selectFrom('billing_subscriptions')
          .select([
            'currency',
            'unit_amount',
            'recurring_interval',
            'recurring_interval_count',
            (eb) => eb.fn.countAll<number>().as('count'),
          ])
          .where('status', 'in', [...REVENUE_STATUSES])
          .groupBy(['currency', 'unit_amount', 'recurring_interval', 'recurring_interval_count'])
          .execute(),
        db
          .selectFrom('billing_subscriptions')
          .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
          .where('trial_end', '>=', rangeStartSeconds)
          .where('trial_end', '<=', Math.floor(at / 1000))
          .groupBy('status')
          .execute(),
      ]);

      const series = (metric: DailyMetric) =>
        dailySeries(
          activity.filter((row) => row.metric === metric).map((row) => ({ day: Number(row.day), amount: Number(row.amount) })),
          first,
          last,
        );
      const counted = (rows: { status: string; count: number | string | bigint }[]) => rows.map((row) => ({ status: row.status, count: Number(row.count) }));

      return {
        days: Array.from({ length: last - first + 1 }, (_, i) => dayLabel(first + i)),
        signUps: { epic: series('sign_ups.epic'), email: series('sign_ups.email') },
        pluginSignIns: series('plugin_sign_ins'),
        creditsSold: series('credits_sold'),
        messagesStored: series('messages_stored'),
        subscriptionsByStatus: byCountDescending(counted(statuses)),
        monthlyRecurringRevenue: monthlyRecurringRevenue(
          priced.map((row) => ({
            currency: row.currency,
            unitAmount: row.unit_amount === null ? null : Number(row.unit_amount),
            interval: row.recurring_interval,
            intervalCount: row.recurring_interval_count === null ? null : Number(row.recurring_interval_count),
            subscriptions: Number(row.count),
          })),
        ),
        trialConversions: trialConversions(counted(trialsEnded)),
        generatedAt: new Date(at).toISOString(),
      };
    },
  };
}

export type InsightService = ReturnType<typeof createInsightService>;
