import { describe, expect, it } from 'vitest';
import { installName, networkText, otherSessions, sessionName } from '../../src/portal/dashboard/account/sessionsRules';

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
    ['5.4.2', '1.3.0', 'Sage plugin 1.3.0 in Unreal Engine 5.4.2'],
    [null, '1.3.0', 'Sage plugin 1.3.0'],
    ['5.5', null, 'Sage plugin in Unreal Engine 5.5'],
    [null, null, 'Sage plugin'],
  ])('engine %s, plugin %s: %s', (engineVersion, pluginVersion, name) => {
    expect(installName({ engineVersion, pluginVersion })).toBe(name);
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
