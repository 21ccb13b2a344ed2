import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import type { AuthStatus, SignInClient } from '../../../contract/epic';
import { loginTracked, track } from '../../analytics';
import { epicSignInUrl } from '../../api/auth';
import { HttpError } from '../../api/client';
import { clearUeContext, storeUePayload } from '../../api/epic';
import { useAuthStatus } from '../../authProvider/authStatus';
import { useCurrentUser, useRefreshCurrentUser } from '../../authProvider/session';
import { BusyLine, PageCard } from '../../ui/PageCard';
import { assignLocation } from '../../browser';
import { clientFromSearch, loginCompletedView } from './rules';
import { pendingInvitationPath } from '../orgs/pendingInvitation';

/** What went wrong: the plugin sign-in's own message when it failed, else that nobody is signed in. */
function failureMessage(status: AuthStatus): string {
  const failed = status.ue.status === 'failed' || status.ue.status === 'canceled';
  return (failed && status.ue.message) || 'You are not signed in.';
}

function FailureActions({ client }: { client: SignInClient }) {
  return (
    <>
      {client === 'ue' && (
        <Typography variant="body2" color="text.secondary">
          To sign in the Unreal plugin, start the sign-in again from the Sage toolbar in Unreal Editor.
        </Typography>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="contained" onClick={() => assignLocation(epicSignInUrl('web'))}>
          Try Again
        </Button>
        {client === 'web' && (
          <Button variant="outlined" component={RouterLink} to="/dashboard">
            Return to Dashboard
          </Button>
        )}
      </Stack>
    </>
  );
}

/**
 * /login_completed?client=web|ue: the end of an Epic sign-in (§2, §4). For the plugin it stores
 * the hand-off once, clears the plugin's request and sends the browser to its loopback address.
 */
export function LoginCompletedPage() {
  const [searchParams] = useSearchParams();
  const client = clientFromSearch(searchParams.get('client'));
  const status = useAuthStatus();
  const refreshCurrentUser = useRefreshCurrentUser();
  const stored = useRef(false);
  const delivery = useMutation({
    mutationFn: async () => {
      const { redirectUrl } = await storeUePayload();
      // The hand-off is stored: forgetting the plugin's request is tidying, not a condition of it.
      await clearUeContext().catch(() => undefined);
      return redirectUrl;
    },
    onSuccess: (redirectUrl) => assignLocation(redirectUrl),
  });
  // 403: no hand-off waits after all (delivered from another tab): plain web success.
  const refused = delivery.error instanceof HttpError && delivery.error.status === 403;

  // The navigation bar shows Dashboard and Logout from here on.
  useEffect(() => {
    void refreshCurrentUser();
  }, [refreshCurrentUser]);

  const computed = status.data ? loginCompletedView(client, status.data) : null;
  // §4: a 403 turns UE mode off; `deliver` needs a signed-in user, so what is left is the success.
  const view = computed === 'deliver' && refused ? 'success' : computed;
  const deliver = view === 'deliver';

  // User Login (method epic) once the Epic sign-in has succeeded. The excluded ids are checked
  // when the user is identified (PageTracker), and here through the shared user query.
  const loginReported = useRef(false);
  const user = useCurrentUser();
  useEffect(() => {
    if (loginReported.current || (view !== 'success' && view !== 'deliver') || user.isPending) return;
    loginReported.current = true;
    if (user.data && !loginTracked(user.data.id)) return;
    track('User Login', { method: 'epic', status: 'success', client });
  }, [view, client, user.isPending, user.data]);

  const { mutate: deliverPayload } = delivery;
  useEffect(() => {
    if (!deliver || stored.current) return;
    stored.current = true;
    deliverPayload();
  }, [deliver, deliverPayload]);

  if (status.isPending) {
    return (
      <PageCard title="Completing sign-in">
        <Box role="status">
          <BusyLine>Loading...</BusyLine>
        </Box>
      </PageCard>
    );
  }
  if (status.isError) {
    return (
      <PageCard title="Something went wrong">
        <Alert severity="error">Failed to load the sign-in status: {status.error.message}</Alert>
        <FailureActions client={client} />
      </PageCard>
    );
  }
  if (delivery.isError && !refused) {
    return (
      <PageCard title="Something went wrong">
        <Alert severity="error">Sage could not send your sign-in to the plugin: {delivery.error.message}</Alert>
        <FailureActions client={client} />
      </PageCard>
    );
  }
  if (deliver) {
    return (
      <PageCard title="Sending data to the plugin">
        <Box role="status" aria-live="polite">
          <BusyLine>Sending data to the plugin...</BusyLine>
        </Box>
        <Typography color="text.secondary">Your browser hands your sign-in to Unreal Editor. This takes a moment.</Typography>
      </PageCard>
    );
  }
  const email = status.data.user?.email;
  // An invitation opened before signing in with Epic is where the visitor was going (issue 38).
  const invitation = pendingInvitationPath();
  if (view === 'success') {
    return (
      <PageCard title="You're all set!">
        {email && <Typography>Signed in as {email}</Typography>}
        {client === 'ue' ? (
          <Typography color="text.secondary">You can close this tab and return to Unreal Editor.</Typography>
        ) : (
          <Stack direction="row">
            <Button variant="contained" component={RouterLink} to={invitation ?? '/dashboard'}>
              {invitation ? 'Back to your invitation' : 'Go to Dashboard'}
            </Button>
          </Stack>
        )}
      </PageCard>
    );
  }
  return (
    <PageCard title="Sign-in Not Completed">
      <Alert severity="error">{failureMessage(status.data)}</Alert>
      {email && <Typography>Signed in as {email}</Typography>}
      <FailureActions client={client} />
    </PageCard>
  );
}
