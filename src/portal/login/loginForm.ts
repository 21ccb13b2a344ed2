/** The two modes of the login screen (§4: the form toggles between them). */
export type LoginMode = 'signin' | 'register';

/** Reads the initial mode from the URL (`?mode=register`); anything else starts in sign-in. */
export function modeFromSearch(value: string | null): LoginMode {
  return value === 'register' ? 'register' : 'signin';
}

/** The login form's fields: Remember me in sign-in mode only, Confirm Password in register mode only. */
export interface LoginFormValues {
  email: string;
  password: string;
  rememberMe?: boolean;
  passwordConfirm?: string;
}

/** The reset form's fields; only the new password is sent. */
export interface ResetPasswordFormValues {
  newPassword: string;
  confirmPassword: string;
}

/**
 * The login and reset forms' rules, with zod: a chunk of their own, loaded when the visitor first
 * reaches into the form or submits it, so the pages run without it (decision 009's budget).
 */
export const loadLoginFormSchemas = () => import('./loginFormSchemas');
