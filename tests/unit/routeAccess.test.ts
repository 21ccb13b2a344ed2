import { describe, expect, it } from 'vitest';
import { routeAccess, sessionOf, type AccessDecision, type RouteAccess, type SessionState } from '../../contract/routeAccess';

describe('routeAccess (§2, §6)', () => {
  it.each<[RouteAccess, SessionState, AccessDecision]>([
    ['all', 'loading', { kind: 'show' }],
    ['all', 'absent', { kind: 'show' }],
    ['all', 'present', { kind: 'show' }],
    ['all', 'admin', { kind: 'show' }],
    ['all', 'error', { kind: 'show' }],
    ['signed-in', 'loading', { kind: 'loading' }],
    ['signed-in', 'absent', { kind: 'redirect', to: '/' }],
    ['signed-in', 'present', { kind: 'show' }],
    ['signed-in', 'admin', { kind: 'show' }],
    ['signed-in', 'error', { kind: 'show' }],
    // The sign-in page is pre-rendered for visitors: it shows while the user loads.
    ['anonymous', 'loading', { kind: 'show' }],
    ['anonymous', 'absent', { kind: 'show' }],
    ['anonymous', 'present', { kind: 'redirect', to: '/dashboard' }],
    ['anonymous', 'admin', { kind: 'redirect', to: '/dashboard' }],
    ['anonymous', 'error', { kind: 'show' }],
    ['admin', 'loading', { kind: 'loading' }],
    ['admin', 'absent', { kind: 'redirect', to: '/' }],
    ['admin', 'present', { kind: 'redirect', to: '/dashboard' }],
    ['admin', 'admin', { kind: 'show' }],
    ['admin', 'error', { kind: 'show' }],
  ])('%s route, session %s', (access, session, expected) => {
    expect(routeAccess(access, session)).toEqual(expected);
  });
});

describe('sessionOf', () => {
  const user = { id: 'u1', username: 'ada', email: null, status: 'Active', isAdmin: false, staffRole: null };
  it.each<[string, Parameters<typeof sessionOf>[0], SessionState]>([
    ['signed out', null, 'absent'],
    ['a user', user, 'present'],
    ['an admin', { ...user, isAdmin: true, staffRole: 'admin' }, 'admin'],
  ])('%s', (_name, current, expected) => {
    expect(sessionOf(current)).toBe(expected);
  });
});
