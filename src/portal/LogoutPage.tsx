import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { reset, track } from '../analytics';
import { logout } from '../api/auth';
import { USER_QUERY_KEY, useCurrentUser } from '../authProvider/session';
import { assignLocation } from '../browser';
import { BusyLine, PageCard } from '../ui/PageCard';
import { useToast } from '../ui/toast';

export const SIGN_OUT_FAILED = 'Failed to sign out';

/**
 * /logout: where `GET /api/logout` sends a request that does not prove it comes from this site's
 * own pages (another site's link, a typed address). Nothing has ended yet: the user confirms, and
 * the button signs out with a POST, which a cross-site page cannot send.
 */
export function LogoutPage() {
  const { data: user, isPending } = useCurrentUser();
  const queryClient = useQueryClient();
  const toast = useToast();

  const signOut = useMutation({
    mutationFn: logout,
    onSuccess: () => {
      track('User Logout');
      reset();
      // §1: the current user changes at logout; the page load that follows asks the server again.
      queryClient.setQueryData(USER_QUERY_KEY, null);
      // A full navigation, as the navigation bar's Logout: no data of the signed-out user survives.
      assignLocation('/');
    },
    onError: (error) => toast({ title: 'Error', description: error.message || SIGN_OUT_FAILED, variant: 'destructive' }),
  });

  // Once signed out the browser is on its way home: the page says so rather than "not signed in".
  if (signOut.isSuccess) {
    return (
      <PageCard title="Sign out">
        <Box role="status">
          <BusyLine>Signing out...</BusyLine>
        </Box>
      </PageCard>
    );
  }
  if (isPending) {
    return (
      <PageCard title="Sign out">
        <Box role="status">
          <BusyLine>Loading...</BusyLine>
        </Box>
      </PageCard>
    );
  }
  // A failed look-up (user undefined) still offers the button: signing out is harmless either way.
  if (user === null) {
    return (
      <PageCard title="You are not signed in">
        <Typography>There is no session to end in this browser.</Typography>
        <Stack direction="row">
          <Button variant="contained" component={RouterLink} to="/">
            Return to Home
          </Button>
        </Stack>
      </PageCard>
    );
  }
  return (
    <PageCard title="Sign out of Sage?">
      {user && <Typography>Signed in as {user.email ?? user.username}</Typography>}
      <Typography color="text.secondary">
        Sage could not confirm that this sign-out request came from one of its own pages, so you are still signed in. Sign out here if you
        meant to.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="contained" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
          {signOut.isPending ? 'Signing out...' : 'Sign out'}
        </Button>
        <Button variant="outlined" component={RouterLink} to="/dashboard">
          Stay signed in
        </Button>
      </Stack>
    </PageCard>
  );
}
