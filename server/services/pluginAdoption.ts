import { newestVersionFirst, PLUGIN_ADOPTION_DAYS, type PluginAdoption, type PluginVersionUse } from '../../contract/pluginAdoption';
import type { Db } from '../db';

const DAY_MS = 86_400_000;

/**
 * The console Home's plugin versions (issue 41): per version, the installs that called in the last
 * 30 days and the queries recorded in them, so staff see a release taken up and who is left on a
 * withdrawn one. One grouped query per table; the versions are ordered here, by the release
 * channel's rule, which SQL does not know.
 */
export function createPluginAdoptionService(db: Db) {
  return {
    async lastDays(now = Date.now()): Promise<PluginAdoption> {
      const since = now - PLUGIN_ADOPTION_DAYS * DAY_MS;
      const [installs, uses, withdrawn] = await Promise.all([
        db
          .selectFrom('plugin_installs')
          .select(['plugin_version', (eb) => eb.fn.countAll<number | string>().as('n')])
          .where('last_used_at', '>=', since)
          .groupBy('plugin_version')
          .execute(),
        db
          .selectFrom('usage_events')
          .select([
            'plugin_version',
            (eb) => eb.fn.countAll<number | string>().as('n'),
            (eb) => eb.fn.sum<number | string | null>('units').as('units'),
          ])
          .where('occurred_at', '>=', since)
          // An open hold is not a recorded use yet.
          .where('hold_expires_at', 'is', null)
          .groupBy('plugin_version')
          .execute(),
        db.selectFrom('sage_builds').select('version').where('withdrawn_at', 'is not', null).execute(),
      ]);
      const withdrawnVersions = new Set(withdrawn.map((row) => row.version));
      const byVersion = new Map<string | null, PluginVersionUse>();
      const entry = (version: string | null): PluginVersionUse => {
        // A blank version says no more than a missing one.
        const key = version?.trim() ? version : null;
        let use = byVersion.get(key);
        if (!use) {
          use = { version: key, withdrawn: key !== null && withdrawnVersions.has(key), installs: 0, uses: 0, units: 0 };
          byVersion.set(key, use);
        }
        return use;
      };
      for (const row of installs) entry(row.plugin_version).installs += Number(row.n);
      for (const row of uses) {
        const use = entry(row.plugin_version);
        use.uses += Number(row.n);
        use.units += Number(row.units ?? 0);
      }
      return { days: PLUGIN_ADOPTION_DAYS, versions: [...byVersion.values()].sort(newestVersionFirst) };
    },
  };
}

export type PluginAdoptionService = ReturnType<typeof createPluginAdoptionService>;
