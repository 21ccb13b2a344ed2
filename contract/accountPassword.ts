// zod/mini, as contract/auth.ts: the Account section's password form validates with this schema.
import * as z from 'zod/mini';
import { MAX_PASSWORD_LENGTH, resetPasswordRequestSchema } from './auth';

/**
 * A customer's own password (issue 27): `GET /api/account/password` says whether the account has
 * one (Epic accounts have none), `POST /api/account/password` changes it. An account made with a
 * one-time password (`create-admin`) must change it before anything else.
 */

/** The `error` codes of a refused change, which the form branches on. */
export const PASSWORD_CHANGE_ERRORS = {
  /** 400: the current password given is not the account's. */
  wrongPassword: 'wrong_password',
  /** 409: the account signs in with Epic and has no password to change. */
  noPassword: 'no_password',
} as const;

/**
 * 403 of every signed-in call but the few that set the password, while the account still has its
 * one-time password (`passwordChangeRequired` of `GET /api/user`).
 */
export const PASSWORD_CHANGE_REQUIRED = {
  error: 'password_change_required',
  message: 'Your account has a one-time password. Please set your own password first.',
} as const;

/** Same text, same password: compared as the hash sees it (passwords.ts hashes the NFKC form). */
const samePassword = (a: string, b: string) => a.normalize('NFKC') === b.normalize('NFKC');

/** The new password must differ from the current one, or a one-time password could be "changed" to itself. */
export const newPasswordDiffers = z.refine<{ currentPassword: string; newPassword: string }>(
  (values) => !samePassword(values.currentPassword, values.newPassword),
  { message: 'Choose a new password that differs from the current one', path: ['newPassword'] },
);

/**
 * `POST /api/account/password`. The new password follows the one rule of new passwords (register,
 * reset: contract/auth.ts) and differs from the current one.
 */
export const passwordChangeRequestSchema = z
  .object({
    currentPassword: z
      .string({ error: (issue) => (issue.input === undefined ? 'Current password is required' : 'Current password must be a string') })
      .check(
        z.minLength(1, 'Current password is required'),
        z.maxLength(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
      ),
    newPassword: resetPasswordRequestSchema.shape.newPassword,
    /**
     * Also replace the license token, so every plugin install must sign in again (issue 36). Absent
     * means yes: the form's box starts checked, as a password changed for fear of a thief should be.
     */
    signOutPlugin: z.optional(z.boolean()),
  })
  .check(newPasswordDiffers);
export type PasswordChangeRequest = z.input<typeof passwordChangeRequestSchema>;

/** The password form's box, and what it means when the body leaves it out. */
export const SIGN_OUT_PLUGIN_LABEL = 'Also sign the Sage plugin out (it will ask you to sign in again)';
export const SIGN_OUT_PLUGIN_DEFAULT = true;

/** `GET /api/account/password`: whether the account signs in with a password at all. */
export const passwordStatusSchema = z.object({ hasPassword: z.boolean() });
export type PasswordStatus = z.infer<typeof passwordStatusSchema>;
