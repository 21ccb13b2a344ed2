import { z } from 'zod';
import { singleLine } from './text';
import { updateCheckSchema } from './builds';
import { usageRemainingSchema } from './usage';

/**
 * Why an Epic sign-in ended on `/authentication_failed?reason=…`. The first five are product §2's;
 * the others name failures the product's description folds into "unexpected" (decision 005).
 */
export const AUTH_FAILURE_REASONS = [
  'canceled',
  'state_mismatch',
  'token_exchange_failed',
  'user_info_failed',
  'server_error',
  'invalid_redirect_uri',
  'invalid_plugin_request',
  'verification_required',
  'rate_limited',
  'account_suspended',
  // Linking Epic to an existing account (issue 40, decision 047).
  'epic_account_taken',
  'epic_already_linked',
  'link_invalid',
] as const;
export type AuthFailureReason = (typeof AUTH_FAILURE_REASONS)[number];

/** Where a sign-in was started from: the web portal or the Unreal plugin (product §2). */
export const signInClientSchema = z.enum(['web', 'ue']);
export type SignInClient = z.infer<typeof signInClientSchema>;

/** `GET /api/auth/status` (product §3 Auth status). */
export const authStatusSchema = z.object({
  authenticated: z.boolean(),
  user: z.object({ email: z.string().nullable() }).nullable(),
  ue: z.object({
    /** A plugin hand-off is waiting for this browser to deliver its code. */
    enabled: z.boolean(),
    status: z.enum(['success', 'failed', 'canceled']).nullable(),
    message: z.string().nullable(),
  }),
});
export type AuthStatus = z.infer<typeof authStatusSchema>;

/** The address a new Epic account links (product §5: required, standard e-mail pattern). */
export const linkEmailSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Email is required' : 'Email must be a string') })
  .check(singleLine('Email'))
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Invalid email address' }));

/** Body of check-exists, link and the three verification calls (product §7). */
export const emailRequestSchema = z.object({ email: linkEmailSchema });
export type EmailRequest = z.input<typeof emailRequestSchema>;

/** `POST /api/user/check-exists`. */
export const checkExistsResponseSchema = z.object({ ok: z.literal(true), exists: z.boolean(), message: z.string() });
export type CheckExistsResponse = z.infer<typeof checkExistsResponseSchema>;

/** `POST /api/epic/link`: where the browser goes next. */
export const linkResponseSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  requiresVerification: z.boolean(),
  next: z.string(),
});
export type LinkResponse = z.infer<typeof linkResponseSchema>;

/** `POST /api/auth/epic/cancel` and `POST /api/auth/ue-clear`. */
export const signInOkSchema = z.object({ ok: z.literal(true), message: z.string() });

/** `POST /api/auth/ue-store-payload`: the one-time code and the loopback address carrying it. */
export const storePayloadResponseSchema = z.object({ ok: z.literal(true), code: z.string(), redirectUrl: z.string() });
export type StorePayloadResponse = z.infer<typeof storePayloadResponseSchema>;

/** What the plugin learns about its user's subscription; null while the user has none. */
export const subscriptionSummarySchema = z
  .object({
    status: z.string(),
    productName: z.string().nullable(),
    currentPeriodEnd: z.number().nullable(),
    trialEnd: z.number().nullable(),
  })
  .nullable();

/** `GET /api/auth/ue-payload`: what the plugin receives for a code and its verifier. */
export const pluginPayloadSchema = z.object({
  /** The license token (product §3 User.token). */
  token: z.string(),
  user: z.object({ id: z.string(), username: z.string(), email: z.string().nullable() }),
  subscription: subscriptionSummarySchema,
  /** Query credits bought with credit packs and not yet used: the same figure as `remaining.credits`. */
  credits: z.number().int(),
  /** What is left to spend now (docs/usage-metering.md): this period's allowance, pack credits, the renewal; for a seat holder, `org` says which organisation pays first and what it has left. */
  remaining: usageRemainingSchema,
  /**
   * This install's id (issue 27): the plugin sends it back in PLUGIN_INSTALL_HEADER on its token
   * calls, so the user's "Where you're signed in" shows when this install was last used.
   */
  installId: z.string(),
  /**
   * The update check (issue 41, docs/plugin-updates.md) for the engine and plugin versions said at
   * sign-in, as `GET /api/plugin/updates` answers it; null when the plugin said none, an engine no
   * build ships for, or a plugin version that is not one.
   */
  update: updateCheckSchema.nullable(),
});
export type PluginPayload = z.infer<typeof pluginPayloadSchema>;

/**
 * The header a plugin names its install with (the `installId` of its hand-off): on its license
 * token calls, and on the exchange of a later sign-in to stay the same install. Optional.
 */
export const PLUGIN_INSTALL_HEADER = 'x-sage-install';

/** An engine or plugin version the plugin says at sign-in: `5.4.2`, `1.3.0-beta`. */
export const pluginVersionLabel = (name: string) =>
  z.string().check(singleLine(name)).trim().min(1, `${name} must not be empty`).max(32, `${name} must be at most 32 characters`);

/** RFC 7636: a verifier is 43–128 unreserved characters; an S256 challenge is 43 base64url ones. */
export const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
export const PKCE_S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
