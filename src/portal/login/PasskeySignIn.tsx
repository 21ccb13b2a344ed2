import { Alert, Button } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { CurrentUser } from '../../../contract/user';
import { identify, loginTracked, track } from '../../analytics';
import { USER_QUERY_KEY, useRefreshCurrentUser } from '../../authProvider/session';
import { pendingInvitationPath } from '../orgs/pendingInvitation';
import { passkeyProblem } from '../passkeys/passkeyProblem';
import { FAILED_TO_AUTHENTICATE } from './useLoginActions';

/**
 * "Sign in with a passkey" (issue 40): a passkey this browser, a phone or a security key holds for
 * Sage signs in without the e-mail and password. The ceremony's code loads on the click, so the
 * sign-in page's first paint stays as it was.
 */
export function PasskeySignIn({ disabled }: { disabled: boolean }) {
  const navigate = useNavigate();
  const refreshCurrentUser = useRefreshCurrentUser();
  const queryClient = useQueryClient();

  const signIn = useMutation({
    mutationFn: async () => (await import('../../api/passkeys')).signInWithPasskey(),
    onSuccess: async () => {
      // The dashboard's guard reads the cached user, so it must be fresh before we go there.
      await refreshCurrentUser();
      const user = queryClient.getQueryData<CurrentUser | null>(USER_QUERY_KEY);
      if (user && loginTracked(user.id)) {
        identify(user);
        track('User Login', { method: 'passkey', status: 'success' });
      }
      navigate(pendingInvitationPath() ?? '/dashboard', { replace: true });
    },
    onError: () => track('User Login', { method: 'passkey', status: 'failed' }),
  });
  const problem = signIn.error ? passkeyProblem(signIn.error, FAILED_TO_AUTHENTICATE) : null;

  return (
    <>
      <Button
        variant="outlined"
        fullWidth
        size="large"
        sx={{ mt: 2 }}
        disabled={disabled || signIn.isPending || signIn.isSuccess}
        onClick={() => signIn.mutate()}
      >
        {signIn.isPending ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </Button>
      {problem && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {problem}
        </Alert>
      )}
    </>
  );
}
