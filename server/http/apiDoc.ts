/**
 * The words of the API document (plugins/openapi.ts) that routes share: the credentials it names,
 * its groups, and failures several routes answer. Each route says the rest beside its schema, in
 * its access declaration (http/endpointAccess.ts).
 */
import { PASSKEY_COOKIE } from './passkeyCookie';
import { SECOND_FACTOR_COOKIE, SESSION_COOKIE, SIGN_IN_COOKIE } from './sessionCookie';

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
  passkeyCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: PASSKEY_COOKIE,
    description:
      'Ties a browser to its passkey ceremony in progress: the challenge of the options it asked for (HttpOnly, path /api, 5 minutes).',
  },
  secondFactorCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SECOND_FACTOR_COOKIE,
    description: 'Names a password sign-in waiting for its second factor (set by POST /api/login, path /api/login, five minutes).',
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
export type Security = Partial<Record<Scheme, []>>[];

/** No credential: anyone. */
export const NONE: Security = [];
export const SESSION: [{ sessionCookie: [] }] = [{ sessionCookie: [] }];
export const SESSION_OPTIONAL: Security = [{ sessionCookie: [] }, {}];
export const SIGN_IN: Security = [{ signInCookie: [] }];
export const SECOND_FACTOR_SIGN_IN: Security = [{ secondFactorCookie: [] }];
/** A pending sign-in's answer to the passkey ceremony its second step started. */
export const SECOND_FACTOR_AND_PASSKEY_CHALLENGE: [{ secondFactorCookie: []; passkeyCookie: [] }] = [
  { secondFactorCookie: [], passkeyCookie: [] },
];
export const SIGN_IN_OPTIONAL: Security = [{ signInCookie: [] }, {}];
export const BEARER: Security = [{ bearerToken: [] }];
export const PASSKEY_CHALLENGE: Security = [{ passkeyCookie: [] }];
/** A signed-in user's answer to the passkey ceremony their session started. */
export const SESSION_AND_PASSKEY_CHALLENGE: [{ sessionCookie: []; passkeyCookie: [] }] = [{ sessionCookie: [], passkeyCookie: [] }];

/** The document's groups: each route is in one. */
export type ApiTag =
  | 'Account'
  | 'Epic sign-in'
  | 'Plugin hand-off'
  | 'Email verification'
  | 'Billing'
  | 'Licenses'
  | 'Product'
  | 'Admin'
  | 'Ingestion'
  | 'Usage'
  | 'Organisations';

/** What the document says of a route beyond its zod schemas and who may call it. */
export interface ApiDoc {
  tag: ApiTag;
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

/** A suspended account's sign-in, license token, or (named by the AI service) user (decision 029). */
export const SUSPENDED = 'The account is suspended (account_suspended)';
export const LICENSE_REPLACED = 'A license token an admin replaced: sign in again from the plugin (license_revoked)';
export const BILLING_OFF = 'Billing is not set up on this server (billing_not_configured)';
export const NO_SUCH_USER = 'No such user (not_found)';

/** The answer of a route that sends a CSV file. */
export const csvAttachment = (description: string) => ({ 200: { description, content: { 'text/csv': { schema: { type: 'string' } } } } });
