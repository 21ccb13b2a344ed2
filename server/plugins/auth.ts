/**
 * The two guards (decision 014, "Guards"), which routes/access.ts gives every route that does not
 * declare itself public (routes never name them themselves, only who may call them:
 * http/endpointAccess.ts):
 *
 *   - `app.requireAdmin`, an `onRequest` hook for the admin folder's routes: 401 signed out,
 *     403 for anyone but an admin, before the query or body is validated (decision 007).
 *     `app.requireStaff(action)` is the same, then 403 `role_forbidden` unless the admin's role
 *     may take the route's action (contract/staffRoles.ts, decision 030), which each admin route
 *     declares (`access.staff(action)`).
 *   - `app.requireUser`, a route's last `preHandler`: 401 signed out, after validation, as the user
 *     routes have always answered.
 *
 * `requireAdmin` also refuses a member of staff signed in by password without a second factor (403
 * `second_factor_required`, decision 046) while STAFF_SECOND_FACTOR is `required`.
 *
 * Either refuses everything but setting a password to a user whose account still has its one-time
 * password (403 `password_change_required`). Either puts the signed-in user on `request.user`.
 * Routes for which signing in is optional keep asking `sessionUser(request, services)`
 * (http/sessionCookie.ts), which may answer null.
 *
 * It also reads every request's session cookie, whose name depends on the deployment: on https it
 * is `__Host-sage_session`, and a legacy `sage_session` (from before the rename, or planted by a
 * sibling subdomain) is never a session there: its session is ended and the cookie cleared.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PASSWORD_CHANGE_REQUIRED } from '../../contract/accountPassword';
import { ERROR_CODES } from '../../contract/errors';
import { SECOND_FACTOR_REQUIRED } from '../../contract/secondFactor';
import { ROLE_REFUSAL, staffMay, type StaffAction } from '../../contract/staffRoles';
import { forbidden, unauthorized } from '../errors';
import { readSessionCookie, SESSION_COOKIE, sessionToken, sessionUser } from '../http/sessionCookie';
import type { Services } from '../services';
import { staffRoleOfUser, type User } from '../services/users';

/** A hook that lets the request through or throws its 401 or 403. */
export type Guard = (request: FastifyRequest) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** `preHandler` guard: the signed-in user, else 401 `unauthorized`. */
    requireUser: Guard;
    /** `onRequest` guard: the signed-in admin, else 401 `unauthorized` or 403 `forbidden`. */
    requireAdmin: Guard;
    /**
     * `requireAdmin`, then 403 `role_forbidden` unless the admin's role may take `action`; null: an
     * admin route no action names, which only the `admin` role may call. One guard per action.
     */
    requireStaff: (action: StaffAction | null) => Guard;
  }
  interface FastifyRequest {
    /**
     * The user a guard let through. Typed as always present so guarded handlers need neither a
     * null check nor a cast; the price is that the type cannot tell a guarded route from another,
     * so reading it on a route without a guard (a public one) throws (a 500 naming the
     * mistake) instead of quietly giving `undefined`. It is read-only: only a guard sets it.
     */
    readonly user: User;
  }
}

/**
 * All a user whose account still has its one-time password may call (`create-admin`, issue 27):
 * who they are, and setting their own password. Signing out is public, so it is never refused.
 * Every other guarded route answers 403 `password_change_required`.
 */
const BEFORE_OWN_PASSWORD = new Set(['GET /api/user', 'GET /api/account/password', 'POST /api/account/password']);

function refuseUntilOwnPassword(request: FastifyRequest, user: User): void {
  if (user.password_change_required !== 1) return;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (BEFORE_OWN_PASSWORD.has(`${method} ${request.routeOptions.url ?? ''}`)) return;
  throw forbidden(PASSWORD_CHANGE_REQUIRED.error, PASSWORD_CHANGE_REQUIRED.message);
}

export interface AuthOptions {
  services: Services;
  /** Whether PUBLIC_URL is https: the session cookie is then `__Host-` prefixed. */
  secure: boolean;
}

async function authPlugin(app: FastifyInstance, { services, secure }: AuthOptions) {
  const guarded = new WeakMap<FastifyRequest, User>();

  // Callback-style: it runs on every request, and makes no promise but for a legacy cookie.
  app.addHook('onRequest', (request, reply, done) => {
    readSessionCookie(request, secure);
    const legacy = secure ? request.cookies[SESSION_COOKIE] : undefined;
    if (!legacy) return done();
    // Ended cleanly: the browser drops the cookie, and its user signs in again under the new name.
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: true });
    services.sessions
      .end(legacy)
      .catch((err: unknown) => request.log.warn({ err }, 'ending a legacy session failed'))
      .finally(() => done());
  });

  app.decorateRequest('user', {
    getter(this: FastifyRequest): User {
      const user = guarded.get(this);
      if (!user)
        throw new Error(
          `request.user read on ${this.method} ${this.routeOptions.url ?? this.url}, which has no requireUser or requireAdmin guard`,
        );
      return user;
    },
  });

  const requireUser: Guard = async (request) => {
    const user = await sessionUser(request, services);
    if (!user) throw unauthorized();
    refuseUntilOwnPassword(request, user);
    guarded.set(request, user);
  };

  const requireAdmin: Guard = async (request) => {
    const user = await sessionUser(request, services);
    if (!user) throw unauthorized();
    if (user.is_admin !== 1) throw forbidden(ERROR_CODES.forbidden, 'Admins only');
    refuseUntilOwnPassword(request, user);
    // Staff signed in by password need a second factor (STAFF_SECOND_FACTOR, decision 046).
    if (await services.secondFactor.staffNeedsSecondFactor(user, sessionToken(request)))
      throw forbidden(SECOND_FACTOR_REQUIRED.error, SECOND_FACTOR_REQUIRED.message);
    guarded.set(request, user);
  };

  const staffGuards = new Map<StaffAction | null, Guard>();
  const requireStaff = (action: StaffAction | null): Guard => {
    let guard = staffGuards.get(action);
    if (!guard) {
      guard = async (request) => {
        await requireAdmin(request);
        const role = staffRoleOfUser(request.user);
        if (action === null ? role !== 'admin' : !staffMay(role, action)) throw forbidden(ERROR_CODES.roleForbidden, ROLE_REFUSAL.message);
      };
      staffGuards.set(action, guard);
    }
    return guard;
  };

  app.decorate('requireUser', requireUser);
  app.decorate('requireAdmin', requireAdmin);
  app.decorate('requireStaff', requireStaff);
}

/** Registered once at the root (fastify-plugin), so every route module sees the guards. */
export const auth = fp(authPlugin, { name: 'sage-auth', dependencies: ['@fastify/cookie'] });
