import { z } from 'zod';

/**
 * An organisation's usage (issue 38): what it paid for its members, from their seats and its
 * shared pool, by member, day, Unreal project and engine version, and the period's uses as CSV.
 */

const tally = z.object({ uses: z.number().int(), units: z.number().int() });

/** `GET /api/orgs/{id}/usage?days=` (owner, admin, billing). */
export const orgUsageSchema = z.object({
  /** The organisation's current period (its plan's, else the UTC month). */
  period: z.object({ start: z.string(), end: z.string() }),
  /** The range's UTC days, oldest first; today (UTC) last. */
  days: z.array(z.string()),
  /** Units per day, in step with `days`. */
  units: z.array(z.number().int()),
  /** Over the range, by member (most units first); a deleted account's uses go with it. */
  byMember: z.array(tally.extend({ userId: z.string(), name: z.string() })),
  byProject: z.array(tally.extend({ projectId: z.string() })),
  byEngineVersion: z.array(tally.extend({ engineVersion: z.string() })),
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
