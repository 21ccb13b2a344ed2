/**
 * Plugin versions and engine versions (issue 41): which is newer, and which build serves which
 * engine. Pure rules, shared by the server, the portal and the console; table-tested in
 * tests/unit/pluginVersions.test.ts.
 *
 * A version is numbers separated by dots or hyphens, optionally one letter right after the last
 * number (a same-day rebuild: 2025-07-15a), optionally a pre-release after a hyphen that starts with
 * a letter (1.3.0-beta, 1.3.0-rc.2). Both styles the product has used order correctly:
 * 2025-07-15 < 2025-07-15a < 2025-07-15b < 2025-07-16, and 1.3.0-beta < 1.3.0-rc.2 < 1.3.0 < 1.10.0.
 */

/** The longest version anybody may release or report. */
export const VERSION_MAX_LENGTH = 50;

const VERSION = /^(\d{1,9}(?:[.-]\d{1,9})*)([a-z]?)(?:-([a-z][0-9a-z.-]*))?$/i;

/** Says what a version must look like (the 400's message). */
export const VERSION_RULE = 'A version is numbers separated by dots or hyphens, like 1.4.0 or 2025-07-15a';

interface ParsedVersion {
  numbers: number[];
  /** The letter after the last number ('' when none): a later rebuild of the same numbers. */
  revision: string;
  /** Dot-separated pre-release identifiers; empty for a release. */
  preRelease: string[];
}

function parse(version: string): ParsedVersion | null {
  if (version.length > VERSION_MAX_LENGTH) return null;
  const match = VERSION.exec(version);
  if (!match) return null;
  return {
    numbers: (match[1] ?? '').split(/[.-]/).map(Number),
    revision: (match[2] ?? '').toLowerCase(),
    preRelease: match[3] ? match[3].toLowerCase().split(/[.-]/) : [],
  };
}

/** Whether `version` is one this product can order. */
export const isVersion = (version: string): boolean => parse(version) !== null;

function compareIdentifiers(a: string, b: string): number {
  const aNumber = /^\d+$/.test(a);
  const bNumber = /^\d+$/.test(b);
  if (aNumber && bNumber) return Number(a) - Number(b);
  // As in semantic versioning: numeric identifiers sort before words.
  if (aNumber !== bNumber) return aNumber ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Negative when `a` is older than `b`, positive when newer, 0 when the same version. Missing
 * trailing numbers count as 0 (1.4 = 1.4.0). Versions that cannot be ordered sort before any that
 * can, and among themselves by text, so a list always sorts.
 */
export function compareVersions(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  if (!left || !right) {
    if (left) return 1;
    if (right) return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  for (let i = 0; i < Math.max(left.numbers.length, right.numbers.length); i++) {
    const diff = (left.numbers[i] ?? 0) - (right.numbers[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (left.revision !== right.revision) return left.revision < right.revision ? -1 : 1;
  // A pre-release comes before its release.
  if (left.preRelease.length === 0 || right.preRelease.length === 0) return right.preRelease.length - left.preRelease.length;
  for (let i = 0; i < Math.max(left.preRelease.length, right.preRelease.length); i++) {
    if (left.preRelease[i] === undefined) return -1;
    if (right.preRelease[i] === undefined) return 1;
    const diff = compareIdentifiers(left.preRelease[i] ?? '', right.preRelease[i] ?? '');
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** The engines a build may ship for, oldest first (5.4's support ended 2025-08-20; old builds still carry it). */
export const ENGINE_VERSIONS = ['5.4', '5.5', '5.6', '5.7'] as const;
export type EngineVersion = (typeof ENGINE_VERSIONS)[number];

/**
 * The engine an install reports, as the builds know it: "5.6" and "5.6.1" are 5.6. Null for an
 * engine no build has ever shipped for (or text that is not an engine version).
 */
export function engineOf(reported: string): EngineVersion | null {
  const match = /^(\d{1,3})\.(\d{1,3})(?:\.\d{1,5})?$/.exec(reported.trim());
  if (!match) return null;
  const engine = `${Number(match[1])}.${Number(match[2])}`;
  return (ENGINE_VERSIONS as readonly string[]).includes(engine) ? (engine as EngineVersion) : null;
}

/** A released build as the release rules see it. */
export interface ReleasedBuild {
  version: string;
  /** Download per engine: an empty or missing URL means the build does not ship for that engine. */
  urls: Partial<Record<EngineVersion, string>>;
  /** Builds older than this one must update. */
  required: boolean;
  withdrawn: boolean;
}

/** Whether `build` ships for `engine`. */
export const shipsFor = (build: ReleasedBuild, engine: EngineVersion): boolean => Boolean(build.urls[engine]);

/** The builds offered for `engine` (shipping for it, not withdrawn), newest first. */
export function buildsFor<T extends ReleasedBuild>(builds: readonly T[], engine: EngineVersion): T[] {
  return builds.filter((build) => !build.withdrawn && shipsFor(build, engine)).sort((a, b) => compareVersions(b.version, a.version));
}

/** What an install on `installed` for `engine` should do. */
export interface UpdateVerdict<T extends ReleasedBuild> {
  /** The build to run: the newest offered for the engine; null when none ships for it. */
  latest: T | null;
  /** `latest` differs from the install's build and the install should move to it. */
  updateAvailable: boolean;
  /** The install must move: its build was withdrawn, or a required build is newer than it. */
  required: boolean;
  /** Why it must: 'withdrawn' wins over 'required_update'; null when it need not. */
  reason: 'withdrawn' | 'required_update' | null;
  /** The install's own build, when it was released and then withdrawn. */
  withdrawn: T | null;
  /** The offered builds newer than the install's, up to `latest`, newest first (their notes are what changed). */
  since: T[];
}

/**
 * The update rule (issue 41): the newest build offered for the engine; newer than the install's, or
 * the install's own build withdrawn (then even an older build is the one to move to). The update is
 * required when a required build newer than the install's is offered, or the install's build was
 * withdrawn.
 */
export function updateVerdict<T extends ReleasedBuild>(builds: readonly T[], engine: EngineVersion, installed: string): UpdateVerdict<T> {
  const offered = buildsFor(builds, engine);
  const latest = offered[0] ?? null;
  const withdrawn = builds.find((build) => build.withdrawn && compareVersions(build.version, installed) === 0) ?? null;
  const since = offered.filter((build) => compareVersions(build.version, installed) > 0);
  const newer = since.length > 0;
  const movesAway = withdrawn !== null && latest !== null && compareVersions(latest.version, installed) !== 0;
  const requiredBuildNewer = since.some((build) => build.required);
  const reason = withdrawn ? 'withdrawn' : requiredBuildNewer ? 'required_update' : null;
  return {
    latest,
    updateAvailable: newer || movesAway,
    required: reason !== null && (newer || movesAway),
    reason: newer || movesAway ? reason : null,
    withdrawn,
    since: since.length > 0 ? since : movesAway && latest ? [latest] : [],
  };
}
