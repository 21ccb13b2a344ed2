import { z } from 'zod';

/**
 * The admin Home's figures of the business (issue 14): `GET /api/admin/insights?days=`. Everything
 * is computed on the server from our own tables (no call to Stripe or PostHog). Days are UTC days.
 */

export const INSIGHT_RANGES = [7, 30, 90] as const;
export type InsightRange = (typeof INSIGHT_RANGES)[number];
export const DEFAULT_INSIGHT_RANGE: InsightRange = 30;

export const INSIGHT_RANGE_MESSAGE = `days must be one of ${INSIGHT_RANGES.join(', ')}`;
export const insightsQuerySchema = z.object({
  days: z.coerce
    .number({ error: INSIGHT_RANGE_MESSAGE })
    .refine((days): days is InsightRange => (INSIGHT_RANGES as readonly number[]).includes(days), INSIGHT_RANGE_MESSAGE)
    .default(DEFAULT_INSIGHT_RANGE),
});

const count = z.number().int().nonnegative();

/** How many users the Home's "Top users this month" lists. */
export const TOP_USERS_LIMIT = 10;
/** One value per day of the range, oldest first, in step with `days`. */
const daily = z.array(z.number());

export const insightsSchema = z.object({
  /** The range's UTC days, `YYYY-MM-DD`, oldest first; today (UTC) is the last. */
  days: z.array(z.string()),
  /** New users per day, by how they signed up. */
  signUps: z.object({ epic: daily, email: daily }),
  /** Completed plugin hand-offs per day. */
  pluginSignIns: daily,
  /** Credits bought with one-time packs per day. */
  creditsSold: daily,
  /** Chat messages the AI service stored per day. */
  messagesStored: daily,
  /** Queries the plugin made per day, every user together (issue 26: one unit is one query). */
  queriesPerDay: daily,
  /** The users with the most queries this UTC month to date, most first (at most TOP_USERS_LIMIT). */
  topUsers: z.array(z.object({ userId: z.string(), username: z.string(), email: z.string().nullable(), units: count })),
  /** Every subscription of the Stripe mirror now, by status (most first). */
  subscriptionsByStatus: z.array(z.object({ status: z.string(), count })),
  /** Active and past-due subscriptions' prices normalised to a month, per currency (minor units). */
  monthlyRecurringRevenue: z.array(z.object({ currency: z.string(), amount: z.number().int(), subscriptions: count })),
  /** Trials that ended in the range, and how many of them became paying subscriptions. */
  trialConversions: z.object({ ended: count, converted: count }),
  generatedAt: z.string(),
});
export type Insights = z.infer<typeof insightsSchema>;
