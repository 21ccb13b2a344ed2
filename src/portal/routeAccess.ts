/** Who may open a route (§2, §6). */
export type RouteAccess = 'all' | 'anonymous' | 'signed-in';

/** `error`: the user lookup failed for a reason other than 401, so we do not know. */
export type SessionState = 'loading' | 'absent' | 'present' | 'error';

export type AccessDecision = { kind: 'show' } | { kind: 'loading' } | { kind: 'redirect'; to: string };

/** The guard rule as a pure function: what a route shows for a session state. */
export function routeAccess(access: RouteAccess, session: SessionState): AccessDecision {
  if (access === 'all') return { kind: 'show' };
  if (session === 'loading') return { kind: 'loading' };
  // An unknown session is not a signed-out one: the screen shows its own error (§2 Dashboard).
  if (session === 'error') return { kind: 'show' };
  if (access === 'signed-in') return session === 'present' ? { kind: 'show' } : { kind: 'redirect', to: '/' };
  return session === 'present' ? { kind: 'redirect', to: '/dashboard' } : { kind: 'show' };
}
