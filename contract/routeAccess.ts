import type { RouteAccess } from './pages';
import type { CurrentUser } from './user';

export type { RouteAccess };

/**
 * `present`: signed in, not an admin; `admin`: signed in with isAdmin. `error`: the user lookup
 * failed for a reason other than 401, so we do not know.
 */
export type SessionState = 'loading' | 'absent' | 'present' | 'admin' | 'error';

export type AccessDecision = { kind: 'show' } | { kind: 'loading' } | { kind: 'redirect'; to: string };

/** The session state of a known current user (null: the server said 401). */
export function sessionOf(user: CurrentUser | null): 'absent' | 'present' | 'admin' {
  if (!user) return 'absent';
  return user.isAdmin ? 'admin' : 'present';
}

/**
 * The guard rule as a pure function, applied by the server before it serves a page and by the
 * browser's route guard (src/portal/guards.tsx): what a route shows for a session state. Signed-in routes
 * send visitors to /; the admin route also sends a signed-in non-admin to /dashboard.
 */
export function routeAccess(access: RouteAccess, session: SessionState): AccessDecision {
  if (access === 'all') return { kind: 'show' };
  // The sign-in page shows at once (it is pre-rendered for visitors) and moves a signed-in user on when the answer comes.
  if (session === 'loading') return access === 'anonymous' ? { kind: 'show' } : { kind: 'loading' };
  // An unknown session is not a signed-out one: the screen shows its own error (§2 Dashboard).
  if (session === 'error') return { kind: 'show' };
  const signedIn = session !== 'absent';
  if (access === 'anonymous') return signedIn ? { kind: 'redirect', to: '/dashboard' } : { kind: 'show' };
  if (!signedIn) return { kind: 'redirect', to: '/' };
  if (access === 'admin' && session !== 'admin') return { kind: 'redirect', to: '/dashboard' };
  return { kind: 'show' };
}
