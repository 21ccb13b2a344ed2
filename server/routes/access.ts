/**
 * Who may call a route, said in one place. Every route of server/routes/ needs a signed-in user
 * unless PUBLIC_ROUTES below names it, with the reason; the admin folder's routes need an admin.
 * One hook (`denyUnlessPublic`, installed by routes/index.ts over the whole route tree) adds the
 * guard of server/plugins/auth.ts to each route as it is added, so a new route is closed until it
 * is listed here. tests/server/routeAccess.test.ts sends every route the router lists as a
 * stranger: each one not listed answers 401.
 */
import type { RouteOptions } from 'fastify';
import { staffActionOf } from '../http/adminRouteActions';
import type { App } from '../http/types';

/** The admin folder's prefix (routes/api/admin/): its routes are for admins only. */
export const ADMIN_PREFIX = '/api/admin';

export const isAdminRoute = (url: string): boolean => url === ADMIN_PREFIX || url.startsWith(`${ADMIN_PREFIX}/`);

/**
 * Every route a stranger may call, as `METHOD url` (HEAD follows GET; `*` for any method; a url
 * ending in `*` covers everything under it), with the reason. The route then checks whatever
 * credential it takes itself. The last group is served by server/plugins/, outside the route
 * tree and this hook; it is listed so that this is the whole list. (The built app's files and
 * pages, served by plugins/staticAssets.ts and plugins/pages.ts, are for everyone too.)
 */
export const PUBLIC_ROUTES: Readonly<Record<string, string>> = {
  // Before anyone signs in.
  'GET /api/config': "the browser app's settings, read before anyone signs in",
  'GET /api/current-sage-build': 'the download page shows the current build to visitors',
  'GET /api/stripe/products': 'the plans are shown to visitors',
  'GET /api/license/public-key': 'anyone may verify a license file',
  'GET /api/analytics/location': "a visitor's country for analytics",
  'POST /api/login': 'signing in',
  'POST /api/register': 'creating an account',
  'POST /api/forgot-password': 'asking for a reset link while signed out',
  'POST /api/reset-password': "the reset link's token is the credential",
  'POST /api/logout': 'ends the session there is, if any',
  // Pages and redirects a person's browser navigates to: every outcome is a page, never a 401.
  'GET /api/logout': 'the nav bar link: ends the session or leads to the /logout page',
  'GET /api/auth/login': 'starts Epic sign-in (a redirect)',
  'GET /api/auth/callback': 'where Epic sends the browser back (a redirect)',
  'GET /api/auth/callback-internal': 'ends Epic sign-in after e-mail verification (a redirect)',
  'GET /api/email/verify': 'the link in the verification mail, opened in any browser (a redirect)',
  'GET /api/account/email/confirm': 'the link in the e-mail change mail, opened in any browser (a redirect; its token is the credential)',
  'GET /api/stripe/subscription-update-success': 'where Stripe sends the browser back (a redirect; a session is optional)',
  // An Epic sign-in in progress: its sign-in cookie is the credential, there is no session yet.
  'GET /api/auth/status': 'the sign-in cookie (a session is optional)',
  'POST /api/auth/epic/cancel': 'the sign-in cookie',
  'POST /api/auth/ue-clear': 'the sign-in cookie',
  'POST /api/user/check-exists': 'the sign-in cookie',
  'POST /api/epic/link': 'the sign-in cookie',
  'POST /api/email/send-verification': 'the sign-in cookie',
  'POST /api/email/resend-verification': 'the sign-in cookie',
  'POST /api/email/check-verification-status': 'the sign-in cookie',
  // Programs with their own credential.
  'GET /api/auth/ue-payload': 'the plugin: its one-time code and PKCE verifier',
  'GET /api/license': 'the plugin: its license token (Bearer)',
  'POST /api/ingest/messages': "the AI service's token or a license token (Bearer)",
  'PUT /api/ingest/threads/:threadId': "the AI service's token or a license token (Bearer)",
  'POST /api/ingest/usage': "the AI service's token or a license token (Bearer)",
  'GET /api/usage/remaining': 'the plugin: its license token (Bearer); or a session',
  'POST /api/stripe/webhook': 'Stripe: its signature of the body',
  '* /ingest': "posthog-js in visitors' browsers (a relay to the analytics provider)",
  '* /ingest/*': "posthog-js in visitors' browsers (a relay to the analytics provider)",
  'GET /healthz': 'load balancers: whether the process lives',
  // Served by server/plugins/.
  'GET /readyz': 'load balancers: whether this instance takes traffic',
  'GET /metrics': 'Prometheus: its own address list and token (plugins/metrics.ts)',
  'GET /api/openapi.json': 'the API document',
  'GET /api/docs': 'the API document, shown by Swagger UI',
  'GET /api/docs/*': "Swagger UI's page, files and copies of the document",
};

/** Why `method url` is public, or undefined when it needs a signed-in user. */
export function publicReason(method: string, url: string): string | undefined {
  const asked = method === 'HEAD' ? 'GET' : method;
  for (const [key, reason] of Object.entries(PUBLIC_ROUTES)) {
    const [listed = '', pattern = ''] = key.split(' ');
    if (listed !== '*' && listed !== asked) continue;
    if (pattern === url || (pattern.endsWith('*') && url.startsWith(pattern.slice(0, -1)))) return reason;
  }
  return undefined;
}

/** The route's hooks with `guard` added, once. */
function withGuard<H>(hooks: H | H[] | undefined, guard: H, first: boolean): H[] {
  const list = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
  if (list.includes(guard)) return list;
  return first ? [guard, ...list] : [...list, guard];
}

/**
 * The default deny. An admin route gets `requireStaff` of its action first in `onRequest` (401 or
 * 403 before its input is validated); any other route not listed gets `requireUser` last in `preHandler` (after
 * validation and the route's own checks, as the user routes have always answered).
 */
export function denyUnlessPublic(app: App): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (isAdminRoute(route.url)) {
      // A route of several methods takes the strictest guard: null (admins only) unless all agree.
      const actions = new Set([route.method].flat().map((method) => staffActionOf(String(method), route.url)));
      const action = actions.size === 1 ? [...actions][0]! : null;
      route.onRequest = withGuard(route.onRequest, app.requireStaff(action), true);
      return;
    }
    if ([route.method].flat().every((method) => publicReason(String(method), route.url) !== undefined)) return;
    route.preHandler = withGuard(route.preHandler, app.requireUser, false);
  });
}
