/** The two modes of the login screen (§4: the form toggles between them). */
export type LoginMode = 'signin' | 'register';

/** §3 Login form: passwordConfirm only matters in register mode. */
export interface LoginFormValues {
  email: string;
  password: string;
  passwordConfirm: string;
}

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/**
 * §5 login rules: e-mail and password required; in register mode both passwords must match.
 * Returns the message to show, or null when the form may be sent. No length or format rule:
 * the e-mail input type and the server cover those.
 */
export function validateLoginForm(mode: LoginMode, values: LoginFormValues): string | null {
  if (values.email.trim() === '') return 'Email is required';
  if (values.password === '') return 'Password is required';
  if (mode === 'register' && values.password !== values.passwordConfirm) return PASSWORDS_DO_NOT_MATCH;
  return null;
}

/** §5 reset-password rules: both fields required, and they must match. */
export function validatePasswordReset(newPassword: string, confirmPassword: string): string | null {
  if (newPassword === '') return 'New password is required';
  if (confirmPassword === '') return 'Please confirm your new password';
  if (newPassword !== confirmPassword) return PASSWORDS_DO_NOT_MATCH;
  return null;
}

/** Reads the initial mode from the URL (`?mode=register`); anything else starts in sign-in. */
export function modeFromSearch(value: string | null): LoginMode {
  return value === 'register' ? 'register' : 'signin';
}
