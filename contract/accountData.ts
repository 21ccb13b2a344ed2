import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from './auth';
import { RECENT_SIGN_IN_MINUTES } from './recentSignIn';
import { ERROR_CODES } from './errors';
import { singleLine } from './text';

/**
 * The customer's own data (issue 27, docs/account-data.md): `GET /api/account/export` downloads
 * everything held about them as one JSON file; `DELETE /api/account` deletes the account after they
 * prove it is them (their password, or a recent sign-in in this browser: contract/recentSignIn.ts)
 * and type their username.
 */

/** Downloads of the data file a user may start per hour: each reads all of their rows. */
export const EXPORTS_PER_HOUR = 3;

/** The export's file name for the UTC day it was made: `sage-data-2026-11-26.json`. */
export const exportFileName = (at: Date): string => `sage-data-${at.toISOString().slice(0, 10)}.json`;

/** The username typed to confirm a deletion: as shown, spaces around it forgiven. */
export const confirmsUsername = (typed: string, username: string): boolean => typed.trim() === username.trim();

/** `DELETE /api/account`: the username typed to confirm, and the password (legacy accounts). */
export const deleteAccountRequestSchema = z.object({
  confirm: z.string({ error: 'confirm must be your username' }).check(singleLine('confirm')).max(200),
  /** Not needed within RECENT_SIGN_IN_MINUTES of this browser's sign-in (contract/recentSignIn.ts). */
  password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/**
 * `GET /api/account/deletion`: what the Delete account dialog asks for, in this browser.
 * `recentSignInUntil` (ISO 8601): when this browser's sign-in stops standing for the password,
 * null when it does not now. Then `password`: the account has one, and typing it suffices;
 * `epic`: it has none, so the user signs in with Epic again.
 */
export const accountDeletionStatusSchema = z.object({
  username: z.string(),
  reauthentication: z.enum(['password', 'epic']),
  recentSignInUntil: z.string().nullable(),
  /** The only admin left cannot delete their account (409 last_admin). */
  lastAdmin: z.boolean(),
  /** An account that owns an organisation is not deleted until ownership moves (409 owns_organisation, issue 38). */
  ownsOrganisation: z.boolean(),
});
export type AccountDeletionStatus = z.infer<typeof accountDeletionStatusSchema>;

export const accountDeletedSchema = z.object({ ok: z.literal(true), message: z.string() });
export type AccountDeleted = z.infer<typeof accountDeletedSchema>;

/** The refusals of `DELETE /api/account`, by `error` code: the screens branch on the code. */
export const ACCOUNT_DELETION_ERRORS = {
  /** 400: `confirm` is not the username. */
  confirmationMismatch: 'confirmation_mismatch',
  /** 400: the password is not the account's (as the password and e-mail forms say it). */
  wrongPassword: 'wrong_password',
  /** 403: no password was given, and this browser's sign-in is not recent enough. */
  reauthenticationRequired: 'reauthentication_required',
  /** 409: the only admin. */
  lastAdmin: ERROR_CODES.lastAdmin,
  /** 502: Stripe did not cancel a subscription; nothing was deleted. */
  subscriptionNotCancelled: 'subscription_not_cancelled',
} as const;

export const ACCOUNT_DATA_MESSAGES = {
  confirmationMismatch: 'Type your username exactly as shown to confirm.',
  wrongPassword: 'The password is not correct.',
  passwordRequired: 'Enter your password to delete your account.',
  epicSignInRequired: `For your safety, sign in with Epic again, then delete your account within ${RECENT_SIGN_IN_MINUTES} minutes.`,
  lastAdmin: 'You are the only admin. Make someone else an admin before you delete your account.',
  subscriptionNotCancelled: 'We could not cancel your subscription with our payment provider, so nothing was deleted. Please try again.',
  deleted: 'Your account has been deleted.',
  tooManyExports: `You can download your data ${EXPORTS_PER_HOUR} times an hour. Please try again later.`,
  tooManyDeletions: 'Too many attempts. Please wait a few minutes and try again.',
} as const;
