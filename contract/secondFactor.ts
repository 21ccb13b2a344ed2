// zod/mini, as contract/auth.ts: the sign-in page and the Account section validate with these.
import * as z from 'zod/mini';
import { MAX_PASSWORD_LENGTH } from './auth';
import { ERROR_CODES } from './errors';
import { singleLine } from './text';
import { SECOND_FACTOR_ERRORS, SECOND_FACTOR_MESSAGES } from './secondFactorWords';

export { SECOND_FACTOR_ERRORS, SECOND_FACTOR_MESSAGES };

/**
 * A second factor for passwords (issue 40, decision 046): an authenticator app (TOTP) with ten
 * single-use recovery codes. Enrolment, removal and new recovery codes are in the Account section
 * (`/api/account/totp…`, `/api/account/recovery-codes`); a password sign-in of an enrolled account
 * asks for a code (`/api/login/second-factor`). Staff need one to open the console.
 */

/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = 'Sage';
/** How many recovery codes an account gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a password sign-in waits for its second factor. */
export const SECOND_FACTOR_SIGN_IN_MS = 5 * 60_000;

/** 403 of every `/api/admin/*` call of a member of staff signed in by password with no second factor. */
export const SECOND_FACTOR_REQUIRED = {
  error: ERROR_CODES.secondFactorRequired,
  message: 'Staff accounts need a second factor. Set up two-step sign-in to open the console.',
} as const;

/** `STAFF_SECOND_FACTOR`: whether staff signed in by password must have a second factor. */
export const STAFF_SECOND_FACTOR_POLICIES = ['required', 'optional'] as const;
export type StaffSecondFactorPolicy = (typeof STAFF_SECOND_FACTOR_POLICIES)[number];

/**
 * The staff gate (decision 046): whether a request to the console's API must be refused with
 * `second_factor_required`. Only staff; only while the policy is `required`; an Epic sign-in is a
 * second factor already (Epic's own), and so is a passkey sign-in (the passkey is the user's device and its PIN or fingerprint, decision 049); a session started by a password (or from before sessions
 * said how: null) passes once the account has a second factor.
 */
export function needsSecondFactor(opts: {
  isStaff: boolean;
  policy: StaffSecondFactorPolicy;
  sessionMethod: string | null;
  hasSecondFactor: boolean;
}): boolean {
  if (!opts.isStaff || opts.policy !== 'required') return false;
  if (opts.sessionMethod === 'epic' || opts.sessionMethod === 'passkey') return false;
  return !opts.hasSecondFactor;
}

const text = (label: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a string`) })
    .check(singleLine(label), z.trim(), z.minLength(1, `${label} is required`), z.maxLength(max, `${label} is too long`));

/** A six-digit code of the app, or a recovery code (`xxxx-xxxx-xxxx-xxxx`, dashes and spaces optional). */
export const secondFactorCode = text('Code', 64);

/** Whether a code typed is an authenticator app's (six digits), else it is tried as a recovery code. */
export const isAppCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ''));

/** `POST /api/account/totp`: the secret, and the URI the QR code shows. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

/** `POST /api/account/totp/confirm`, `POST /api/login/second-factor`. */
export const codeRequestSchema = z.object({ code: secondFactorCode });
export type CodeRequest = z.input<typeof codeRequestSchema>;

/** New recovery codes: shown once, never again. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/**
 * `DELETE /api/account/totp`, `POST /api/account/recovery-codes`: proof that it is the owner, the
 * account's password or a fresh code (app or recovery), exactly one of them.
 */
export const ownerProofSchema = z
  .object({
    password: z.optional(
      z
        .string({ error: 'Password must be a string' })
        .check(z.minLength(1, 'Password is required'), z.maxLength(MAX_PASSWORD_LENGTH, 'Password is too long')),
    ),
    code: z.optional(secondFactorCode),
  })
  .check(
    z.refine((body) => (body.password === undefined) !== (body.code === undefined), {
      message: 'Give your password or a code',
      path: ['password'],
    }),
  );
export type OwnerProof = z.input<typeof ownerProofSchema>;

/** `GET /api/account/second-factor`: what the Account section shows. */
export const secondFactorStatusSchema = z.object({
  /** Whether the account has a password: Epic-only accounts cannot turn two-step sign-in on. */
  hasPassword: z.boolean(),
  totp: z.object({ enrolled: z.boolean(), since: z.nullable(z.number()) }),
  recoveryCodesLeft: z.number(),
  /** Whether the console needs it of this account (staff, while STAFF_SECOND_FACTOR=required). */
  requiredForStaff: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;

/** `POST /api/login`: signed in, or (an enrolled account) waiting for its second factor, without a session. */
export const loginResponseSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  secondFactorRequired: z.optional(z.literal(true)),
  /** With `secondFactorRequired`: the account has a passkey, which the second step takes too. */
  passkey: z.optional(z.literal(true)),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const IDENTITY_CHECK_MAX = 500;
/** `POST /api/admin/users/{id}/second-factor/reset`: how staff verified the owner's identity, kept in the audit log. */
export const secondFactorResetRequestSchema = z.object({
  identityCheck: z
    .string({ error: 'Say how you verified who is asking' })
    .check(
      z.trim(),
      z.minLength(10, 'Say how you verified who is asking (at least 10 characters)'),
      z.maxLength(IDENTITY_CHECK_MAX, `At most ${IDENTITY_CHECK_MAX} characters`),
    ),
});
export type SecondFactorResetRequest = z.input<typeof secondFactorResetRequestSchema>;
