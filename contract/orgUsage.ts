import { z } from 'zod';
import { usageHistorySchema } from './usage';

/**
 * An organisation's usage (issue 38): what it paid for its members, from their seats and its
 * shared pool, by member, day, Unreal project and engine version, and the period's uses as CSV.
 */

const tally = z.object({ uses: z.number().int(), units: z.number().int() });

/** `GET /api/orgs/{id}/usage?days=` (owner, admin, billing): a user's history's figures, for the studio, and by member. */
export const orgUsageSchema = usageHistorySchema.extend({
  /** The organisation's current period (its plan's, else the UTC month). */
  period: z.object({ start: z.string(), end: z.string() }),
  /** Over the range, by member (most units first); a deleted account's uses go with it. */
  byMember: z.array(tally.extend({ userId: z.string(), name: z.string() })),
});
export type OrgUsage = z.infer<typeof orgUsageSchema>;

/** The CSV of the organisation's uses this period (`GET /api/orgs/{id}/usage/period.csv`), in this column order. */
export const ORG_USAGE_CSV_COLUMNS = [
  'occurred_at',
  'member',
  'request_id',
  'units',
  'from_seat',
  'from_pool',
  'from_own',
  'project_id',
  'engine_version',
  'plugin_version',
  'model',
  'feature',
] as const;
