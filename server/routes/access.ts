/**
 * The default deny. Each route declares who may call it beside its schema (`config:
 * access.public(reason)`, `access.user(…)`, `access.staff(action)`: http/endpointAccess.ts). One hook
 * (`denyUnlessPublic`, installed by routes/index.ts over the whole route tree) adds the guard of
 * server/plugins/auth.ts to each route as it is added, so a route that declares nothing is closed:
 * a signed-in user, or an admin in the admin folder. tests/server/routeAccess.test.ts sends every
 * route the router lists as a stranger: each one not declared public answers 401.
 */
import type { RouteOptions } from 'fastify';
import { SESSION } from '../http/apiDoc';
import type { EndpointAccess } from '../http/endpointAccess';
import type { App } from '../http/types';

/** The admin folder's prefix (routes/api/admin/): its routes are for staff only. */
export const ADMIN_PREFIX = '/api/admin';

export const isAdminRoute = (url: string): boolean => url === ADMIN_PREFIX || url.startsWith(`${ADMIN_PREFIX}/`);

/** What `route` declares, or the default: a signed-in user; in the admin folder, the `admin` role. */
function accessOf(route: RouteOptions): EndpointAccess {
  const admin = isAdminRoute(route.url);
  const declared = route.config?.access;
  if (!declared) return admin ? { who: 'staff', action: null, security: SESSION } : { who: 'user', security: SESSION };
  // The admin folder is staff's, and staff's routes are there, where the tests call each one as every role.
  if ((declared.who === 'staff') !== admin) throw new Error(`${route.url}: access.staff is for the admin folder's routes, and only it`);
  return declared;
}

/** The route's hooks with `guard` added, once. */
function withGuard<H>(hooks: H | H[] | undefined, guard: H, first: boolean): H[] {
  const list = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
  if (list.includes(guard)) return list;
  return first ? [guard, ...list] : [...list, guard];
}

/**
 * A staff route gets `requireStaff` of its action first in `onRequest` (401 or 403 before its input
 * is validated); a user's route gets `requireUser` last in `preHandler` (after validation and the
 * route's own checks, as the user routes have always answered); a public route gets neither.
 */
export function denyUnlessPublic(app: App): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const access = accessOf(route);
    if (access.who === 'staff') route.onRequest = withGuard(route.onRequest, app.requireStaff(access.action), true);
    if (access.who === 'user') route.preHandler = withGuard(route.preHandler, app.requireUser, false);
  });
}
