import { describe, expect, it } from 'vitest';
import { buildsFor, compareVersions, engineOf, isVersion, type ReleasedBuild, updateVerdict } from '../../contract/pluginVersions';

describe('version ordering', () => {
  // older, newer: both date-style rebuilds and semantic versions with pre-releases.
  const ORDERED: [string, string][] = [
    ['2025-07-15', '2025-07-15a'],
    ['2025-07-15a', '2025-07-15b'],
    ['2025-07-15z', '2025-07-16'],
    ['2025-07-31b', '2025-08-01'],
    ['2025-12-31', '2026-01-01a'],
    ['1.3.0-beta', '1.3.0'],
    ['1.3.0-beta', '1.3.0-rc.2'],
    ['1.3.0-rc.2', '1.3.0-rc.10'],
    ['1.3.0-rc', '1.3.0-rc.1'],
    // A number after a hyphen is a number like any other (dates use hyphens): 1.3.0-1 is after 1.3.0.
    ['1.3.0', '1.3.0-1'],
    ['1.9.0', '1.10.0'],
    ['1.4', '1.4.1'],
    ['0.9.9', '1.0.0'],
    ['not a version', '0.0.1'],
  ];
  it.each(ORDERED)('%s is older than %s', (older, newer) => {
    expect(compareVersions(older, newer)).toBeLessThan(0);
    expect(compareVersions(newer, older)).toBeGreaterThan(0);
  });

  const SAME: [string, string][] = [
    ['1.4', '1.4.0'],
    ['2025-07-15A', '2025-07-15a'],
    ['1.3.0-BETA', '1.3.0-beta'],
  ];
  it.each(SAME)('%s is the same version as %s', (a, b) => expect(compareVersions(a, b)).toBe(0));

  const VALIDITY: [string, boolean][] = [
    ['2025-07-15a', true],
    ['1.4.0', true],
    ['1.3.0-rc.2', true],
    ['5', true],
    ['', false],
    ['v1.4.0', false],
    ['1.4.0+build.5', false],
    ['1..4', false],
    ['1.4.0-', false],
    ['2025-07-15ab', false],
    ['<script>', false],
    ['1'.repeat(51), false],
  ];
  it.each(VALIDITY)('%j is a version: %s', (version, valid) => expect(isVersion(version)).toBe(valid));

  it('sorts any list, versions or not', () => {
    expect(['1.10.0', 'x', '1.9.0', '1.9.0-beta'].sort(compareVersions)).toEqual(['x', '1.9.0-beta', '1.9.0', '1.10.0']);
  });
});

describe('engine versions', () => {
  const ENGINES: [string, string | null][] = [
    ['5.6', '5.6'],
    ['5.6.1', '5.6'],
    [' 5.7.0 ', '5.7'],
    ['5.4.2', '5.4'],
    ['05.05', '5.5'],
    ['5.8', null],
    ['4.27', null],
    ['5', null],
    ['5.6-preview', null],
    ['UE5.6', null],
  ];
  it.each(ENGINES)('%j is engine %s', (reported, engine) => expect(engineOf(reported)).toBe(engine));
});

const build = (version: string, engines: string[], extra: Partial<ReleasedBuild> = {}): ReleasedBuild => ({
  version,
  urls: Object.fromEntries(engines.map((engine) => [engine, `https://cdn.example/${version}/${engine}.zip`])),
  required: false,
  withdrawn: false,
  ...extra,
});

describe('which build for which engine', () => {
  const BUILDS = [
    build('1.0.0', ['5.4', '5.5', '5.6']),
    build('1.1.0', ['5.5', '5.6', '5.7']),
    build('1.2.0', ['5.6', '5.7']),
    build('1.3.0', ['5.6', '5.7'], { withdrawn: true }),
  ];
  const FOR: [string, string[]][] = [
    ['5.4', ['1.0.0']],
    ['5.5', ['1.1.0', '1.0.0']],
    ['5.6', ['1.2.0', '1.1.0', '1.0.0']],
    ['5.7', ['1.2.0', '1.1.0']],
  ];
  it.each(FOR)('UE %s is offered %j, newest first, never a withdrawn build', (engine, versions) => {
    expect(buildsFor(BUILDS, engine as '5.5').map((b) => b.version)).toEqual(versions);
  });
});

describe('the update rule', () => {
  const BUILDS = [
    build('1.0.0', ['5.5', '5.6']),
    build('1.1.0', ['5.5', '5.6'], { required: true }),
    build('1.2.0', ['5.5', '5.6']),
    build('1.3.0', ['5.6'], { withdrawn: true }),
    build('1.4.0', ['5.6']),
  ];
  // engine, installed: latest, update available, required, reason, notes since (newest first)
  const TABLE: [string, string, string | null, boolean, boolean, string | null, string[]][] = [
    ['5.6', '1.4.0', '1.4.0', false, false, null, []],
    ['5.6', '1.2.0', '1.4.0', true, false, null, ['1.4.0']],
    ['5.6', '1.0.0', '1.4.0', true, true, 'required_update', ['1.4.0', '1.2.0', '1.1.0']],
    ['5.6', '1.1.0-beta', '1.4.0', true, true, 'required_update', ['1.4.0', '1.2.0', '1.1.0']],
    ['5.6', '1.3.0', '1.4.0', true, true, 'withdrawn', ['1.4.0']],
    ['5.6', '1.5.0', '1.4.0', false, false, null, []],
    // 5.5 has nothing newer than 1.2.0; a newer build for 5.6 alone does not concern it.
    ['5.5', '1.2.0', '1.2.0', false, false, null, []],
    ['5.5', '1.1.0', '1.2.0', true, false, null, ['1.2.0']],
    ['5.7', '1.2.0', null, false, false, null, []],
  ];
  it.each(TABLE)('UE %s on %s: latest %s, update %s, required %s (%s)', (engine, installed, latest, update, required, reason, since) => {
    const verdict = updateVerdict(BUILDS, engine as '5.6', installed);
    expect(verdict.latest?.version ?? null).toBe(latest);
    expect(verdict.updateAvailable).toBe(update);
    expect(verdict.required).toBe(required);
    expect(verdict.reason).toBe(reason);
    expect(verdict.since.map((b) => b.version)).toEqual(since);
  });

  it('moves an install off a withdrawn build even to an older one', () => {
    const builds = [build('2.0.0', ['5.6']), build('2.1.0', ['5.6'], { withdrawn: true })];
    const verdict = updateVerdict(builds, '5.6', '2.1.0');
    expect(verdict).toMatchObject({ updateAvailable: true, required: true, reason: 'withdrawn' });
    expect(verdict.latest?.version).toBe('2.0.0');
    expect(verdict.withdrawn?.version).toBe('2.1.0');
    expect(verdict.since.map((b) => b.version)).toEqual(['2.0.0']);
  });

  it('tells an install its build was withdrawn even when nothing else ships for its engine', () => {
    const verdict = updateVerdict([build('2.1.0', ['5.7'], { withdrawn: true })], '5.7', '2.1.0');
    expect(verdict).toMatchObject({ latest: null, updateAvailable: false, required: false, reason: null });
    expect(verdict.withdrawn?.version).toBe('2.1.0');
  });
});
