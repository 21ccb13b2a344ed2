import { Readable } from 'node:stream';
import { ORG_USAGE_CSV_COLUMNS, type OrgUsage } from '../../contract/orgUsage';
import type { Db } from '../db';
import { toCsvRow } from './csv';
import { isoDay, tallied } from './metering';
import { orgPlanOf } from './metering/orgSeat';
import { roleFor } from './orgs';

const DAY_MS = 86_400_000;
/** Uses read per query while streaming the period's CSV. */
const CSV_BATCH = 2_000;

/**
 * What an organisation paid for its members (issue 38): from the daily roll-up (kept for good) for
 * the charts and tables, and from the raw uses for the period's CSV. Owner, admin and billing.
 */
export function createOrgUsageService(deps: { db: Db }) {
  const { db } = deps;

  return {
    /** `GET /api/orgs/{id}/usage?days=`: the last `days` UTC days, today last. */
    async usage(userId: string, orgId: string, days: number, now = Date.now()): Promise<OrgUsage> {
      await roleFor(db, orgId, userId, 'readUsage');
      const today = Math.floor(now / DAY_MS);
      const first = today - days + 1;
      const [{ period }, rows] = await Promise.all([
        orgPlanOf(db, orgId, now),
        db
          .selectFrom('org_usage_daily as d')
          .leftJoin('users as u', 'u.id', 'd.user_id')
          .select([
            'd.day',
            'd.user_id',
            'd.project_id',
            'd.engine_version',
            'd.uses',
            'd.units',
            'u.email',
            'u.epic_display_name',
            'u.username',
          ])
          .where('d.org_id', '=', orgId)
          .where('d.day', '>=', first)
          .where('d.day', '<=', today)
          .execute(),
      ]);
      const units = new Array<number>(days).fill(0);
      for (const row of rows) units[row.day - first]! += Number(row.units);
      const counted = (key: (row: (typeof rows)[number]) => string) =>
        rows.map((r) => ({ key: key(r), uses: Number(r.uses), units: Number(r.units) }));
      const names = new Map(rows.map((r) => [r.user_id, r.epic_display_name ?? r.email ?? r.username ?? 'A deleted account']));
      return {
        period: { start: new Date(period.start).toISOString(), end: new Date(period.end).toISOString() },
        days: units.map((_, i) => isoDay(first + i)),
        units,
        byMember: tallied(
          counted((r) => r.user_id),
          'userId',
        ).map((t) => ({ ...t, name: names.get(t.userId) ?? 'A deleted account' })),
        byProject: tallied(
          counted((r) => r.project_id),
          'projectId',
        ),
        byEngineVersion: tallied(
          counted((r) => r.engine_version),
          'engineVersion',
        ),
      };
    },

    /** The period's start, for the CSV's file name, once the caller may read it. */
    async periodStart(userId: string, orgId: string, now = Date.now()): Promise<number> {
      await roleFor(db, orgId, userId, 'readUsage');
      return (await orgPlanOf(db, orgId, now)).period.start;
    },

    /** The uses the organisation paid for in the period starting `periodStart`, oldest first, in batches. */
    periodCsv(orgId: string, periodStart: number): Readable {
      async function* lines() {
        yield toCsvRow([...ORG_USAGE_CSV_COLUMNS]);
        let after: { occurred_at: number; id: string } | null = null;
        for (;;) {
          let page = db
            .selectFrom('usage_events as e')
            .leftJoin('users as u', 'u.id', 'e.user_id')
            .select([
              'e.id',
              'e.occurred_at',
              'e.request_id',
              'e.units',
              'e.from_seat',
              'e.from_pool',
              'e.from_allowance',
              'e.from_credits',
              'e.project_id',
              'e.engine_version',
              'e.plugin_version',
              'e.model',
              'e.feature',
              'u.email',
              'u.username',
            ])
            .where('e.org_id', '=', orgId)
            .where('e.org_period_start', '=', periodStart)
            .orderBy('e.occurred_at')
            .orderBy('e.id')
            .limit(CSV_BATCH);
          if (after) {
            const { occurred_at: at, id } = after;
            page = page.where((eb) => eb.or([eb('e.occurred_at', '>', at), eb.and([eb('e.occurred_at', '=', at), eb('e.id', '>', id)])]));
          }
          const batch = await page.execute();
          for (const use of batch) {
            yield toCsvRow([
              new Date(Number(use.occurred_at)).toISOString(),
              use.email ?? use.username ?? '',
              use.request_id,
              String(use.units),
              String(use.from_seat),
              String(use.from_pool),
              String(Number(use.from_allowance) + Number(use.from_credits)),
              use.project_id ?? '',
              use.engine_version ?? '',
              use.plugin_version ?? '',
              use.model ?? '',
              use.feature ?? '',
            ]);
          }
          if (batch.length < CSV_BATCH) return;
          const last = batch[batch.length - 1]!;
          after = { occurred_at: Number(last.occurred_at), id: last.id };
        }
      }
      return Readable.from(lines());
    },
  };
}

export type OrgUsageService = ReturnType<typeof createOrgUsageService>;
