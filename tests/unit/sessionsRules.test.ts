import { describe, expect, it } from 'vitest';
import type { InstallUpdate } from '../../contract/accountSessions';
import { installName, installUpdateMark, networkText, otherSessions, sessionName } from '../../src/portal/dashboard/account/sessionsRules';

describe("Where you're signed in: how a session is named (issue 27)", () => {
  it.each([
    ['Chrome', 'Windows', 'Chrome on Windows'],
    ['Safari', 'iOS', 'Safari on iOS'],
    ['Firefox', 'Unknown', 'Firefox'],
    ['Unknown', 'Linux', 'A browser on Linux'],
    ['Unknown', 'Unknown', 'Unknown browser'],
  ])('%s on %s: %s', (browser, os, name) => {
    expect(sessionName({ browser, os })).toBe(name);
  });
});

describe('how a plugin install is named', () => {
  it.each([
    ['5.4.2', '1.3.0', 'Sage 1.3.0 · Unreal Engine 5.4.2'],
    [null, '1.3.0', 'Sage 1.3.0'],
    ['5.5', null, 'Sage plugin · Unreal Engine 5.5'],
    [null, null, 'Sage plugin'],
  ])('engine %s, plugin %s: %s', (engineVersion, pluginVersion, name) => {
    expect(installName({ engineVersion, pluginVersion })).toBe(name);
  });
});

describe("how an install's build is marked (issue 41)", () => {
  const URL = 'https://dl.test/1.2.0/ue5.6.zip';
  const download = { label: 'Download 1.2.0', href: URL };
  const update = (status: InstallUpdate['status'], required = false): InstallUpdate => ({
    status,
    latestVersion: status === 'unknown' ? null : '1.2.0',
    downloadUrl: status === 'unknown' ? null : URL,
    required,
  });
  it.each<[string, InstallUpdate, ReturnType<typeof installUpdateMark>]>([
    ['current', update('current'), { text: 'Up to date', tone: 'success', download: null }],
    ['out of date', update('out_of_date'), { text: 'Update available', tone: 'warning', download }],
    ['out of date, required', update('out_of_date', true), { text: 'Update required', tone: 'error', download }],
    ['withdrawn', update('withdrawn', true), { text: 'Withdrawn build — update required', tone: 'error', download }],
    [
      'withdrawn, nothing to move to',
      { status: 'withdrawn', latestVersion: null, downloadUrl: null, required: false },
      { text: 'Withdrawn build — update required', tone: 'error', download: null },
    ],
    ['unknown', update('unknown'), null],
  ])('%s', (_name, given, mark) => {
    expect(installUpdateMark(given)).toEqual(mark);
  });
});

describe('the figures around it', () => {
  it.each([
    ['203.0.113.0/24', '203.0.113.0/24'],
    [null, 'Not known'],
  ])('network %s: %s', (network, text) => {
    expect(networkText(network)).toBe(text);
  });

  it.each([
    [0, '0 other sessions'],
    [1, '1 other session'],
    [2, '2 other sessions'],
  ])('%i: %s', (count, text) => {
    expect(otherSessions(count)).toBe(text);
  });
});
