// Loaded when a login or reset form is first checked (loginForm.ts): it brings zod.
import * as z from 'zod/mini';
import { loginRequestSchema } from '../../../contract/auth';
import { passwordsMatch } from '../forms/passwordsMatch';
import type { LoginFormValues, LoginMode } from './loginForm';

/**
 * §5: "e-mail and password required … no length or format rule beyond the e-mail input type". So
 * both modes check the sign-in request's own fields (`Email is required`, `Password is required`);
 * register adds the matching copy. Register's length and format rules are the server's to answer.
 */
const emailAndPassword = z.pick(loginRequestSchema, { email: true, password: true });

export const LOGIN_FORMS: Record<LoginMode, z.ZodMiniType<LoginFormValues, LoginFormValues>> = {
  signin: loginRequestSchema,
  register: z.extend(emailAndPassword, { passwordConfirm: z.string() }).check(passwordsMatch('password', 'passwordConfirm')),
};

/**
 * /reset-password's form (§5: both fields required; a mismatch gives Passwords do not match). The
 * new password's length is the reset request's rule, answered by the server in its words.
 */
export const RESET_PASSWORD_FORM = z
  .object({
    newPassword: z.string().check(z.minLength(1, 'New password is required')),
    confirmPassword: z.string().check(z.minLength(1, 'Please confirm your new password')),
  })
  .check(passwordsMatch('newPassword', 'confirmPassword'));
