import type { AuthProvider } from 'react-admin';
import { fetchCurrentUser, logout as endSession } from '../api/auth';
import type { CurrentUser } from '../../contract/user';
import { assignLocation } from '../portal/browser';
import { routeAccess, sessionOf } from '../../contract/routeAccess';

/**
 * Where a visitor of /admin belongs instead, or null for an admin: the portal's own admin-route
 * rule (§2, §6), so the route guard and react-admin never disagree.
 */
function elsewhere(user: CurrentUser | null): string | null {
  const decision = routeAccess('admin', sessionOf(user));
  return decision.kind === 'redirect' ? decision.to : null;
}

/** What react-admin reads from a rejected check: where to go, and `message: false` for no notification. */
interface AuthRejection {
  redirectTo: string;
  message: false;
}

/**
 * react-admin's view of the session (`GET /api/user`, shared with the portal's session hook through
 * `fetchCurrentUser`). Every refused check ends in `logout`, which decides where the browser goes:
 * signed out → `/`, a signed-in non-admin → the portal's `/dashboard` (keeping their session), an
 * admin → the session is ended, then `/`. Those places are outside react-admin's `/admin` basename,
 * so the browser is sent there (`assignLocation`) and react-admin is told not to navigate itself.
 */
export const authProvider = {
  /** Signing in happens on the portal's /login; the console has no login page. */
  async login() {
    throw new Error('Sign in at /login');
  },

  async checkAuth() {
    const redirectTo = elsewhere(await fetchCurrentUser());
    if (redirectTo) throw { redirectTo, message: false } satisfies AuthRejection;
  },

  /** Only a 401 means the session is gone; a 403 (say, a refused action) keeps the admin here. */
  async checkError(error: unknown) {
    const status = (error as { status?: unknown } | null)?.status;
    if (status === 401) throw { redirectTo: '/', message: false } satisfies AuthRejection;
  },

  async logout() {
    // A failed look-up is treated as signed out: the console cannot be used either way.
    const user = await fetchCurrentUser().catch(() => null);
    const redirectTo = elsewhere(user);
    if (!redirectTo) await endSession();
    assignLocation(redirectTo ?? '/');
    return false;
  },

  async getIdentity() {
    const user = await fetchCurrentUser();
    if (!user) throw new Error('Not signed in');
    return { id: user.id, fullName: user.username, email: user.email ?? undefined };
  },

  async getPermissions() {
    const user = await fetchCurrentUser();
    return { isAdmin: user?.isAdmin ?? false };
  },
} satisfies AuthProvider;
