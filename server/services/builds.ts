import { randomUUID } from 'node:crypto';
import type { InstallUpdate } from '../../contract/accountSessions';
import type { BuildDownload, BuildHistoryItem, PublicRelease, SageBuild, UpdateCheck } from '../../contract/builds';
import {
  compareVersions,
  ENGINE_VERSIONS,
  type EngineVersion,
  engineOf,
  isVersion,
  type ReleasedBuild,
  updateVerdict,
  VERSION_RULE,
} from '../../contract/pluginVersions';
import type { Db } from '../db';
import type { SageBuildsTable } from '../db/schema';
import { AppError, conflict } from '../errors';
import type { Actor, AuditService } from './audit';

/** A build as the release form sends it (issue 41 adds notes and the required flag). */
export interface BuildRelease extends SageBuild {
  notes?: string;
  required?: boolean;
}

type BuildRow = Pick<
  SageBuildsTable,
  | 'id'
  | 'version'
  | 'ue54_url'
  | 'ue55_url'
  | 'ue56_url'
  | 'ue57_url'
  | 'released_at'
  | 'released_by'
  | 'notes'
  | 'required'
  | 'withdrawn_at'
  | 'withdrawn_by'
  | 'withdraw_reason'
>;

/** A stored build, read once, as the release rules and every answer need it. */
export interface StoredBuild extends ReleasedBuild {
  id: string;
  releasedAt: number;
  releasedBy: string | null;
  notes: string;
  withdrawnAt: number | null;
  withdrawnBy: string | null;
  withdrawReason: string | null;
  row: BuildRow;
}

const COLUMNS = [
  'id',
  'version',
  'ue54_url',
  'ue55_url',
  'ue56_url',
  'ue57_url',
  'released_at',
  'released_by',
  'notes',
  'required',
  'withdrawn_at',
  'withdrawn_by',
  'withdraw_reason',
] as const;

const URL_COLUMN = { '5.4': 'ue54_url', '5.5': 'ue55_url', '5.6': 'ue56_url', '5.7': 'ue57_url' } as const satisfies Record<
  EngineVersion,
  keyof BuildRow
>;

function storedBuild(row: BuildRow): StoredBuild {
  const urls: Partial<Record<EngineVersion, string>> = {};
  for (const engine of ENGINE_VERSIONS) if (row[URL_COLUMN[engine]]) urls[engine] = row[URL_COLUMN[engine]];
  return {
    id: row.id,
    version: row.version,
    urls,
    required: Number(row.required ?? 0) === 1,
    withdrawn: row.withdrawn_at != null,
    releasedAt: Number(row.released_at),
    releasedBy: row.released_by,
    notes: row.notes ?? '',
    withdrawnAt: row.withdrawn_at == null ? null : Number(row.withdrawn_at),
    withdrawnBy: row.withdrawn_by ?? null,
    withdrawReason: row.withdraw_reason ?? null,
    row,
  };
}

const downloadsOf = (build: StoredBuild): BuildDownload[] =>
  ENGINE_VERSIONS.filter((engine) => build.urls[engine]).map((engine) => ({ engineVersion: engine, url: build.urls[engine] as string }));

/** A build as the download page, the feed and the plugin see it. */
export const publicRelease = (build: StoredBuild): PublicRelease => ({
  version: build.version,
  releasedAt: new Date(build.releasedAt).toISOString(),
  notes: build.notes,
  required: build.required,
  downloads: downloadsOf(build),
});

const sageBuild = (row: BuildRow): SageBuild => ({
  version: row.version,
  ue54Url: row.ue54_url,
  ue55Url: row.ue55_url,
  ue56Url: row.ue56_url,
  ue57Url: row.ue57_url,
});

/** Newest first: by version, then (for versions released twice before issue 41) the later release. */
const newestFirst = (a: StoredBuild, b: StoredBuild): number => compareVersions(b.version, a.version) || b.releasedAt - a.releasedAt;

/**
 * The release channel: the builds the download page offers, their notes, withdrawals, and what an
 * install should update to. A release or a withdrawal and its audit entry are one write.
 */
export function createBuildService(
  db: Db,
  audit: AuditService,
  /** Runs in every release's transaction, whoever releases (the console, the CLI): the release e-mails are queued there. */
  onRelease?: (trx: Db, buildId: string) => Promise<unknown>,
) {
  /** Every build ever released, newest first; `trx` within the caller's transaction. */
  async function all(trx: Db = db): Promise<StoredBuild[]> {
    const rows = await trx.selectFrom('sage_builds').select(COLUMNS).execute();
    return rows.map(storedBuild).sort(newestFirst);
  }

  return {
    all,

    /** The build the download page leads with: the newest one not withdrawn, or null. */
    async current(): Promise<SageBuild | null> {
      const build = (await all()).find((candidate) => !candidate.withdrawn);
      return build ? sageBuild(build.row) : null;
    },

    /** Every released build not withdrawn, newest first (the download page's "Earlier builds" and the feed). */
    async releases(): Promise<PublicRelease[]> {
      return (await all()).filter((build) => !build.withdrawn).map(publicRelease);
    },

    /** The download page's builds, from one read: the current one (null before any release) and every one offered. */
    async offered(): Promise<{ current: SageBuild | null; releases: PublicRelease[] }> {
      const builds = (await all()).filter((build) => !build.withdrawn);
      return { current: builds[0] ? sageBuild(builds[0].row) : null, releases: builds.map(publicRelease) };
    },

    /** The console's history: every build, withdrawn ones too, newest first. */
    async history(): Promise<BuildHistoryItem[]> {
      return (await all()).map((build) => ({
        ...publicRelease(build),
        id: build.version,
        releasedBy: build.releasedBy,
        withdrawnAt: build.withdrawnAt === null ? null : new Date(build.withdrawnAt).toISOString(),
        withdrawnBy: build.withdrawnBy,
        withdrawReason: build.withdrawReason,
      }));
    },

    /**
     * Releases `build`, with its audit entry, in one transaction: the admin console's Release and
     * the CLI's `release` both come here. `actor` is the admin, null from the CLI. The version must
     * be one the product can order and newer than every build released before (withdrawn ones
     * too), so "newest" means the same to people and to the update check. `onRelease` runs in the
     * same transaction (the release e-mails are queued there).
     */
    async release(build: BuildRelease, actor: Actor | null): Promise<SageBuild> {
      if (!isVersion(build.version)) throw new AppError(400, 'invalid_version', `${VERSION_RULE}`);
      return db.transaction().execute(async (trx) => {
        const builds = await all(trx);
        const newest = builds.find((earlier) => isVersion(earlier.version));
        if (newest && compareVersions(build.version, newest.version) <= 0) {
          throw conflict('version_not_newer', `Version ${build.version} is not newer than ${newest.version}, the latest release`);
        }
        // Two in one millisecond still get distinct, ordered stamps.
        const latestStamp = Math.max(0, ...builds.map((earlier) => earlier.releasedAt));
        const releasedAt = Math.max(Date.now(), latestStamp + 1);
        const id = randomUUID();
        await trx
          .insertInto('sage_builds')
          .values({
            id,
            version: build.version,
            ue54_url: build.ue54Url,
            ue55_url: build.ue55Url,
            ue56_url: build.ue56Url,
            ue57_url: build.ue57Url,
            released_at: releasedAt,
            released_by: actor?.id ?? null,
            notes: build.notes ?? '',
            required: build.required ? 1 : 0,
          })
          .execute();
        const released = {
          version: build.version,
          ue54Url: build.ue54Url,
          ue55Url: build.ue55Url,
          ue56Url: build.ue56Url,
          ue57Url: build.ue57Url,
        };
        await audit.record(
          actor,
          {
            action: 'build.release',
            targetType: 'build',
            targetId: build.version,
            after: { ...released, notes: build.notes ?? '', required: build.required ?? false },
          },
          trx,
        );
        await onRelease?.(trx, id);
        return released;
      });
    },

    /**
     * Withdraws (yanks) `version`: it leaves the download page and the update check, stays in the
     * history, and installs on it are told to move. 404 for a version never released, 409 when it
     * already is withdrawn.
     */
    async withdraw(version: string, reason: string, actor: Actor | null): Promise<BuildHistoryItem> {
      await db.transaction().execute(async (trx) => {
        const rows = await trx.selectFrom('sage_builds').select(['id', 'withdrawn_at']).where('version', '=', version).execute();
        if (rows.length === 0) throw new AppError(404, 'build_not_found', `No build ${version} was released`);
        if (rows.every((row) => row.withdrawn_at != null)) throw conflict('build_withdrawn', `Build ${version} is already withdrawn`);
        await trx
          .updateTable('sage_builds')
          .set({ withdrawn_at: Date.now(), withdrawn_by: actor?.id ?? null, withdraw_reason: reason })
          .where('version', '=', version)
          .where('withdrawn_at', 'is', null)
          .execute();
        await audit.record(actor, { action: 'build.withdraw', targetType: 'build', targetId: version, after: { version, reason } }, trx);
      });
      const item = (await this.history()).find((build) => build.version === version);
      if (!item) throw new AppError(404, 'build_not_found', `No build ${version} was released`);
      return item;
    },

    /** What an install of `pluginVersion` on `engine` should do (`GET /api/plugin/updates`, the hand-off). */
    async updateCheck(engine: EngineVersion, pluginVersion: string, builds?: StoredBuild[]): Promise<UpdateCheck> {
      return updateCheckOf(builds ?? (await all()), engine, pluginVersion);
    },

    /** The update check for the versions a plugin said (the hand-off's `update`); null as updateCheckFor says. */
    async updateFor(engineVersion: string | null, pluginVersion: string | null): Promise<UpdateCheck | null> {
      return updateCheckFor(await all(), engineVersion, pluginVersion);
    },
  };
}

/** The update check's answer from the builds as read (pure; the Account section's installs use it too). */
export function updateCheckOf(builds: readonly StoredBuild[], engine: EngineVersion, pluginVersion: string): UpdateCheck {
  const verdict = updateVerdict(builds, engine, pluginVersion);
  return {
    engineVersion: engine,
    pluginVersion,
    updateAvailable: verdict.updateAvailable,
    required: verdict.required,
    reason: verdict.reason,
    latest: verdict.latest ? { ...publicRelease(verdict.latest), downloadUrl: verdict.latest.urls[engine] as string } : null,
    withdrawn: verdict.withdrawn ? { version: verdict.withdrawn.version, reason: verdict.withdrawn.withdrawReason ?? '' } : null,
    releaseNotes: verdict.since.map((build) => ({
      version: build.version,
      releasedAt: new Date(build.releasedAt).toISOString(),
      notes: build.notes,
      required: build.required,
    })),
  };
}

/**
 * The update check for versions an install reported, as said (engine "5.6.1", any text): null when
 * it said none, an engine no build has shipped for, or a plugin version that is not one (pure).
 */
export function updateCheckFor(
  builds: readonly StoredBuild[],
  engineVersion: string | null,
  pluginVersion: string | null,
): UpdateCheck | null {
  const engine = engineVersion ? engineOf(engineVersion) : null;
  if (!engine || !pluginVersion || !isVersion(pluginVersion)) return null;
  return updateCheckOf(builds, engine, pluginVersion);
}

/** An install's update state in the Account section (contract/accountSessions.ts installUpdateSchema), from its update check. */
export function installUpdateOf(check: UpdateCheck | null): InstallUpdate {
  const latest = { latestVersion: check?.latest?.version ?? null, downloadUrl: check?.latest?.downloadUrl ?? null };
  // Its own build withdrawn says more than "unknown", even while no other build ships for its engine.
  if (check?.withdrawn) return { status: 'withdrawn', ...latest, required: check.required };
  if (!check?.latest) return { status: 'unknown', latestVersion: null, downloadUrl: null, required: false };
  return { status: check.updateAvailable ? 'out_of_date' : 'current', ...latest, required: check.required };
}

export type BuildService = ReturnType<typeof createBuildService>;
