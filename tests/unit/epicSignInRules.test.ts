import { describe, expect, it } from 'vitest';
import { AUTH_FAILURE_REASONS, type AuthStatus, type SignInClient } from '../../contract/epic';
import {
  clientFromSearch,
  failureText,
  loginCompletedView,
  nextStep,
  UNEXPECTED_FAILURE,
  type LoginCompletedView,
  type NextStep,
} from '../../src/portal/epicSignIn/rules';

describe('failureText (§2 Authentication failed)', () => {
  it.each<[string, RegExp | string]>([
    ['canceled', 'Epic Login was canceled'],
    ['state_mismatch', 'Security validation failed. Please try again.'],
    ['token_exchange_failed', /failed to exchange authorization code/],
    ['user_info_failed', /failed to retrieve user information from Epic Games/],
    ['server_error', /a server error occurred/],
    ['invalid_redirect_uri', /A UE loopback redirect must be localhost or 127\.0\.0\.1 over http/],
    ['invalid_plugin_request', /incomplete or malformed/],
    ['verification_required', /has not been verified yet/],
    ['rate_limited', /Too many sign-in attempts/],
  ])('%s', (reason, description) => {
    const text = failureText(reason);
    if (typeof description === 'string') expect(text.description).toBe(description);
    else expect(text.description).toMatch(description);
    expect(text.title).not.toBe('');
    expect(text).not.toEqual(UNEXPECTED_FAILURE);
  });

  it('gives each known reason its own description', () => {
    const descriptions = AUTH_FAILURE_REASONS.map((reason) => failureText(reason).description);
    expect(new Set(descriptions).size).toBe(AUTH_FAILURE_REASONS.length);
  });

  it('sends only a suspended account to support: signing in again cannot help it', () => {
    expect(failureText('account_suspended')).toMatchObject({ title: 'Account Suspended', contactSupport: true });
    const others = [...AUTH_FAILURE_REASONS.filter((reason) => reason !== 'account_suspended'), null];
    for (const reason of others) expect(failureText(reason).contactSupport, String(reason)).toBeUndefined();
  });

  it('titles a cancel differently from a failure', () => {
    expect(failureText('canceled').title).toBe('Login Canceled');
    expect(failureText('state_mismatch').title).toBe('Authentication Failed');
  });

  it.each<[string, string | null]>([
    ['missing', null],
    ['empty', ''],
    ['unknown', 'something_else'],
    ['differently cased', 'CANCELED'],
    ['an Object.prototype key', 'toString'],
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
  ])('a %s reason gets the unexpected-error text', (_name, reason) => {
    expect(failureText(reason)).toEqual(UNEXPECTED_FAILURE);
    expect(failureText(reason).description).toBe('An unexpected error occurred. Please try again.');
  });
});

describe('nextStep (where a server-given next leads)', () => {
  it.each<[string, NextStep]>([
    ['/login_completed?client=web', { kind: 'route', to: '/login_completed?client=web' }],
    ['/email-verification?email=a%40b.co&client=ue', { kind: 'route', to: '/email-verification?email=a%40b.co&client=ue' }],
    ['/', { kind: 'route', to: '/' }],
    ['/apiary', { kind: 'route', to: '/apiary' }],
    ['/api/auth/callback-internal', { kind: 'server', url: '/api/auth/callback-internal' }],
    ['/api/auth/login?client=ue', { kind: 'server', url: '/api/auth/login?client=ue' }],
    ['/api', { kind: 'server', url: '/api' }],
  ])('follows %s', (next, expected) => {
    expect(nextStep(next)).toEqual(expected);
  });

  it.each<[string, string | null | undefined]>([
    ['a protocol-relative URL', '//evil.com'],
    ['a protocol-relative API-looking URL', '//evil.com/api/auth/callback-internal'],
    ['an absolute https URL', 'https://evil.com/login_completed'],
    ['an absolute http URL', 'http://localhost/login_completed'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a backslash trick', '/\\evil.com'],
    ['a backslash later on', '/api\\..\\evil'],
    ['a tab', '/\t/evil.com'],
    ['a newline', '/login_completed\n'],
    ['a relative path', 'login_completed'],
    ['empty', ''],
    ['null', null],
    ['undefined', undefined],
  ])('refuses %s', (_name, next) => {
    expect(nextStep(next)).toEqual({ kind: 'invalid' });
  });
});

const status = (overrides: { authenticated?: boolean; user?: AuthStatus['user']; ue?: Partial<AuthStatus['ue']> } = {}): AuthStatus => ({
  authenticated: overrides.authenticated ?? true,
  user: overrides.user === undefined ? { email: 'ada@example.com' } : overrides.user,
  ue: { enabled: false, status: null, message: null, ...overrides.ue },
});

describe('loginCompletedView (§2, §4 Login completed)', () => {
  it.each<[string, SignInClient, AuthStatus, LoginCompletedView]>([
    ['web, signed in', 'web', status(), 'success'],
    ['web, signed out', 'web', status({ authenticated: false, user: null }), 'error'],
    ['ue, signed in, hand-off waiting', 'ue', status({ ue: { enabled: true } }), 'deliver'],
    ['ue, signed in, hand-off waiting, status success', 'ue', status({ ue: { enabled: true, status: 'success' } }), 'deliver'],
    // A hand-off waits for this browser even when the page was opened as web (e.g. after the link step).
    ['web, signed in, hand-off waiting', 'web', status({ ue: { enabled: true } }), 'deliver'],
    ['ue, signed out, hand-off waiting', 'ue', status({ authenticated: false, user: null, ue: { enabled: true } }), 'error'],
    ['ue, signed in, nothing to deliver', 'ue', status(), 'success'],
    ['ue, signed in, delivered already', 'ue', status({ ue: { status: 'success' } }), 'success'],
    ['ue, signed out, nothing to deliver', 'ue', status({ authenticated: false, user: null }), 'error'],
    ['ue, failed', 'ue', status({ ue: { status: 'failed', message: 'Epic said no' } }), 'error'],
    ['ue, canceled', 'ue', status({ ue: { status: 'canceled', message: 'Canceled' } }), 'error'],
    ['ue, canceled, signed out', 'ue', status({ authenticated: false, user: null, ue: { status: 'canceled' } }), 'error'],
    ['web, plugin failed, signed in', 'web', status({ ue: { status: 'failed' } }), 'success'],
    ['web, plugin canceled, signed out', 'web', status({ authenticated: false, user: null, ue: { status: 'canceled' } }), 'error'],
  ])('%s → %s', (_name, client, authStatus, expected) => {
    expect(loginCompletedView(client, authStatus)).toBe(expected);
  });
});

describe('clientFromSearch', () => {
  it.each<[string | null, SignInClient]>([
    ['ue', 'ue'],
    ['web', 'web'],
    [null, 'web'],
    ['', 'web'],
    ['UE', 'web'],
    [' ue', 'web'],
    ['plugin', 'web'],
  ])('%j → %s', (value, expected) => {
    expect(clientFromSearch(value)).toBe(expected);
  });
});
