import { describe, expect, it } from 'vitest';
import type { BootData } from '../../contract/boot';
import { pageFor } from '../../contract/pages';
import { startPolicy, type StartPolicy } from '../../contract/startPolicy';
import { testConfig } from '../fixtures/runtimeConfig';

/** The console Home's figures, which the server writes into the Home's page alone. */
const consoleHome = {} as NonNullable<BootData['consoleHome']>;

const analytics = { key: 'phc_test', apiHost: '/ingest', excludedUserIds: [], ipLocation: false };

describe('startPolicy (decisions 010, 032 and 033)', () => {
  it.each<[string, string, Omit<BootData, 'config'>, boolean, StartPolicy]>([
    // A signed-out visitor on a page the server renders: the app waits for the first interaction.
    ['/download', 'signed out', { signedOut: true }, false, 'on-interaction'],
    ['/login', 'signed out', { signedOut: true }, false, 'on-interaction'],
    ['/support', 'signed out', { signedOut: true }, false, 'on-interaction'],
    // A session cookie: the bar must show who is signed in, and /login may redirect.
    ['/download', 'with a session', {}, false, 'now'],
    ['/login', 'with a session', {}, false, 'now'],
    // Analytics records the visit on arrival.
    ['/download', 'signed out, analytics on', { signedOut: true }, true, 'now'],
    // Signed-in pages (a visitor is redirected before any is served).
    ['/dashboard', 'with a session', {}, false, 'now'],
    ['/products-checkout', 'with a session', {}, false, 'now'],
    // The console's Home waits for the admin to approach it, on any screen (decisions 032 and 033)…
    ['/admin', 'an admin, a phone', { consoleHome, screen: 'phone' }, false, 'on-approach'],
    ['/admin/', 'an admin, a phone', { consoleHome, screen: 'phone' }, false, 'on-approach'],
    ['/admin', 'an admin, a desktop', { consoleHome, screen: 'desktop' }, false, 'on-approach'],
    ['/admin', 'an admin, a screen not guessed', { consoleHome }, false, 'on-approach'],
    // …but not when analytics records the visit,
    ['/admin', 'an admin, a phone, analytics on', { consoleHome, screen: 'phone' }, true, 'now'],
    // nor for an account that must first replace its one-time password (no figures in its page),
    ['/admin', 'a one-time password, a phone', { screen: 'phone' }, false, 'now'],
    // nor on the console's other pages, which are the app's shell.
    ['/admin/users', 'an admin, a phone', {}, false, 'now'],
    // Pages the server sends as the app's shell.
    ['/reset-password', 'signed out', { signedOut: true }, false, 'now'],
    ['/no-such-page', 'signed out', { signedOut: true }, false, 'now'],
  ])('%s, %s', (pathname, _who, boot, withAnalytics, expected) => {
    const data: BootData = { ...boot, config: { ...testConfig, analytics: withAnalytics ? analytics : null } };
    expect(startPolicy(pageFor(pathname), data)).toBe(expected);
  });

  it('starts the console at once on a Home laid out for another screen than the browser’s, to lay it out again', () => {
    const data: BootData = { consoleHome, screen: 'desktop', config: { ...testConfig, analytics: null } };
    expect(startPolicy(pageFor('/admin'), data, undefined, false)).toBe('now');
    expect(startPolicy(pageFor('/admin'), data, undefined, true)).toBe('on-approach');
    // The public pages do not depend on the screen.
    expect(startPolicy(pageFor('/download'), { signedOut: true, config: data.config }, undefined, false)).toBe('on-interaction');
  });

  it('starts at once on the sign-in page an e-mail change link landed on, which only the app says', () => {
    const data: BootData = { signedOut: true, config: { ...testConfig, analytics: null } };
    expect(startPolicy(pageFor('/login'), data, new URLSearchParams('emailChange=changed'))).toBe('now');
    expect(startPolicy(pageFor('/login'), data, new URLSearchParams('mode=register'))).toBe('on-interaction');
  });
});
