/**
 * Who may call a route, declared beside its schema in the route's `config`, with what the API
 * document says of it:
 *
 *   app.get('/users/:id', { schema, config: access.staff('read', { errors: { 404: NO_SUCH_USER } }) }, handler)
 *
 * The default-deny hook of routes/access.ts reads it as each route is added (a route that declares
 * nothing needs a signed-in user, or an admin under /api/admin), and plugins/openapi.ts documents
 * each /api route from it. tests/server/routeAccess.test.ts and roleAccess.test.ts call every
 * route the router lists as what it declares.
 */
import type { OrgAction } from '../../contract/orgs';
import type { StaffAction } from '../../contract/staffRoles';
import { NONE, SESSION, type ApiDoc, type Security } from './apiDoc';

export type EndpointAccess =
  /** Anyone, for `reason`; the route checks whatever credential it takes itself (`security`). */
  | { who: 'public'; reason: string; security: Security; doc?: ApiDoc }
  /**
   * A signed-in user: `requireUser` (plugins/auth.ts). `org`: a member of the organisation the
   * path names whose role may take the action (contract/orgs.ts), which the org service checks.
   */
  | { who: 'user'; security: Security; doc?: ApiDoc; org?: OrgAction }
  /** Staff whose role may take `action` (decision 030): `requireStaff`. Null: the `admin` role only. */
  | { who: 'staff'; action: StaffAction | null; security: Security; doc?: ApiDoc };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: EndpointAccess;
  }
}

/** A route's `config`. */
export interface AccessConfig {
  access: EndpointAccess;
}

/** The credentials of a signed-in user's route: the session in every alternative. */
type WithSession = ({ sessionCookie: [] } & Security[number])[];

export const access = {
  /** Anyone may call it, for `reason`; `security` names the credential the route checks itself (none by default). */
  public(reason: string, described?: ApiDoc & { security?: Security }): AccessConfig {
    if (!described) return { access: { who: 'public', reason, security: NONE } };
    const { security = NONE, ...doc } = described;
    return { access: { who: 'public', reason, security, doc } };
  },
  /** A signed-in user; the same as declaring nothing, with the document's words. */
  user({ security = SESSION, ...doc }: ApiDoc & { security?: WithSession }): AccessConfig {
    return { access: { who: 'user', security, doc } };
  },
  /** A member of the organisation in the path whose role may take `action`: the Organisations routes. */
  org(action: OrgAction, doc: Omit<ApiDoc, 'tag'> = {}): AccessConfig {
    return { access: { who: 'user', security: SESSION, org: action, doc: { tag: 'Organisations', ...doc } } };
  },
  /** Staff whose role may take `action`: the admin folder's routes, all in the document's Admin group. */
  staff(action: StaffAction, doc: Omit<ApiDoc, 'tag'> = {}): AccessConfig {
    return { access: { who: 'staff', action, security: SESSION, doc: { tag: 'Admin', ...doc } } };
  },
};
