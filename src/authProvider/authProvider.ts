import type { QueryClient } from '@tanstack/react-query';
import type { AuthProvider } from 'react-admin';
import { logout as endSession } from '../api/auth';
import { assignLocation } from '../browser';
import { PASSWORD_CHANGE_REQUIRED } from '../../contract/accountPassword';
import { ERROR_CODES } from '../../contract/errors';
import type { StaffRole } from '../../contract/staffRoles';
import type { CurrentUser } from '../../contract/user';
import { routeAccess, sessionOf } from '../../contract/routeAccess';
import { currentUserQuery, USER_QUERY_KEY } from './session';

/**
 * Where a visitor of /admin belongs instead, or null for an admin: the portal's own admin-route
 * rule (§2, §6), so the route guard and react-admin never disagree.
 */
function elsewhere(user: CurrentUser | null): string | null {
  const decision = routeAccess('admin', sessionOf(user));
  return decision.kind === 'redirect' ? decision.to : null;
}

/** The console's permissions: whether the user may open it, and their role there. */
export interface StaffPermissions {
  isAdmin: boolean;
  role: StaffRole | null;
}

/** The console's permissions of a user, as getPermissions answers them. */
const permissionsOf = (user: CurrentUser | null): StaffPermissions => ({ isAdmin: user?.isAdmin ?? false, role: user?.staffRole ?? null });

/** The identity react-admin shows (the user menu), as getIdentity answers it. */
const identityOf = (user: CurrentUser) => ({ id: user.id, fullName: user.username, email: user.email ?? undefined });

/** What react-admin reads from a rejected check: where to go, and `message: false` for no notification. */
interface AuthRejection {
  redirectTo: string;
  message: false;
}

/**
 * react-admin's view of the session, read through the portal's query client: the user is the
 * portal's `['user']` query (`currentUserQuery`), so the checks react-admin runs on every route
 * change ask nothing the page already knows, and one page load makes one `GET /api/user`. The
 * console learns that the session changed from its calls' answers instead (`checkError`).
 *
 * Every refused check ends in `logout`, which decides where the browser goes: signed out → `/`, a
 * signed-in non-admin → the portal's `/dashboard` (keeping their session), an admin → the session
 * is ended, then `/`. Those places are outside react-admin's `/admin` basename, so the browser is
 * sent there (`assignLocation`) and react-admin is told not to navigate itself.
 */
export function createAuthProvider(queryClient: QueryClient) {
  const currentUser = () => queryClient.fetchQuery(currentUserQuery);

  return {
    /** Signing in happens on the portal's /login; the console has no login page. */
    async login() {
      throw new Error('Sign in at /login');
    },

    async checkAuth() {
      const redirectTo = elsewhere(await currentUser());
      if (redirectTo) throw { redirectTo, message: false } satisfies AuthRejection;
    },

    /**
     * Only a 401 means the session is gone; a 403 (say, a refused action) keeps the admin here,
     * unless it is the "Admins only" refusal and the user, read again, is no longer an admin.
     * A 403 `password_change_required` (a one-time password still stands) reads the user again:
     * the portal's guard around /admin then shows the form that sets the password instead of the
     * console, and brings the console back once it is set; the session is kept.
     */
    async checkError(error: unknown) {
      const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
      if (status === 401) {
        // What a 401 of `GET /api/user` would say: the portal's screens see the same.
        queryClient.setQueryData(USER_QUERY_KEY, null);
        throw { redirectTo: '/', message: false } satisfies AuthRejection;
      }
      // Likewise a 403 `second_factor_required` (issue 40): /admin's guard then shows the setup.
      if (code === PASSWORD_CHANGE_REQUIRED.error || code === ERROR_CODES.secondFactorRequired) {
        await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 }).catch(() => undefined);
        return;
      }
      if (code === ERROR_CODES.forbidden) {
        // Demoted while the console was open: the cached user is out of date, so it is asked for.
        const user = await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 }).catch(() => undefined);
        const redirectTo = user === undefined ? null : elsewhere(user);
        if (redirectTo) throw { redirectTo, message: false } satisfies AuthRejection;
      }
    },

    async logout() {
      // A failed look-up is treated as signed out: the console cannot be used either way.
      const user = await currentUser().catch(() => null);
      const redirectTo = elsewhere(user);
      if (!redirectTo) {
        await endSession();
        // The cached admin went with the session: whatever reads the user next asks the server.
        queryClient.removeQueries({ queryKey: USER_QUERY_KEY });
      }
      assignLocation(redirectTo ?? '/');
      return false;
    },

    async getIdentity() {
      const user = await currentUser();
      if (!user) throw new Error('Not signed in');
      return identityOf(user);
    },

    async getPermissions() {
      return permissionsOf(await currentUser());
    },
  } satisfies AuthProvider;
}
