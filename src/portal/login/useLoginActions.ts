import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { CurrentUser } from '../../../contract/user';
import { identify, loginTracked, track } from '../../analytics';
import { SECOND_FACTOR_ERRORS } from '../../../contract/secondFactorWords';
import { forgotPassword, login, loginSecondFactor, register } from '../../api/auth';
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

  /** Signed in: the dashboard (or an invitation opened before signing in) is next. */
  const signedIn = useCallback(
    async (mode: LoginMode) => {
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
    [navigate, queryClient, refreshCurrentUser],
  );

  const failed = useCallback(
    (error: Error, mode: LoginMode) => {
      // A refused call shows the server's words; anything else went wrong in this page.
      const [message, duration] =
        error instanceof HttpError
          ? [error.message || FAILED_TO_AUTHENTICATE, undefined]
          : [UNEXPECTED_ERROR, UNEXPECTED_ERROR_DURATION_MS];
      // §8: failed logins are tracked with the error message (never the e-mail or password).
      track('User Login', { method: 'email', mode, status: 'failed', error_message: message });
      showError(message, duration);
    },
    [showError],
  );

  /** The password was right and two-step sign-in is on: the server's question, until a code answers it. */
  const [secondFactorPrompt, setSecondFactorPrompt] = useState<string | null>(null);
  /** Whether the account has a passkey, which answers the second step too. */
  const [secondFactorPasskey, setSecondFactorPasskey] = useState(false);

  /** Sign in or register: busy (`submit.isPending`) until the dashboard is on its way. */
  const submit = useMutation({
    mutationFn: ({ mode, email, password, rememberMe }: Credentials & { mode: LoginMode }) =>
      mode === 'signin' ? login({ email: email.trim(), password, rememberMe }) : register({ email: email.trim(), password }),
    onSuccess: async (answer, { mode }) => {
      if (mode === 'signin' && (answer as { secondFactorRequired?: boolean } | undefined)?.secondFactorRequired) {
        setSecondFactorPrompt((answer as { message: string }).message);
        setSecondFactorPasskey((answer as { passkey?: boolean }).passkey === true);
        return;
      }
      await signedIn(mode);
    },
    onError: (error, { mode }) => failed(error, mode),
  });

  /**
   * The second step (issue 40): the app's code or a recovery code, in the browser the password was
   * typed in; null: one of the account's passkeys (its ceremony's code loaded on the click).
   */
  const confirmCode = useMutation({
    mutationFn: async (code: string | null) => {
      if (code !== null) return loginSecondFactor({ code: code.trim() });
      const [{ secondFactorWithPasskey }, { passkeyProblem }] = await Promise.all([
        import('../../api/passkeys'),
        import('../passkeys/passkeyProblem'),
      ]);
      try {
        return await secondFactorWithPasskey();
      } catch (error) {
        // The browser's own errors (a cancelled ceremony) in the product's words.
        if (error instanceof HttpError) throw error;
        throw new HttpError({ status: 0, message: passkeyProblem(error, FAILED_TO_AUTHENTICATE) });
      }
    },
    onSuccess: () => signedIn('signin'),
    onError: (error) => {
      failed(error, 'signin');
      // Past its five minutes (or used): the password step again.
      if (error instanceof HttpError && error.code === SECOND_FACTOR_ERRORS.signInExpired) setSecondFactorPrompt(null);
    },
  });

  const cancelSecondFactor = useCallback(() => setSecondFactorPrompt(null), []);

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

  return { submit, requestPasswordReset, secondFactorPrompt, secondFactorPasskey, confirmCode, cancelSecondFactor };
}
