// zod/mini, as contract/auth.ts: the sign-in page imports this module's words, and zod/mini keeps
// that page small (decision 016).
import * as z from 'zod/mini';
import { MAX_PASSWORD_LENGTH } from './auth';
import { singleLine } from './text';

/**
 * Passkeys (issue 40, decision 049): WebAuthn credentials of a password account. They sign in
 * without the password (`POST /api/login/passkey/options`, then `POST /api/login/passkey`) and
 * are managed in the Account section (`/api/account/passkeys`). The ceremonies' JSON is
 * SimpleWebAuthn's (the W3C `…JSON` dictionaries).
 */

/** The `error` codes of a refused passkey call, which the screens branch on. */
export const PASSKEY_ERRORS = {
  /** 409: passkeys are for accounts with a password (an Epic account brings Epic's own). */
  noPassword: 'no_password',
  /** 400: the password given to remove a passkey is not the account's. */
  wrongPassword: 'wrong_password',
  /** 400: the ceremony's challenge is unknown, used, expired, or another ceremony's. */
  challengeExpired: 'passkey_challenge_expired',
  /** 400 (adding) or 401 (signing in): the authenticator's answer did not verify. */
  refused: 'passkey_refused',
  /** 401: no account has this passkey (removed, or made for another site). */
  unknown: 'passkey_unknown',
  /** 409: the passkey is registered already. */
  exists: 'passkey_exists',
  /** 409: the account has as many passkeys as it may. */
  limit: 'passkey_limit',
} as const;

/** How many passkeys one account may have. */
export const MAX_PASSKEYS = 20;

/** The server's words for each refusal (the screens show them as they come). */
export const PASSKEY_MESSAGES = {
  noPassword: 'Passkeys are for accounts that sign in with a password. Your Epic Games account has its own sign-in security.',
  wrongPassword: 'The password is not correct.',
  challengeExpired: 'This passkey request has expired or was already used. Please try again.',
  refused: 'Your passkey could not be verified. Please try again.',
  unknown: 'This passkey is not registered with Sage. Sign in with your password and add it in Account, or choose another passkey.',
  exists: 'This passkey is already registered with your account.',
  limit: `You have ${MAX_PASSKEYS} passkeys, the most an account may have. Remove one first.`,
  notFound: 'You have no passkey with this id.',
  tooManySignIns: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  tooManyChanges: 'Too many passkey changes. Please wait a few minutes and try again.',
} as const;

/** What the browser says when the user cancels the ceremony or lets it time out (NotAllowedError). */
export const PASSKEY_CANCELLED = 'The passkey request was cancelled or timed out. Nothing was changed.';
/** The browser has no WebAuthn (an old browser, or a page that is not a secure context). */
export const PASSKEY_UNSUPPORTED = 'This browser does not support passkeys.';

const MAX_NAME_LENGTH = 64;

/** What the user calls a passkey ("Work laptop"): one line, trimmed, 1 to 64 characters. */
export const passkeyNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Name is required' : 'Name must be a string') })
  .check(
    singleLine('Name'),
    z.trim(),
    z.minLength(1, 'Name is required'),
    z.maxLength(MAX_NAME_LENGTH, `Name must be at most ${MAX_NAME_LENGTH} characters`),
  );

/** base64url text of at most `max` characters. */
const base64url = (label: string, max: number) =>
  z
    .string({ error: `${label} must be a string` })
    .check(z.regex(/^[A-Za-z0-9_-]*$/, `${label} must be base64url`), z.maxLength(max, `${label} is too long`));

/** A credential id: up to 1023 bytes (WebAuthn's bound), as base64url. */
export const credentialIdSchema = base64url('id', 1400).check(z.minLength(1, 'id is required'));

const extensionResults = z.record(z.string(), z.unknown());
const attachment = z.optional(z.enum(['platform', 'cross-platform']));

/** `startRegistration()`'s answer (RegistrationResponseJSON). */
export const registrationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url('clientDataJSON', 8192),
    attestationObject: base64url('attestationObject', 65536),
    authenticatorData: z.optional(base64url('authenticatorData', 65536)),
    transports: z.optional(z.array(z.string().check(singleLine('transport'), z.maxLength(32))).check(z.maxLength(10))),
    publicKeyAlgorithm: z.optional(z.number()),
    publicKey: z.optional(base64url('publicKey', 8192)),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

/** `startAuthentication()`'s answer (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url('clientDataJSON', 8192),
    authenticatorData: base64url('authenticatorData', 65536),
    signature: base64url('signature', 8192),
    userHandle: z.optional(base64url('userHandle', 256)),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
});
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

/**
 * The options of `navigator.credentials.create()` / `.get()` as JSON, which the browser hands to
 * SimpleWebAuthn unread: the fields named are the ones the server sets, the rest pass through.
 */
export const registrationOptionsSchema = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ id: z.optional(z.string()), name: z.string() }),
});
export const authenticationOptionsSchema = z.looseObject({ challenge: z.string(), rpId: z.optional(z.string()) });

/** `POST /api/account/passkeys`: the name the user gave, and the ceremony's answer. */
export const addPasskeyRequestSchema = z.object({ name: passkeyNameSchema, response: registrationResponseSchema });
export type AddPasskeyRequest = z.input<typeof addPasskeyRequestSchema>;

/** `PATCH /api/account/passkeys/{id}`. */
export const renamePasskeyRequestSchema = z.object({ name: passkeyNameSchema });

/** `DELETE /api/account/passkeys/{id}`: the account's password, asked again. */
export const removePasskeyRequestSchema = z.object({
  password: z
    .string({ error: (issue) => (issue.input === undefined ? 'Password is required' : 'Password must be a string') })
    .check(
      z.minLength(1, 'Password is required'),
      z.maxLength(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
    ),
});
export type RemovePasskeyRequest = z.input<typeof removePasskeyRequestSchema>;

export const passkeyParamsSchema = z.object({ id: credentialIdSchema });

/** `POST /api/login/passkey`: the ceremony's answer; the challenge is in the browser's cookie. */
export const passkeySignInRequestSchema = z.object({ response: authenticationResponseSchema });
export type PasskeySignInRequest = z.input<typeof passkeySignInRequestSchema>;

/** One passkey as its owner sees it: never its key. Times ISO 8601. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** A passkey synced between devices (a password manager, iCloud Keychain…) rather than kept on one. */
  synced: z.boolean(),
  createdAt: z.string(),
  /** Null until it first signs in. */
  lastUsedAt: z.nullable(z.string()),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** `GET /api/account/passkeys`: newest first. */
export const passkeyListSchema = z.object({ passkeys: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

/** `POST /api/account/passkeys` answers the passkey added; rename answers it renamed. */
export const passkeyAnswerSchema = z.object({ ok: z.literal(true), passkey: passkeySchema });
export const passkeyRemovedSchema = z.object({ ok: z.literal(true) });
