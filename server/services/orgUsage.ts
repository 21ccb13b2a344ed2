import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { ORG_USAGE_CSV_COLUMNS, type OrgUsage } from '../../contract/orgUsage';
import { isPostgres, type Db } from '../db';
import { pagedCsv } from './csv';
import { isoDay, tallied } from './metering';
import { orgPlanOf } from './metering/orgSeat';
import { roleFor } from './orgs';

const DAY_MS = 86_400_000;
/** Members whose names are read per query. */
const NAMES_BATCH = 1_000;

/** Uses and units per key of one kind. */
type Tallies = Map<string, { uses: number; units: number }>;

function add(tallies: Tallies, key: string, uses: number, units: number) {
  const seen = tallies.get(key);
  if (seen) {
    seen.uses += uses;
    seen.units += units;
  } else tallies.set(key, { uses, units });
}

/** What the organisation paid over some days: units per day, and uses and units per member, project and engine version. */
interface UsageTotals {
  unitsByDay: Map<number, number>;
  byMember: Tallies;
  byProject: Tallies;
  byEngineVersion: Tallies;
}

/**
 * What an organisation paid for its members (issue 38): from the daily roll-up (kept for good) for
 * the charts and tables, and from the raw uses for the period's CSV. Owner, admin and billing.
 */
export function createOrgUsageService(deps: { db: Db }) {
  const { db } = deps;

  /**
   * The daily roll-up's totals from `first` to `today`. A studio of 1,000 members has some 30,000
   * rows in 30 days: PostgreSQL sums them by each key in one pass (grouping sets) and sends a row
   * per day, member, project and engine version; SQLite, in process, hands over the rows, which
   * are summed here. Reading the rows with their members' names (a join per row) and summing
   * them in three passes took 65 ms on SQLite (issue 38's bench:orgs).
   */
  async function totals(orgId: string, first: number, today: number): Promise<UsageTotals> {
    const found: UsageTotals = { unitsByDay: new Map(), byMember: new Map(), byProject: new Map(), byEngineVersion: new Map() };
    if (isPostgres(db)) {
      const { rows } = await sql<{
        day: number | null;
        user_id: string | null;
        project_id: string | null;
        engine_version: string | null;
        uses: string;
        units: string;
      }>`select day, user_id, project_id, engine_version, sum(uses) as uses, sum(units) as units
        from org_usage_daily where org_id = ${orgId} and day >= ${first} and day <= ${today}
        group by grouping sets ((day), (user_id), (project_id), (engine_version))`.execute(db);
      // The roll-up's keys are never null: a null says which set the row sums.
      for (const row of rows) {
        const [uses, units] = [Number(row.uses), Number(row.units)];
        if (row.day !== null) found.unitsByDay.set(row.day, units);
        else if (row.user_id !== null) add(found.byMember, row.user_id, uses, units);
        else if (row.project_id !== null) add(found.byProject, row.project_id, uses, units);
        else if (row.engine_version !== null) add(found.byEngineVersion, row.engine_version, uses, units);
      }
      return found;
    }
    const rows = await db
      .selectFrom('org_usage_daily')
      .select(['day', 'user_id', 'project_id', 'engine_version', 'uses', 'units'])
      .where('org_id', '=', orgId)
      .where('day', '>=', first)
      .where('day', '<=', today)
      .execute();
    for (const row of rows) {
      const [uses, units] = [Number(row.uses), Number(row.units)];
      found.unitsByDay.set(row.day, (found.unitsByDay.get(row.day) ?? 0) + units);
      add(found.byMember, row.user_id, uses, units);
      add(found.byProject, row.project_id, uses, units);
      add(found.byEngineVersion, row.engine_version, uses, units);
    }
    return found;
  }

  /** The names the usage shows for these members. */
  async function namesOf(userIds: string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (let from = 0; from < userIds.length; from += NAMES_BATCH) {
      const users = await db
        .selectFrom('users')
        .select(['id', 'email', 'epic_display_name', 'username'])
        .where('id', 'in', userIds.slice(from, from + NAMES_BATCH))
        .execute();
      for (const u of users) names.set(u.id, u.epic_display_name ?? u.email ?? u.username);
    }
    return names;
  }

  const listed = (tallies: Tallies) => [...tallies].map(([key, t]) => ({ key, ...t }));

  return {
    /** `GET /api/orgs/{id}/usage?days=`: the last `days` UTC days, today last. */
    async usage(userId: string, orgId: string, days: number, now = Date.now()): Promise<OrgUsage> {
      await roleFor(db, orgId, userId, 'readUsage');
      const today = Math.floor(now / DAY_MS);
      const first = today - days + 1;
      const [{ period }, found] = await Promise.all([orgPlanOf(db, orgId, now), totals(orgId, first, today)]);
      const names = await namesOf([...found.byMember.keys()]);
      return {
        period: { start: new Date(period.start).toISOString(), end: new Date(period.end).toISOString() },
        days: Array.from({ length: days }, (_, i) => isoDay(first + i)),
        units: Array.from({ length: days }, (_, i) => found.unitsByDay.get(first + i) ?? 0),
        byMember: tallied(listed(found.byMember), 'userId').map((t) => ({ ...t, name: names.get(t.userId) ?? 'A deleted account' })),
        byProject: tallied(listed(found.byProject), 'projectId'),
        byEngineVersion: tallied(listed(found.byEngineVersion), 'engineVersion'),
      };
    },

    /** The period's start, for the CSV's file name, once the caller may read it. */
    async periodStart(userId: string, orgId: string, now = Date.now()): Promise<number> {
      await roleFor(db, orgId, userId, 'readUsage');
      return (await orgPlanOf(db, orgId, now)).period.start;
    },

    /**
     * The uses the organisation paid for in the period starting `periodStart`, oldest first, in
     * batches, each the next after the last one's (occurred_at, id), which the index's order
     * reaches directly. A batch is one chunk: a chunk per use cost the compressed download a
     * round trip to zlib's thread pool each, 45 µs a use (issue 38's bench:orgs).
     */
    periodCsv(orgId: string, periodStart: number): Readable {
      return pagedCsv(
        ORG_USAGE_CSV_COLUMNS,
        (after, size) => {
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
            // Settled uses only (metering/holds.ts): an open hold is not yet a use.
            .where('e.hold_expires_at', 'is', null)
            .where('e.units', '>', 0)
            .orderBy('e.occurred_at')
            .orderBy('e.id')
            .limit(size);
          // A row value the index reaches directly: an OR here made SQLite walk the period from its start.
          if (after) page = page.where((eb) => eb(eb.refTuple('e.occurred_at', 'e.id'), '>', eb.tuple(after.occurred_at, after.id)));
          return page.execute();
        },
        (use) => [
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
        ],
      );
    },
  };
}

export type OrgUsageService = ReturnType<typeof createOrgUsageService>;
