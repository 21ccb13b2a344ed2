import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import type { CurrentUser } from '../../../contract/user';
import { identify, loginTracked, track } from '../../analytics';
import { forgotPassword, login, register } from '../../api/auth';
import { HttpError } from '../../api/client';
import { USER_QUERY_KEY, useRefreshCurrentUser } from '../../authProvider/session';
import { useToast } from '../../ui/toast';
import { UNEXPECTED_ERROR } from '../forms/contractForm';
import type { LoginMode } from './loginForm';
import { pendingInvitationPath } from '../orgs/pendingInvitation';

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

  /** Sign in or register: busy (`submit.isPending`) until the dashboard is on its way. */
  const submit = useMutation({
    mutationFn: ({ mode, email, password, rememberMe }: Credentials & { mode: LoginMode }) =>
      mode === 'signin' ? login({ email: email.trim(), password, rememberMe }) : register({ email: email.trim(), password }),
    onSuccess: async (_answer, { mode }) => {
      // The dashboard's guard reads the cached user, so it must be fresh before we go there.
      await refreshCurrentUser();
      const user = queryClient.getQueryData<CurrentUser | null>(USER_QUERY_KEY);
      if (user && loginTracked(user.id)) {
        identify(user);
        track('User Login', { method: 'email', mode, status: 'success' });
      }
      // An invitation opened before signing in is where the visitor was going (issue 38).
      navigate(pendingInvitationPath() ?? '/dashboard', { replace: true });
    },
    onError: (error, { mode }) => {
      // A refused call shows the server's words; anything else went wrong in this page.
      const [message, duration] =
        error instanceof HttpError
          ? [error.message || FAILED_TO_AUTHENTICATE, undefined]
          : [UNEXPECTED_ERROR, UNEXPECTED_ERROR_DURATION_MS];
      // §8: failed logins are tracked with the error message (never the e-mail or password).
      track('User Login', { method: 'email', mode, status: 'failed', error_message: message });
      showError(message, duration);
    },
  });

  const resetMail = useMutation({
    mutationFn: forgotPassword,
    onSuccess: (_answer, { email }) =>
      toast({ title: 'Password reset email sent', description: `If an account exists for ${email}, a reset link is on its way.` }),
    onError: (error) => showError(error.message || 'Failed to send reset email'),
  });
  const { mutate: sendResetMail } = resetMail;

  const requestPasswordReset = useCallback(
    (suggestedEmail: string) => {
      const entered = window.prompt(FORGOT_PASSWORD_PROMPT, suggestedEmail.trim());
      const email = entered?.trim();
      if (email) sendResetMail({ email });
    },
    [sendResetMail],
  );

  return { submit, requestPasswordReset };
}
