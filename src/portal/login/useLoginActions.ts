import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { forgotPassword, login, register } from '../../api/auth';
import { useRefreshCurrentUser } from '../../authProvider/session';
import { useToast } from '../../ui/toast';
import type { LoginMode } from './validation';

export const FAILED_TO_AUTHENTICATE = 'Failed to authenticate. Please try again.';
export const UNEXPECTED_ERROR = 'An unexpected error occurred';
export const FORGOT_PASSWORD_PROMPT = 'Enter your email address:';
const UNEXPECTED_ERROR_DURATION_MS = 5000;

export interface Credentials {
  email: string;
  password: string;
  rememberMe: boolean;
}

/** The login screen's calls and their outcomes (§2, §8), apart from the form's own state. */
export function useLoginActions() {
  const navigate = useNavigate();
  const toast = useToast();
  const refreshCurrentUser = useRefreshCurrentUser();

  const showError = useCallback(
    (description: string, duration?: number) => toast({ title: 'Error', description, variant: 'destructive', duration }),
    [toast],
  );

  const submit = useCallback(
    async (mode: LoginMode, { email, password, rememberMe }: Credentials) => {
      try {
        const result =
          mode === 'signin'
            ? await login({ email: email.trim(), password, rememberMe })
            : await register({ email: email.trim(), password });
        if (!result.ok) {
          showError(result.message || FAILED_TO_AUTHENTICATE);
          return;
        }
        // The dashboard's guard reads the cached user, so it must be fresh before we go there.
        await refreshCurrentUser();
        navigate('/dashboard', { replace: true });
      } catch {
        showError(UNEXPECTED_ERROR, UNEXPECTED_ERROR_DURATION_MS);
      }
    },
    [navigate, refreshCurrentUser, showError],
  );

  const requestPasswordReset = useCallback(
    async (suggestedEmail: string) => {
      const entered = window.prompt(FORGOT_PASSWORD_PROMPT, suggestedEmail.trim());
      const email = entered?.trim();
      if (!email) return;
      const result = await forgotPassword({ email });
      if (result.ok) {
        toast({ title: 'Password reset email sent', description: `If an account exists for ${email}, a reset link is on its way.` });
      } else {
        showError(result.message || 'Failed to send reset email');
      }
    },
    [showError, toast],
  );

  return { submit, requestPasswordReset };
}
