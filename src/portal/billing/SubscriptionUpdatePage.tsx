import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import type { SignInClient } from '../../../contract/epic';
import { useUserSubscriptions } from '../../api/billing';
import { BusyLine, PageCard } from '../../ui/PageCard';
import { clientFromSearch } from '../epicSignIn/rules';
import { SubscriptionCard } from './SubscriptionCard';
import { actionRequired, SUBSCRIPTION_UPDATED } from '../../billing/subscriptionRules';

const CANCELED_LOGIN_PATH = '/authentication_failed?reason=canceled';

/** The way out: the plugin's sign-in can be abandoned; the web goes back to the dashboard. */
function ExitActions({ client }: { client: SignInClient }) {
  const navigate = useNavigate();
  return (
    <Stack direction="row" spacing={2}>
      {client === 'ue' ? (
        <Button variant="outlined" onClick={() => navigate(CANCELED_LOGIN_PATH)}>
          Cancel Login
        </Button>
      ) : (
        <Button variant="contained" component={RouterLink} to="/dashboard#subscriptions">
          Go to Dashboard
        </Button>
      )}
    </Stack>
  );
}

function Page({ title, client, children }: { title: string; client: SignInClient; children: ReactNode }) {
  return (
    <PageCard title={title} width="md">
      {children}
      <ExitActions client={client} />
    </PageCard>
  );
}

/**
 * /subscription-update?client=web|ue (§2 Subscription update): where a subscription that needs the
 * user (past due, unpaid, paused) is put right; Stripe's pages come back here with `updated=true`
 * for the plugin's browser.
 */
export function SubscriptionUpdatePage() {
  const [searchParams] = useSearchParams();
  const client = clientFromSearch(searchParams.get('client'));
  const subscriptions = useUserSubscriptions();

  if (searchParams.get('updated') === 'true') {
    return (
      <PageCard title={SUBSCRIPTION_UPDATED.title}>
        <Alert severity="success">{SUBSCRIPTION_UPDATED.description}</Alert>
        {client === 'ue' ? (
          <Typography color="text.secondary">You can close this tab and return to Unreal Engine.</Typography>
        ) : (
          <ExitActions client={client} />
        )}
      </PageCard>
    );
  }

  if (subscriptions.isPending) {
    return (
      <PageCard title="Loading Subscription">
        <Box role="status">
          <BusyLine>Loading...</BusyLine>
        </Box>
      </PageCard>
    );
  }

  if (subscriptions.isError) {
    return (
      <Page title="Error Loading Subscription" client={client}>
        <Alert severity="error">{subscriptions.error.message}</Alert>
      </Page>
    );
  }

  const list = subscriptions.data?.subscriptions.filter((s) => s.id) ?? [];
  if (list.length === 0) {
    return (
      <Page title="No Subscription to Update" client={client}>
        <Typography color="text.secondary">There is no subscription on this account, so there is nothing to update.</Typography>
      </Page>
    );
  }

  const required = actionRequired(list);
  if (required) {
    return (
      <Page title="Action Required" client={client}>
        <Alert severity="warning">{required.text}</Alert>
        <SubscriptionCard subscription={required.subscription} client={client} />
      </Page>
    );
  }

  return (
    <Page title="Your Subscription" client={client}>
      <Typography color="text.secondary">Nothing here needs your attention right now.</Typography>
      {list.map((subscription) => (
        <SubscriptionCard key={subscription.id} subscription={subscription} client={client} />
      ))}
    </Page>
  );
}
