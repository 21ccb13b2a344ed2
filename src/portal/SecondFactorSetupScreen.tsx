import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useRefreshCurrentUser } from '../authProvider/session';
import { PageCard } from '../ui/PageCard';
import { TotpSetup } from './dashboard/account/TotpSetup';

/**
 * What /admin shows a member of staff signed in by password without a second factor, instead of a
 * console that would refuse every call (issue 40, 403 `second_factor_required`; src/portal/guards.tsx):
 * the setup of an authenticator app, step by step, then the recovery codes once, then the console.
 */
export function SecondFactorSetupScreen() {
  const refreshCurrentUser = useRefreshCurrentUser();
  // Shown only at /admin, outside the portal's layout: the page's one main landmark is its own.
  return (
    <Box component="main">
      <PageCard title="Set up two-step sign-in">
        <Typography>
          Staff accounts need a second factor to open the console: an account that can read every user's data must not fall to a stolen
          password. Set up an authenticator app on your phone; every sign-in with your password will then ask for its code.
        </Typography>
        <Alert severity="info">Signing in with Epic counts as a second factor too: Epic's sign-in has its own.</Alert>
        <TotpSetup doneLabel="Continue to the console" onDone={() => void refreshCurrentUser()} />
        <Stack direction="row">
          {/* The navigation bar's Logout link: a same-origin navigation that signs out at once. */}
          <Button href="/api/logout">Sign out</Button>
        </Stack>
      </PageCard>
    </Box>
  );
}
