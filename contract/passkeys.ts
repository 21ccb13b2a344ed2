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

export { MAX_PASSKEYS, PASSKEY_CANCELLED, PASSKEY_ERRORS, PASSKEY_MESSAGES, PASSKEY_UNSUPPORTED } from './passkeyWords';

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

/** `PATCH /api/account/passkeys/{id}` answers the passkey renamed. */
export const passkeyAnswerSchema = z.object({ ok: z.literal(true), passkey: passkeySchema });
/**
 * `POST /api/account/passkeys` answers the passkey added; the account's first second factor (no
 * authenticator app) comes with its ten recovery codes, shown once.
 */
export const passkeyAddedSchema = z.object({ ok: z.literal(true), passkey: passkeySchema, recoveryCodes: z.optional(z.array(z.string())) });
export type PasskeyAdded = z.infer<typeof passkeyAddedSchema>;
export const passkeyRemovedSchema = z.object({ ok: z.literal(true) });
