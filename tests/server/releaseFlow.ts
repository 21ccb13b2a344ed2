import { ENGINE_VERSIONS, type EngineVersion } from '../../contract/pluginVersions';
import { createAuditService } from '../../server/services/audit';
import { type BuildRelease, createBuildService } from '../../server/services/builds';
import type { Db } from '../../server/db';

/** Where a test build of `version` downloads for `engine`. */
export const downloadUrl = (version: string, engine: EngineVersion) => `https://dl.test/${version}/ue${engine}.zip`;

/** A build of `version` shipping for `engines` (5.5–5.7 unless said), with its notes and required flag. */
export function testBuild(
  version: string,
  {
    engines = ['5.5', '5.6', '5.7'],
    notes = `Sage ${version}`,
    required = false,
  }: Partial<{ engines: EngineVersion[]; notes: string; required: boolean }> = {},
): BuildRelease {
  const url = (engine: EngineVersion) => (engines.includes(engine) ? downloadUrl(version, engine) : '');
  const [ue54Url, ue55Url, ue56Url, ue57Url] = ENGINE_VERSIONS.map(url) as [string, string, string, string];
  return { version, ue54Url, ue55Url, ue56Url, ue57Url, notes, required };
}

/**
 * The build service on a database with no build: releases must be newer than every earlier one,
 * and a suite's database is shared by its tests, so each test that releases starts afresh.
 */
export async function freshBuilds(db: Db) {
  await db.deleteFrom('sage_builds').execute();
  const builds = createBuildService(db, createAuditService(db));
  return {
    ...builds,
    /** Releases each build in turn, as the CLI would. */
    async releaseAll(...releases: BuildRelease[]) {
      for (const build of releases) await builds.release(build, null);
    },
  };
}
