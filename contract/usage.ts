import { z } from 'zod';
import { singleLine } from './text';

/**
 * Usage metering's shared words (issue 26, docs/usage-metering.md). A plan's `credits_amount` is
 * its queries per billing period and a pack's is the queries it adds; a plan without a whole number
 * there is Unlimited. One query is one unit.
 */

/** The queries a `credits_amount` grants, or null for Unlimited. */
export function queriesOf(creditsAmount: string | undefined): number | null {
  const amount = creditsAmount?.trim();
  return amount && /^\d+$/.test(amount) ? Number(amount) : null;
}

/** Most units one use may charge: a guard against a caller's bug, far above any real request. */
export const MAX_UNITS_PER_USE = 10_000;

const label = (name: string, max: number) =>
  z.string().check(singleLine(name)).trim().min(1, `${name} must not be empty`).max(max, `${name} must be at most ${max} characters`);

/** `POST /api/ingest/usage`: one use of the AI, charged once per `requestId`. */
export const recordUsageSchema = z.object({
  /** The caller's idempotency key: the same key again answers the first answer and charges nothing. */
  requestId: label('requestId', 100),
  units: z
    .number({ error: 'units must be a whole number' })
    .int('units must be a whole number')
    .min(1, 'units must be at least 1')
    .max(MAX_UNITS_PER_USE, `units must be at most ${MAX_UNITS_PER_USE}`)
    .default(1),
  /** Whom the use is for: only the AI service's token names one (a license token is its own user). */
  userId: label('userId', 100).optional(),
  /**
   * When the use happened. Default: arrival. Up to a day after the arrival counts as the arrival (another
   * clock); later, or before the raw uses' retention window, is refused (metering rules `useTime`).
   */
  occurredAt: z.iso.datetime({ offset: true, error: 'occurredAt must be an ISO 8601 date-time' }).optional(),
  /** An opaque id of the Unreal project. */
  projectId: label('projectId', 64).optional(),
  engineVersion: label('engineVersion', 32).optional(),
  pluginVersion: label('pluginVersion', 32).optional(),
  model: label('model', 100).optional(),
  feature: label('feature', 64).optional(),
});
export type RecordUsage = z.infer<typeof recordUsageSchema>;

/** What a seat holder's organisation has left for them (decision 042). */
export const orgRemainingSchema = z.object({
  orgId: z.string(),
  /** The organisation's name: the screens and the plugin say who pays. */
  name: z.string(),
  /** Queries left of the seat's allowance this period; null: Unlimited. */
  seat: z.number().int().nullable(),
  /** Credits of the shared pool the member may still use: the pool, within their monthly limit. */
  pool: z.number().int(),
  /** What the member's monthly limit leaves them of the pool; null: no limit. */
  limit: z.number().int().nullable(),
  /** When the organisation's period renews (ISO 8601). */
  periodEnd: z.string(),
});
export type OrgRemaining = z.infer<typeof orgRemainingSchema>;

/** What is left to spend now. */
export const usageRemainingSchema = z.object({
  /** Queries left of this period's allowance; null: Unlimited. */
  allowance: z.number().int().nullable(),
  /** Pack credits left; they never expire. */
  credits: z.number().int(),
  /** When this period's allowance renews (ISO 8601). */
  periodEnd: z.string(),
  /** Present while the user holds a seat: what their organisation pays first. */
  org: orgRemainingSchema.optional(),
  /**
   * Units held by queries still running (issue 39), already counted as taken above: in what is
   * left now (GET /api/usage/remaining, the summary), not in a use's stored answer.
   */
  held: z.number().int().optional(),
});
export type UsageRemaining = z.infer<typeof usageRemainingSchema>;

/** What paid for a use: the user's own allowance and credits, and (a seat holder's) their organisation's seat and pool. */
export const usageChargeSchema = z.object({
  allowance: z.number().int(),
  credits: z.number().int(),
  org: z.object({ orgId: z.string(), seat: z.number().int(), pool: z.number().int() }).optional(),
});

/** `POST /api/ingest/usage` → 201 (and the same again for a repeated `requestId`). */
export const usageRecordedSchema = z.object({
  requestId: z.string(),
  units: z.number().int(),
  charged: usageChargeSchema,
  remaining: usageRemainingSchema,
});
export type UsageRecorded = z.infer<typeof usageRecordedSchema>;

/** `GET /api/usage` (the signed-in user) and `GET /api/admin/users/{id}/usage`: this period at a glance. */
/**
 * `POST /api/ingest/usage/holds` (issue 39, decision 043): a use whose cost is known once its query
 * has run reserves up to `units` first. `minUnits` (default: all of `units`) is the least the query
 * can run with: with less left than `units` but at least `minUnits`, what is left is held.
 */
export const holdUsageSchema = recordUsageSchema
  .extend({
    minUnits: z
      .number({ error: 'minUnits must be a whole number' })
      .int('minUnits must be a whole number')
      .min(1, 'minUnits must be at least 1')
      .max(MAX_UNITS_PER_USE, `minUnits must be at most ${MAX_UNITS_PER_USE}`)
      .optional(),
  })
  .refine((hold) => hold.minUnits === undefined || hold.minUnits <= hold.units, {
    message: 'minUnits must be at most units',
    path: ['minUnits'],
  });
export type HoldUsage = z.infer<typeof holdUsageSchema>;

export const usageHeldSchema = z.object({
  holdId: z.string(),
  requestId: z.string(),
  /** What was held: `units`, or less when `minUnits` allowed it. */
  units: z.number().int(),
  charged: usageChargeSchema,
  remaining: usageRemainingSchema,
  expiresAt: z.string(),
});
export type UsageHeld = z.infer<typeof usageHeldSchema>;

export const holdParamsSchema = z.object({
  holdId: z.string().trim().min(1, 'holdId must not be empty').max(100, 'holdId must be at most 100 characters'),
});

/** `POST /api/ingest/usage/holds/{holdId}/settle`: the units the query took, 0 to what was held (0 gives it all back). */
export const settleHoldSchema = z.object({
  units: z
    .number({ error: 'units must be a whole number' })
    .int('units must be a whole number')
    .min(0, 'units must be at least 0')
    .max(MAX_UNITS_PER_USE, `units must be at most ${MAX_UNITS_PER_USE}`),
});
export type SettleHold = z.infer<typeof settleHoldSchema>;

export const holdSettledSchema = z.object({
  holdId: z.string(),
  requestId: z.string(),
  /** What the use was charged in the end. */
  units: z.number().int(),
  /** What was given back of the hold. */
  returned: z.number().int(),
  charged: usageChargeSchema,
  remaining: usageRemainingSchema,
});
export type HoldSettled = z.infer<typeof holdSettledSchema>;

export const usageSummarySchema = z.object({
  /** The plan whose allowance counts (its product's name), or null for the free allowance. */
  plan: z.string().nullable(),
  period: z.object({ start: z.string(), end: z.string() }),
  /** This period's allowance; null: Unlimited. */
  allowance: z.number().int().nullable(),
  /** Units this period's allowance paid for. */
  allowanceUsed: z.number().int(),
  /** Units pack credits paid for this period. */
  creditsUsed: z.number().int(),
  remaining: usageRemainingSchema,
});
export type UsageSummary = z.infer<typeof usageSummarySchema>;

/**
 * This period's allowance as every screen shows it (the portal's Usage section, the console's Usage
 * panel): a bar only when there is a number to fill. Each screen puts it in its own words.
 */
export type AllowanceState =
  | { kind: 'unlimited'; used: number }
  | { kind: 'none'; used: number }
  | { kind: 'metered'; used: number; allowance: number; filled: number };

export function allowanceState({ allowance, allowanceUsed }: Pick<UsageSummary, 'allowance' | 'allowanceUsed'>): AllowanceState {
  if (allowance === null) return { kind: 'unlimited', used: allowanceUsed };
  if (allowance === 0) return { kind: 'none', used: allowanceUsed };
  // A plan changed to a smaller one mid-period can leave more used than it allows: the bar stops full.
  return { kind: 'metered', used: allowanceUsed, allowance, filled: Math.min(allowanceUsed, allowance) };
}

export const USAGE_RANGES = [30, 90] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];
const USAGE_RANGE_MESSAGE = `days must be one of ${USAGE_RANGES.join(', ')}`;
export const usageHistoryQuerySchema = z.object({
  days: z.coerce
    .number({ error: USAGE_RANGE_MESSAGE })
    .refine((days): days is UsageRange => (USAGE_RANGES as readonly number[]).includes(days), USAGE_RANGE_MESSAGE)
    .default(30),
});

const tally = z.object({ uses: z.number().int(), units: z.number().int() });

/** `GET /api/usage/history?days=` (and the admin twin): uses per UTC day and where they came from. */
export const usageHistorySchema = z.object({
  /** The range's UTC days, `YYYY-MM-DD`, oldest first; today (UTC) is the last. */
  days: z.array(z.string()),
  /** Units per day, in step with `days`. */
  units: z.array(z.number().int()),
  /** Over the range, by Unreal project ('' when the plugin did not say), most units first. */
  byProject: z.array(tally.extend({ projectId: z.string() })),
  /** Over the range, by engine version ('' when not said), most units first. */
  byEngineVersion: z.array(tally.extend({ engineVersion: z.string() })),
});
export type UsageHistory = z.infer<typeof usageHistorySchema>;

/** The CSV of a period's uses (`GET /api/usage/period.csv`), in this column order. */
export const USAGE_CSV_COLUMNS = [
  'occurred_at',
  'request_id',
  'units',
  'from_allowance',
  'from_credits',
  'project_id',
  'engine_version',
  'plugin_version',
  'model',
  'feature',
] as const;

/** `POST /api/admin/users/{id}/credits`: a grant (positive) or a deduction (negative), with why. */
export const creditAdjustmentSchema = z.object({
  amount: z
    .number({ error: 'amount must be a whole number' })
    .int('amount must be a whole number')
    .refine((n) => n !== 0, 'amount must not be 0')
    .refine((n) => Math.abs(n) <= 1_000_000_000, 'amount is too large'),
  reason: z.string().check(singleLine('reason')).trim().min(1, 'A reason is required').max(500, 'reason must be at most 500 characters'),
});
export type CreditAdjustment = z.infer<typeof creditAdjustmentSchema>;

/** The answer to an adjustment: the balance after it. */
export const creditBalanceSchema = z.object({ credits: z.number().int() });

/** A credit pack bought through Checkout, as staff see it for a refund. */
export const creditPackPurchaseSchema = z.object({
  /** The ledger entry's id. */
  id: z.string(),
  credits: z.number().int(),
  reason: z.string(),
  createdAt: z.string(),
  /** Of the pack's credits, how many a refund would take back now (the rest were used). */
  unspent: z.number().int(),
  /** Set once refunded. */
  refundedAt: z.string().nullable(),
});
export type CreditPackPurchase = z.infer<typeof creditPackPurchaseSchema>;
export const creditPackPurchasesSchema = z.object({ purchases: z.array(creditPackPurchaseSchema) });

/** The ledger's entries with what they were (a pack, a use's spend, a grant…), for staff. */
export const USAGE_ERRORS = {
  quotaExhausted: 'quota_exhausted',
  /** 402: a seat holder's monthly limit on the organisation's pool is reached, and their own plan and credits are used up. */
  orgLimitReached: 'org_limit_reached',
  /** 402: the organisation's seat allowance and pool are used up, and so are the member's own. */
  orgExhausted: 'org_allowance_exhausted',
  requestIdReused: 'request_id_reused',
  insufficientCredits: 'insufficient_credits',
  /** 400: `occurredAt` is before the window raw uses are kept in (USAGE_RETENTION_DAYS). */
  occurredAtTooOld: 'occurred_at_too_old',
  /** 400: `occurredAt` is more than a day after the request arrived. */
  occurredAtInFuture: 'occurred_at_in_future',
  holdNotFound: 'hold_not_found',
  holdSettled: 'hold_settled',
  holdExpired: 'hold_expired',
  unitsOverHold: 'units_over_hold',
} as const;

/** `POST /api/admin/users/{id}/credit-packs/{purchaseId}/refund`: the payment refunded and the pack's unspent credits taken back. */
export const creditPackRefundedSchema = z.object({
  /** The purchase as it now stands (refunded, nothing left to take back). */
  purchase: creditPackPurchaseSchema,
  /** The balance after the refund. */
  credits: z.number().int(),
  /** Credits the refund took back: the pack's unspent part. */
  reversed: z.number().int(),
  /** The pack's credits already used: the user keeps what they bought with them. */
  used: z.number().int(),
});
export type CreditPackRefunded = z.infer<typeof creditPackRefundedSchema>;

/** Why a pack's refund is refused (409), besides an unknown purchase (404) and Stripe (502/503). */
export const CREDIT_PACK_REFUND_ERRORS = {
  alreadyRefunded: 'already_refunded',
  /** Stripe has no payment behind the purchase (it was not made through Checkout, or paid nothing). */
  notRefundable: 'not_refundable',
} as const;

/** The 402 of a use nothing can pay for: its code, and words that say whose limit was reached. */
export function exhaustedRefusal(kind: 'own' | 'member_limit' | 'organisation', orgName?: string): { error: string; message: string } {
  const own = 'your own allowance and credit packs are used up too';
  switch (kind) {
    case 'member_limit':
      return {
        error: USAGE_ERRORS.orgLimitReached,
        message: `You have reached the monthly limit ${orgName} set for you, and ${own}. Ask an admin of ${orgName} to raise it, or buy a credit pack.`,
      };
    case 'organisation':
      return {
        error: USAGE_ERRORS.orgExhausted,
        message: `${orgName}'s seat allowance and shared credits are used up for this period, and ${own}. Ask an admin of ${orgName} to add credits, or buy a credit pack.`,
      };
    case 'own':
      return {
        error: USAGE_ERRORS.quotaExhausted,
        message:
          "No queries are left: this period's allowance and your credit packs are used up. Buy a credit pack or change your plan on the dashboard.",
      };
  }
}
