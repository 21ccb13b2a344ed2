/**
 * What the OpenAPI document (server/plugins/openapi.ts) says about each `/api` route beyond its zod
 * schemas: who may call it, its group, the failures it is known for, and the answers that are not
 * JSON (redirects, CSV). Kept here rather than in the route modules, which stay unaware of the
 * document; tests/server/openapi.test.ts fails when a route is missing from this table.
 */
import type { FastifySchema } from 'fastify';
import { ERROR_CODES } from '../../contract/errors';
import { ROLE_REFUSAL, STAFF_ROLES, staffMay } from '../../contract/staffRoles';
import { SESSION_COOKIE, SIGN_IN_COOKIE } from '../http/sessionCookie';
import { staffActionOf } from '../http/adminRouteActions';

export const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session of a signed-in browser, set by sign-in (HttpOnly, SameSite=Lax).',
  },
  signInCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SIGN_IN_COOKIE,
    description: 'Ties a browser to its Epic sign-in in progress (set by GET /api/auth/login, path /api).',
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The plugin's license token (from the sign-in hand-off), or the AI service's token (AI_SERVICE_TOKEN) on the ingestion routes.",
  },
  stripeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Stripe-Signature',
    description: "Stripe's signature of the exact body, checked with STRIPE_WEBHOOK_SECRET.",
  },
} as const;

type Scheme = keyof typeof SECURITY_SCHEMES;
/** OpenAPI security requirements: any one entry suffices; `{}` means "or nothing". */
type Security = Partial<Record<Scheme, []>>[];

const PUBLIC: Security = [];
const SESSION: Security = [{ sessionCookie: [] }];
const SESSION_OPTIONAL: Security = [{ sessionCookie: [] }, {}];
const SIGN_IN: Security = [{ signInCookie: [] }];
const SIGN_IN_OPTIONAL: Security = [{ signInCookie: [] }, {}];
const BEARER: Security = [{ bearerToken: [] }];
const BEARER_OR_SESSION: Security = [{ bearerToken: [] }, { sessionCookie: [] }];

interface RouteDoc {
  tag: string;
  security: Security;
  /** Signed in as an admin: 403 for everyone else. */
  admin?: true;
  /** Counted by the rate limiter: 429 with Retry-After. */
  limited?: true;
  /** A page the browser navigates to: every outcome, failures included, is a redirect; says where. */
  redirect?: string;
  /** Failures of this route worth naming, by status. */
  errors?: Record<number, string>;
  /** The answer when it is not JSON (and so has no response schema). */
  ok?: Record<string, unknown>;
  /** Headers of the 200 answer worth naming. */
  okHeaders?: Record<string, { type: 'string'; description: string }>;
}

/** The two admin lists answer a page and say its place in the whole (decision 013). */
const LIST_PAGE = {
  'Content-Range': { type: 'string', description: 'The rows answered and the total: `users 0-24/1234`, or `users */1234` past the end' },
} as const;

const ACCOUNT = 'Account';
const EPIC = 'Epic sign-in';
const PLUGIN = 'Plugin hand-off';
const EMAIL = 'Email verification';
const BILLING = 'Billing';
const LICENSES = 'Licenses';
const PRODUCT = 'Product';
const ADMIN = 'Admin';
const INGESTION = 'Ingestion';
const USAGE = 'Usage';

const BILLING_WRITE: RouteDoc = {
  tag: BILLING,
  security: SESSION,
  limited: true,
  errors: { 503: 'Billing is not set up on this server (billing_not_configured)' },
};

/** A suspended account's sign-in, license token, or (named by the AI service) user (decision 029). */
const SUSPENDED = 'The account is suspended (account_suspended)';

/** What both ingestion writes answer a license token they refuse. */
const INGESTION_REFUSALS = {
  401: 'A license token an admin replaced: sign in again from the plugin (license_revoked)',
  403: `A license token storing for another user (forbidden); ${SUSPENDED}`,
  404: 'The user was deleted while the write was on its way; nothing was stored (not_found)',
};

/** By `METHOD url`, the url as the route module writes it. */
const ROUTES: Record<string, RouteDoc> = {
  'GET /api/config': { tag: PRODUCT, security: PUBLIC },
  'GET /api/current-sage-build': { tag: PRODUCT, security: PUBLIC, errors: { 404: 'No build has been released yet (no_build)' } },
  'GET /api/analytics/location': {
    tag: PRODUCT,
    security: PUBLIC,
    errors: { 404: 'No IP-location provider is configured (not_found)', 502: 'The provider failed (bad_gateway)' },
  },

  'GET /api/user': { tag: ACCOUNT, security: SESSION },
  'POST /api/login': {
    tag: ACCOUNT,
    security: PUBLIC,
    limited: true,
    errors: { 401: 'Wrong e-mail or password (invalid_credentials)', 403: SUSPENDED },
  },
  'POST /api/register': {
    tag: ACCOUNT,
    security: PUBLIC,
    limited: true,
    errors: { 409: 'The e-mail has an account already (email_taken)' },
  },
  'POST /api/logout': { tag: ACCOUNT, security: SESSION_OPTIONAL },
  'GET /api/logout': {
    tag: ACCOUNT,
    security: SESSION_OPTIONAL,
    redirect:
      "The navigation bar's Logout link: from our own origin (Sec-Fetch-Site: same-origin) ends the session and goes to /; any other request ends nothing and goes to /logout, whose button signs out with POST /api/logout",
  },
  'POST /api/forgot-password': { tag: ACCOUNT, security: PUBLIC, limited: true },
  'POST /api/reset-password': {
    tag: ACCOUNT,
    security: PUBLIC,
    limited: true,
    errors: { 403: SUSPENDED },
  },
  'GET /api/account/sessions': { tag: ACCOUNT, security: SESSION },
  'DELETE /api/account/sessions/:id': {
    tag: ACCOUNT,
    security: SESSION,
    errors: { 404: 'The user has no session with this id (not_found)' },
  },
  'POST /api/account/sessions/end-others': { tag: ACCOUNT, security: SESSION },
  'DELETE /api/account/installs/:id': {
    tag: ACCOUNT,
    security: SESSION,
    errors: { 404: 'The user has no plugin install with this id (not_found)' },
  },
  'GET /api/account/password': { tag: ACCOUNT, security: SESSION },
  'POST /api/account/password': {
    tag: ACCOUNT,
    security: SESSION,
    limited: true,
    errors: {
      400: 'The current password is wrong (wrong_password)',
      409: 'The account signs in with Epic and has no password (no_password), or its password changed meanwhile (conflict)',
    },
  },
  'POST /api/account/license/reissue': { tag: ACCOUNT, security: SESSION, limited: true },
  'GET /api/account/email': { tag: ACCOUNT, security: SESSION },
  'POST /api/account/email': {
    tag: ACCOUNT,
    security: SESSION,
    limited: true,
    errors: {
      400: "The address is already the account's (same_email), or the current password is missing (current_password_required) or wrong (wrong_password)",
      403: 'An account without a password whose sign-in here is over 10 minutes old: sign in with Epic again (reauthentication_required)',
      409: 'Another account has this e-mail (email_taken)',
      502: 'The mail to the new address could not be sent (mail_failed)',
    },
  },
  // The link in the mail; its token is the credential.
  'GET /api/account/email/confirm': {
    tag: ACCOUNT,
    security: PUBLIC,
    limited: true,
    redirect:
      'Changes the e-mail once per link: to /dashboard?emailChange=<outcome>#account when signed in, else to /login?emailChange=<outcome> (changed, invalid_token, expired_token, email_taken, rate_limited, failed)',
  },
  'GET /api/account/invoices': {
    tag: ACCOUNT,
    security: SESSION,
    limited: true,
    errors: {
      502: 'Stripe could not be read (payment_provider_error)',
      503: 'Billing is not set up on this server (billing_not_configured)',
    },
  },
  'GET /api/account/export': {
    tag: ACCOUNT,
    security: SESSION,
    limited: true,
    ok: {
      200: {
        description: 'Everything held about the user, as one JSON attachment sage-data-<date>.json (docs/account-data.md)',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
    },
  },
  'GET /api/account/deletion': { tag: ACCOUNT, security: SESSION },
  'DELETE /api/account': {
    tag: ACCOUNT,
    security: SESSION,
    limited: true,
    errors: {
      400: 'confirm is not the username (confirmation_mismatch), or the password is wrong (wrong_password)',
      403: 'No password given, and this browser did not sign in in the last 10 minutes (reauthentication_required)',
      409: 'The only admin (last_admin)',
      502: 'Stripe did not cancel a subscription; nothing was deleted (subscription_not_cancelled)',
      503: 'Billing is off while a subscription looks live; nothing was deleted (subscription_not_cancelled)',
    },
  },

  'GET /api/auth/login': {
    tag: EPIC,
    security: PUBLIC,
    limited: true,
    redirect: 'Starts Sign in with Epic (client=ue: the plugin hand-off, docs/plugin-sign-in.md): to Epic, or to /authentication_failed',
  },
  'GET /api/auth/callback': {
    tag: EPIC,
    security: SIGN_IN,
    redirect: "Epic's redirect back (EPIC_REDIRECT_URI): to the next sign-in step, or to /authentication_failed",
  },
  'GET /api/auth/callback-internal': {
    tag: EPIC,
    security: SIGN_IN,
    redirect: 'Finishes a sign-in whose e-mail was verified: to the next step, or to /authentication_failed',
  },
  'GET /api/auth/status': { tag: EPIC, security: [{ sessionCookie: [] }, { signInCookie: [] }, {}] },
  'POST /api/auth/epic/cancel': { tag: EPIC, security: SIGN_IN_OPTIONAL },
  'POST /api/user/check-exists': { tag: EPIC, security: SIGN_IN, limited: true },
  'POST /api/epic/link': { tag: EPIC, security: SIGN_IN, limited: true },

  'POST /api/auth/ue-store-payload': { tag: PLUGIN, security: [{ sessionCookie: [], signInCookie: [] }] },
  'POST /api/auth/ue-clear': { tag: PLUGIN, security: SIGN_IN_OPTIONAL },
  // The one-time code and its PKCE verifier, in the query, are the credentials.
  'GET /api/auth/ue-payload': {
    tag: PLUGIN,
    security: PUBLIC,
    limited: true,
    errors: { 403: 'The account was suspended after the code was issued; the code is spent (account_suspended)' },
  },

  'POST /api/email/send-verification': { tag: EMAIL, security: SIGN_IN, limited: true },
  'POST /api/email/resend-verification': { tag: EMAIL, security: SIGN_IN, limited: true },
  'POST /api/email/check-verification-status': { tag: EMAIL, security: SIGN_IN, limited: true },
  // The link in the mail; its token is the credential.
  'GET /api/email/verify': { tag: EMAIL, security: PUBLIC, limited: true, redirect: 'To /email-verification-completed with the outcome' },

  'GET /api/stripe/products': { tag: BILLING, security: PUBLIC },
  'GET /api/stripe/user-subscriptions': {
    tag: BILLING,
    security: SESSION,
    errors: { 404: 'The user has no subscription (no_subscription)' },
  },
  'GET /api/stripe/subscription-status': { tag: BILLING, security: SESSION },
  'POST /api/stripe/verify-subscription': { tag: BILLING, security: SESSION, limited: true },
  'POST /api/stripe/create-checkout-session': BILLING_WRITE,
  'POST /api/stripe/create-portal-session': BILLING_WRITE,
  'POST /api/stripe/create-payment-method-session': BILLING_WRITE,
  'POST /api/stripe/resume-subscription': BILLING_WRITE,
  'GET /api/stripe/subscription-update-success': {
    tag: BILLING,
    security: SESSION_OPTIONAL,
    redirect:
      "Where Stripe sends the browser back: refreshes the user's subscriptions, then to the dashboard (client=ue: /subscription-update)",
  },
  'POST /api/stripe/webhook': {
    tag: BILLING,
    security: [{ stripeSignature: [] }],
    errors: {
      400: 'The signature is missing or wrong (invalid_signature), or the signed body is no event (invalid_event)',
      503: 'Billing is not set up on this server (billing_not_configured)',
    },
  },

  'GET /api/license/public-key': { tag: LICENSES, security: PUBLIC },
  'GET /api/license': {
    tag: LICENSES,
    security: BEARER,
    limited: true,
    errors: { 401: 'The token was replaced by an admin: sign in again from the plugin (license_revoked)', 403: SUSPENDED },
  },
  'GET /api/:product/:id/license': {
    tag: LICENSES,
    security: SESSION,
    errors: { 403: "Another user's license: admins only (forbidden)", 404: 'Unknown product or user (not_found)' },
  },

  'GET /api/admin/users': { tag: ADMIN, security: SESSION, admin: true, okHeaders: LIST_PAGE },
  'GET /api/admin/audit': { tag: ADMIN, security: SESSION, admin: true, okHeaders: LIST_PAGE },
  'GET /api/admin/users/:id': { tag: ADMIN, security: SESSION, admin: true, errors: { 404: 'No such user (not_found)' } },
  'PUT /api/admin/users/:id': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: { 404: 'No such user (not_found)', 409: 'Another user has this e-mail (email_taken)' },
  },
  'DELETE /api/admin/users/:id': { tag: ADMIN, security: SESSION, admin: true, errors: { 404: 'No such user (not_found)' } },
  'GET /api/admin/users/:id/details': { tag: ADMIN, security: SESSION, admin: true, errors: { 404: 'No such user (not_found)' } },
  'POST /api/admin/users/:id/license/reissue': { tag: ADMIN, security: SESSION, admin: true, errors: { 404: 'No such user (not_found)' } },
  'POST /api/admin/users/:id/sessions/revoke': { tag: ADMIN, security: SESSION, admin: true, errors: { 404: 'No such user (not_found)' } },
  'POST /api/admin/users/:id/suspend': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: {
      400: 'No reason given, or the admin suspending their own account (self_suspension)',
      404: 'No such user (not_found)',
      409: 'Already suspended (already_suspended)',
    },
  },
  'POST /api/admin/users/:id/reinstate': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: { 404: 'No such user (not_found)', 409: 'Not suspended (not_suspended)' },
  },
  'GET /api/admin/users/export': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    ok: { 200: { description: 'Every user, as a CSV attachment', content: { 'text/csv': { schema: { type: 'string' } } } } },
  },
  'POST /api/admin/users/export': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    ok: {
      200: {
        description: 'The users named (those that exist), as a CSV attachment',
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
    },
  },
  'GET /api/admin/messages/search': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: { 404: 'No message for this session id (not_found)' },
  },
  'POST /api/ingest/messages': {
    tag: INGESTION,
    security: BEARER,
    limited: true,
    errors: {
      ...INGESTION_REFUSALS,
      409: 'A license token writing to a chat session of another user or of no user (session_taken)',
    },
  },
  'POST /api/ingest/usage': {
    tag: INGESTION,
    security: BEARER,
    limited: true,
    errors: {
      ...INGESTION_REFUSALS,
      400: 'occurredAt is older than the days uses are kept (occurred_at_too_old) or more than a day after the arrival (occurred_at_in_future)',
      402: "Neither this period's allowance nor pack credits can pay for the units: nothing was charged (quota_exhausted)",
      409: 'The requestId was recorded before for a different use (request_id_reused)',
    },
  },
  'PUT /api/ingest/threads/:threadId': {
    tag: INGESTION,
    security: BEARER,
    limited: true,
    errors: {
      ...INGESTION_REFUSALS,
      409: "The thread id is another user's (thread_taken)",
    },
  },

  'GET /api/usage': { tag: USAGE, security: SESSION },
  'GET /api/usage/history': { tag: USAGE, security: SESSION },
  'GET /api/usage/remaining': {
    tag: USAGE,
    security: BEARER_OR_SESSION,
    limited: true,
    errors: { 401: 'A license token an admin replaced: sign in again from the plugin (license_revoked)', 403: SUSPENDED },
  },
  'GET /api/usage/period.csv': {
    tag: USAGE,
    security: SESSION,
    ok: {
      200: {
        description: 'The uses of the current billing period, as a CSV attachment',
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
    },
  },
  'GET /api/admin/users/:id/usage.csv': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: { 404: 'No such user (not_found)' },
    ok: {
      200: {
        description: "The user's uses of the current billing period, as a CSV attachment",
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
    },
  },
  'POST /api/admin/users/:id/credit-packs/:purchaseId/refund': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: {
      404: 'No such user, or no such pack purchase of theirs (not_found)',
      409: 'The pack was refunded already (already_refunded), or Stripe holds no payment for it (not_refundable)',
      502: 'Stripe refused the refund (refund_refused) or failed (payment_provider_error)',
      503: 'Billing is not set up on this server (billing_not_configured)',
    },
  },
  'POST /api/admin/users/:id/credits': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: { 404: 'No such user (not_found)', 409: 'A deduction larger than the balance (insufficient_credits)' },
  },
  // Staff's notes on a user (issue 28).
  'GET /api/admin/users/:id/notes': { tag: ADMIN, security: SESSION, admin: true, errors: { 404: 'No such user (not_found)' } },
  'POST /api/admin/users/:id/notes': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: { 400: 'No text, or more than 2,000 characters (invalid_request)', 404: 'No such user (not_found)' },
  },
  'PUT /api/admin/users/:id/notes/:noteId': {
    tag: ADMIN,
    security: SESSION,
    admin: true,
    errors: {
      400: 'No text, or more than 2,000 characters (invalid_request)',
      403: "Another staff member's note (not_note_author), or more than 15 minutes since it was written (note_locked)",
      404: 'No such user, or no such note on them (not_found)',
    },
  },
};

/** Whole areas that share one description; ROUTES adds a route's own failures. */
const AREAS: [prefix: string, doc: RouteDoc][] = [
  ['/api/admin/', { tag: ADMIN, security: SESSION, admin: true }],
  // The AI service's token, or a user's license token (only those are rate limited).
  [
    '/api/ingest/',
    {
      tag: INGESTION,
      security: BEARER,
      limited: true,
      errors: { 401: 'A license token an admin replaced: sign in again from the plugin (license_revoked)', 403: SUSPENDED },
    },
  ],
];

function routeDoc(method: string, url: string): RouteDoc | undefined {
  return ROUTES[`${method} ${url}`] ?? AREAS.find(([prefix]) => url.startsWith(prefix))?.[1];
}

const ERROR_REF = '#/components/schemas/ApiError';
const SUCCESS: Record<string, string> = { 200: 'OK', 201: 'Created' };
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The `{ error, message }` answers a route gives, by status, each with the reasons for it. */
function errorResponses(method: string, url: string, schema: FastifySchema, doc: RouteDoc): Record<string, unknown> {
  const reasons = new Map<string, string[]>();
  const add = (status: number | string, reason: string) => reasons.set(String(status), [...(reasons.get(String(status)) ?? []), reason]);

  if (schema.body || schema.querystring || schema.params) add(400, 'A field is missing or not valid (invalid_request)');
  if (schema.body) add(400, 'The body is not JSON (invalid_json)');
  const required = doc.security.length > 0 && !doc.security.some((s) => Object.keys(s).length === 0);
  if (required && doc.security.every((s) => 'sessionCookie' in s)) add(401, 'Not signed in (unauthorized)');
  if (required && doc.security.every((s) => 'bearerToken' in s)) add(401, 'No valid token (unauthorized)');
  if (doc.admin) add(403, `Signed in, but not as an admin (${ERROR_CODES.forbidden})`);
  if (doc.admin) {
    // The roles that may not (decision 030); an admin route with no action is for admins only.
    const action = staffActionOf(method, url);
    const refused = STAFF_ROLES.filter((role) => (action === null ? role !== 'admin' : !staffMay(role, action)));
    if (refused.length > 0) add(403, `${ROLE_REFUSAL.message} (${ERROR_CODES.roleForbidden}): not for ${refused.join(' or ')}`);
  }
  if (required && doc.security.every((s) => 'signInCookie' in s))
    add(403, 'No Epic sign-in in progress in this browser (no_pending_sign_in)');
  if (STATE_CHANGING.has(method)) add(403, "Sent by another site's page: its Origin is not ours (cross_origin)");
  for (const [status, reason] of Object.entries(doc.errors ?? {})) add(status, reason);
  if (doc.limited) add(429, 'Too many requests (rate_limited)');
  add('4XX', 'Any other refusal');
  add('5XX', 'The server failed (internal)');

  return Object.fromEntries(
    [...reasons].map(([status, list]) => [
      status,
      {
        $ref: ERROR_REF,
        description: list.join('; '),
        ...(status === '429' ? { headers: { 'Retry-After': { type: 'integer', description: 'Seconds until the limit resets' } } } : {}),
      },
    ]),
  );
}

/**
 * The route's schema as the document shows it: its tag, security, its own answers, then the error
 * answers. A route missing from the table is left without `security` (the test looks for that).
 */
export function documentRoute(method: string, url: string, schema: FastifySchema): FastifySchema {
  const doc = routeDoc(method, url);
  if (!doc) return schema;
  // The route's own answers (JSON Schema by now), with a description: @fastify/swagger's default is "Default Response".
  const own = Object.fromEntries(
    Object.entries((schema.response ?? {}) as Record<string, object>).map(([status, json]) => [
      status,
      {
        'x-response-description': SUCCESS[status] ?? 'Answer',
        ...(status === '200' && doc.okHeaders ? { headers: doc.okHeaders } : {}),
        ...json,
      },
    ]),
  );
  const response = doc.redirect
    ? {
        302: {
          type: 'null',
          description: doc.redirect,
          headers: { Location: { type: 'string', description: 'Where the browser goes next' } },
        },
      }
    : { ...own, ...doc.ok, ...errorResponses(method, url, schema, doc) };
  return { ...schema, tags: [doc.tag], security: doc.security, response } as FastifySchema;
}
