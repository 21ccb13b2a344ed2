import { describe, expect, it } from 'vitest';
import { routeAccess, type AccessDecision, type RouteAccess, type SessionState } from '../../src/portal/routeAccess';

describe('routeAccess (§2, §6)', () => {
  it.each<[RouteAccess, SessionState, AccessDecision]>([
    ['all', 'loading', { kind: 'show' }],
    ['all', 'absent', { kind: 'show' }],
    ['all', 'present', { kind: 'show' }],
    ['all', 'error', { kind: 'show' }],
    ['signed-in', 'loading', { kind: 'loading' }],
    ['signed-in', 'absent', { kind: 'redirect', to: '/' }],
    ['signed-in', 'present', { kind: 'show' }],
    ['signed-in', 'error', { kind: 'show' }],
    ['anonymous', 'loading', { kind: 'loading' }],
    ['anonymous', 'absent', { kind: 'show' }],
    ['anonymous', 'present', { kind: 'redirect', to: '/dashboard' }],
    ['anonymous', 'error', { kind: 'show' }],
  ])('%s route, session %s', (access, session, expected) => {
    expect(routeAccess(access, session)).toEqual(expected);
  });
});
