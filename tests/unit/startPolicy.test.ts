import { describe, expect, it } from 'vitest';
import type { BootData } from '../../contract/boot';
import { pageFor } from '../../contract/pages';
import { startPolicy, type StartPolicy } from '../../contract/startPolicy';
import { testConfig } from '../fixtures/runtimeConfig';

/** The console Home's figures, which the server writes into the Home's page alone. */
const consoleHome = {} as NonNullable<BootData['consoleHome']>;

const analytics = { key: 'phc_test', apiHost: '/ingest', excludedUserIds: [], ipLocation: false };

describe('startPolicy (decisions 010 and 035)', () => {
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
    // The console's Home starts at once on any screen (decision 035): nothing waits for the admin's hand,
    ['/admin', 'an admin', { consoleHome }, false, 'now'],
    ['/admin/', 'an admin', { consoleHome }, false, 'now'],
    ['/admin', 'an admin, analytics on', { consoleHome }, true, 'now'],
    // as do an account that must first replace its one-time password and the console's other pages.
    ['/admin', 'a one-time password', {}, false, 'now'],
    ['/admin/users', 'an admin', {}, false, 'now'],
    // Pages the server sends as the app's shell.
    ['/reset-password', 'signed out', { signedOut: true }, false, 'now'],
    ['/no-such-page', 'signed out', { signedOut: true }, false, 'now'],
  ])('%s, %s', (pathname, _who, boot, withAnalytics, expected) => {
    const data: BootData = { ...boot, config: { ...testConfig, analytics: withAnalytics ? analytics : null } };
    expect(startPolicy(pageFor(pathname), data)).toBe(expected);
  });

  it('starts at once on the sign-in page an e-mail change link landed on, which only the app says', () => {
    const data: BootData = { signedOut: true, config: { ...testConfig, analytics: null } };
    expect(startPolicy(pageFor('/login'), data, new URLSearchParams('emailChange=changed'))).toBe('now');
    expect(startPolicy(pageFor('/login'), data, new URLSearchParams('mode=register'))).toBe('on-interaction');
  });
});
