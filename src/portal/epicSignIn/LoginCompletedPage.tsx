import { Alert, Button, CircularProgress, Container, Paper, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { SignInClient } from '../../../contract/epic';
import { clearUeContext, epicSignInUrl, storeUePayload } from '../../api/epic';
import { useAuthStatus, useRefreshCurrentUser } from '../../authProvider/session';
import { assignLocation } from '../browser';
import { clientFromSearch, loginCompletedView } from './rules';

type Delivery = { state: 'idle' } | { state: 'sending' } | { state: 'refused' } | { state: 'failed'; message: string };

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 4, sm: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Stack spacing={3}>
          <Typography component="h1" variant="h5">
            {title}
          </Typography>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}

function Busy({ children }: { children: ReactNode }) {
  return (
    <Stack role="status" aria-live="polite" direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      <CircularProgress size={20} aria-hidden />
      <Typography>{children}</Typography>
    </Stack>
  );
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
  const [delivery, setDelivery] = useState<Delivery>({ state: 'idle' });
  const stored = useRef(false);

  // The navigation bar shows Dashboard and Logout from here on.
  useEffect(() => {
    void refreshCurrentUser();
  }, [refreshCurrentUser]);

  const computed = status.data ? loginCompletedView(client, status.data) : null;
  // §4: a 403 turns UE mode off; `deliver` needs a signed-in user, so what is left is the success.
  const view = computed === 'deliver' && delivery.state === 'refused' ? 'success' : computed;
  const deliver = view === 'deliver';

  useEffect(() => {
    if (!deliver || stored.current) return;
    stored.current = true;
    setDelivery({ state: 'sending' });
    void (async () => {
      const payload = await storeUePayload();
      if (!payload.ok) {
        // 403: no hand-off waits after all (delivered from another tab): plain web success.
        setDelivery(payload.status === 403 ? { state: 'refused' } : { state: 'failed', message: payload.message });
        return;
      }
      await clearUeContext();
      assignLocation(payload.data.redirectUrl);
    })();
  }, [deliver]);

  if (status.isPending) {
    return (
      <Frame title="Completing sign-in">
        <Busy>Loading...</Busy>
      </Frame>
    );
  }
  if (status.isError) {
    return (
      <Frame title="Something went wrong">
        <Alert severity="error">Failed to load the sign-in status: {status.error.message}</Alert>
        <FailureActions client={client} />
      </Frame>
    );
  }
  if (delivery.state === 'failed') {
    return (
      <Frame title="Something went wrong">
        <Alert severity="error">Sage could not send your sign-in to the plugin: {delivery.message}</Alert>
        <FailureActions client={client} />
      </Frame>
    );
  }
  if (deliver) {
    return (
      <Frame title="Sending data to the plugin">
        <Busy>Sending data to the plugin...</Busy>
        <Typography color="text.secondary">Your browser hands your sign-in to Unreal Editor. This takes a moment.</Typography>
      </Frame>
    );
  }
  const email = status.data.user?.email;
  if (view === 'success') {
    return (
      <Frame title="You're all set!">
        {email && <Typography>Signed in as {email}</Typography>}
        {client === 'ue' ? (
          <Typography color="text.secondary">You can close this tab and return to Unreal Editor.</Typography>
        ) : (
          <Stack direction="row">
            <Button variant="contained" component={RouterLink} to="/dashboard">
              Go to Dashboard
            </Button>
          </Stack>
        )}
      </Frame>
    );
  }
  return (
    <Frame title="Sign-in Not Completed">
      <Alert severity="error">{status.data.ue.message ?? 'You are not signed in.'}</Alert>
      {email && <Typography>Signed in as {email}</Typography>}
      <FailureActions client={client} />
    </Frame>
  );
}
