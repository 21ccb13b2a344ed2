import * as z from 'zod/mini';
import { newPasswordDiffers, passwordChangeRequestSchema } from '../../../../contract/accountPassword';
import { passwordsMatch } from '../../forms/passwordsMatch';

/** The password form's fields; the confirmation never reaches the server. */
export interface PasswordChangeFormValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * The request's own rules (contract/accountPassword.ts: the new-password rule of register and reset,
 * different from the current one), and a confirmation that matches (§5's Passwords do not match).
 */
export const PASSWORD_CHANGE_FORM = z
  .object({
    ...passwordChangeRequestSchema.shape,
    confirmPassword: z.string().check(z.minLength(1, 'Please confirm your new password')),
  })
  .check(newPasswordDiffers, passwordsMatch('newPassword', 'confirmPassword'));
