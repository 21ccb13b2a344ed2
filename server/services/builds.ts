import { randomUUID } from 'node:crypto';
import type { SageBuild } from '../../contract/builds';
import type { Db } from '../db';
import type { Actor, AuditService } from './audit';

/** The builds the download page offers; a release and its audit entry are one write. */
export function createBuildService(db: Db, audit: AuditService) {
  return {
    /** The most recently released build, or null before the first release. */
    async current(): Promise<SageBuild | null> {
      const row = await db
        .selectFrom('sage_builds')
        .select(['version', 'ue54_url', 'ue55_url', 'ue56_url', 'ue57_url'])
        .orderBy('released_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!row) return null;
      return {
        version: row.version,
        ue54Url: row.ue54_url,
        ue55Url: row.ue55_url,
        ue56Url: row.ue56_url,
        ue57Url: row.ue57_url,
      };
    },

    /**
     * Makes `build` the current one, with its audit entry, in one transaction: the admin console's
     * Release and the CLI's `release` both come here. `actor` is the admin, null from the CLI.
     */
    async release(build: SageBuild, actor: Actor | null): Promise<SageBuild> {
      return db.transaction().execute(async (trx) => {
        // Releases are ordered by time; two in one millisecond still get distinct, ordered stamps.
        const latest = await trx.selectFrom('sage_builds').select('released_at').orderBy('released_at', 'desc').limit(1).executeTakeFirst();
        const releasedAt = Math.max(Date.now(), (latest?.released_at ?? 0) + 1);
        await trx
          .insertInto('sage_builds')
          .values({
            id: randomUUID(),
            version: build.version,
            ue54_url: build.ue54Url,
            ue55_url: build.ue55Url,
            ue56_url: build.ue56Url,
            ue57_url: build.ue57Url,
            released_at: releasedAt,
            released_by: actor?.id ?? null,
          })
          .execute();
        await audit.record(actor, { action: 'build.release', targetType: 'build', targetId: build.version, after: build }, trx);
        return build;
      });
    },
  };
}
