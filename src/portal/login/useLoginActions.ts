import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import type { CurrentUser } from '../../../contract/user';
import { identify, loginTracked, track } from '../../analytics';
import { forgotPassword, login, register } from '../../api/auth';
import { USER_QUERY_KEY, useRefreshCurrentUser } from '../../authProvider/session';
import { useToast } from '../../ui/toast';
import { UNEXPECTED_ERROR } from '../forms/contractForm';
import type { LoginMode } from './loginForm';

export { UNEXPECTED_ERROR };
export const FAILED_TO_AUTHENTICATE = 'Failed to authenticate. Please try again.';
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
  const queryClient = useQueryClient();

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
          const message = result.message || FAILED_TO_AUTHENTICATE;
          // §8: failed logins are tracked with the error message (never the e-mail or password).
          track('User Login', { method: 'email', mode, status: 'failed', error_message: message });
          showError(message);
          return;
        }
        // The dashboard's guard reads the cached user, so it must be fresh before we go there.
        await refreshCurrentUser();
        const user = queryClient.getQueryData<CurrentUser | null>(USER_QUERY_KEY);
        if (user && loginTracked(user.id)) {
          identify(user);
          track('User Login', { method: 'email', mode, status: 'success' });
        }
        navigate('/dashboard', { replace: true });
      } catch {
        track('User Login', { method: 'email', mode, status: 'failed', error_message: UNEXPECTED_ERROR });
        showError(UNEXPECTED_ERROR, UNEXPECTED_ERROR_DURATION_MS);
      }
    },
    [navigate, queryClient, refreshCurrentUser, showError],
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
