import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from './auth';
import { linkEmailSchema } from './epic';
import { ACCOUNT_SUSPENDED } from './suspension';
import { RECENT_SIGN_IN_MINUTES } from './recentSignIn';
import { singleLine } from './text';
import { ACCOUNT_EXISTS_MESSAGE } from './user';
import { EMAIL_CHANGE_PARAM } from './emailChangeParam';

/**
 * Changing the account's e-mail (issue 27): a link goes to the new address, and the address
 * changes only when it is opened; the old address keeps working until then and is told afterwards.
 */

/** A change link works this long (as a password reset link does). */
export const EMAIL_CHANGE_TTL_MS = 60 * 60_000;

/**
 * What the account shows, besides its session, before its e-mail may change (the one "recent
 * sign-in" rule, contract/recentSignIn.ts):
 * - `recent_sign_in`: this browser signed in recently enough: nothing more;
 * - `current_password`: it did not, and the account has a password, which the request must carry;
 * - `sign_in_again`: it did not, and the account has none (Epic): sign in with Epic again.
 */
export const EMAIL_CHANGE_PROOFS = ['current_password', 'recent_sign_in', 'sign_in_again'] as const;
export type EmailChangeProof = (typeof EMAIL_CHANGE_PROOFS)[number];

/** A change waiting for its link to be opened. */
export const pendingEmailChangeSchema = z.object({
  newEmail: z.string(),
  /** ISO 8601: when the link stops working. */
  expiresAt: z.string(),
});
export type PendingEmailChange = z.infer<typeof pendingEmailChangeSchema>;

/** `GET /api/account/email`. */
export const accountEmailSchema = z.object({
  email: z.string().nullable(),
  verified: z.boolean(),
  /** The linked Epic account's display name; null for legacy e-mail accounts. */
  epicDisplayName: z.string().nullable(),
  proof: z.enum(EMAIL_CHANGE_PROOFS),
  pending: pendingEmailChangeSchema.nullable(),
});
export type AccountEmail = z.infer<typeof accountEmailSchema>;

/** `POST /api/account/email`. `currentPassword` is required of accounts that have a password. */
export const emailChangeRequestSchema = z.object({
  newEmail: linkEmailSchema,
  currentPassword: z.string().max(MAX_PASSWORD_LENGTH, 'Current password is too long').optional(),
});
export type EmailChangeRequest = z.input<typeof emailChangeRequestSchema>;

/** The form of an account with a password: the same request, the password required. */
export const emailChangeWithPasswordSchema = emailChangeRequestSchema.extend({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(MAX_PASSWORD_LENGTH, 'Current password is too long'),
});

/** The answer of `POST /api/account/email`: the link went to `pending.newEmail`. */
export const emailChangeRequestedSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  pending: pendingEmailChangeSchema,
});
export type EmailChangeRequested = z.infer<typeof emailChangeRequestedSchema>;

/** The mail's link: `GET /api/account/email/confirm?token=…`. */
export const emailChangeConfirmQuerySchema = z.object({
  token: z.string().check(singleLine('token')).max(200).optional(),
});

/** Where the link lands: `/dashboard?emailChange=<outcome>#account`. */
export { EMAIL_CHANGE_PARAM };
export const EMAIL_CHANGE_LANDING = '/dashboard';
export const EMAIL_CHANGE_HASH = '#account';

/**
 * What opening the link came to, and what the dashboard says of it. The page shows only these
 * texts, chosen by code, so a crafted link cannot put other words on it.
 */
export const EMAIL_CHANGE_OUTCOMES = {
  changed: { success: true, message: 'Your e-mail address has been changed. Use it the next time you sign in.' },
  invalid_token: { success: false, message: 'This e-mail change link is invalid or has already been used.' },
  expired_token: { success: false, message: 'This e-mail change link has expired. Please ask for a new one.' },
  email_taken: { success: false, message: `${ACCOUNT_EXISTS_MESSAGE} Your e-mail address was not changed.` },
  /** The account was suspended since the link was sent (issue 36): nothing changes. */
  account_suspended: { success: false, message: ACCOUNT_SUSPENDED.message },
  rate_limited: { success: false, message: 'Too many attempts. Please try again later.' },
  failed: { success: false, message: 'The link could not be checked right now. Please open it again in a moment.' },
} as const;
export type EmailChangeOutcome = keyof typeof EMAIL_CHANGE_OUTCOMES;

export const isEmailChangeOutcome = (value: string | null): value is EmailChangeOutcome =>
  value !== null && Object.hasOwn(EMAIL_CHANGE_OUTCOMES, value);

/** The dashboard address a link's outcome lands on. */
export const emailChangeLanding = (outcome: EmailChangeOutcome) =>
  `${EMAIL_CHANGE_LANDING}?${EMAIL_CHANGE_PARAM}=${outcome}${EMAIL_CHANGE_HASH}`;

/**
 * Where it lands in a browser that is not signed in: the sign-in page, which says the same. The
 * dashboard would send it on to the home page and the outcome would be lost on the way.
 */
export const EMAIL_CHANGE_SIGNED_OUT_LANDING = '/login';
export const emailChangeSignedOutLanding = (outcome: EmailChangeOutcome) =>
  `${EMAIL_CHANGE_SIGNED_OUT_LANDING}?${EMAIL_CHANGE_PARAM}=${outcome}`;

/** The refusals of `POST /api/account/email` the panel branches on. */
export const EMAIL_CHANGE_ERRORS = {
  sameEmail: 'same_email',
  passwordRequired: 'current_password_required',
  wrongPassword: 'wrong_password',
  /** 403, as the account deletion says it (contract/accountData.ts). */
  signInAgain: 'reauthentication_required',
  emailTaken: 'email_taken',
} as const;

export const EMAIL_CHANGE_MESSAGES = {
  sameEmail: 'This is already your e-mail address.',
  passwordRequired: 'Enter your current password to change your e-mail.',
  wrongPassword: 'The current password is not correct.',
  signInAgain: `For your security, sign in with Epic again before changing your e-mail: your last sign-in here was more than ${RECENT_SIGN_IN_MINUTES} minutes ago.`,
  emailTaken: ACCOUNT_EXISTS_MESSAGE,
  tooMany: 'Too many e-mail change requests. Please try again later.',
  mailFailed: 'The e-mail to your new address could not be sent. Please try again.',
} as const;
