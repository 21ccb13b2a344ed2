import { Alert, AlertTitle, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Subscription } from '../../../contract/billing';
import { track } from '../../analytics';
import { useRefreshSubscriptions, useSubscriptionStatus, useUserSubscriptions } from '../../api/billing';
import { CardGrid, CardsSkeleton } from '../../ui/CardGrid';
import { useToast } from '../../ui/toast';
import { SubscriptionCard } from '../billing/SubscriptionCard';
import { isLive, subscriptionBanners, SUBSCRIPTION_UPDATED } from '../../billing/subscriptionRules';

const PLANS_PATH = '/products-checkout?client=web';

/**
 * §2: Stripe's pages come back through the server to `?refresh=true`: say so, read the
 * subscriptions afresh and take the parameter out of the address (keeping the hash).
 */
function useRefreshFromStripe() {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const refresh = useRefreshSubscriptions();
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get('refresh') !== 'true' || handled.current === location.key) return;
    handled.current = location.key;
    toast(SUBSCRIPTION_UPDATED);
    void refresh();
    params.delete('refresh');
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
  }, [location, navigate, toast, refresh]);
}

function ViewPlansButton() {
  const navigate = useNavigate();
  return (
    <Button
      variant="contained"
      onClick={() => {
        track('Dashboard Action', { action: 'View Available Plans' });
        navigate(PLANS_PATH);
      }}
    >
      View Available Plans
    </Button>
  );
}

function SubscriptionList({ subscriptions }: { subscriptions: Subscription[] }) {
  return (
    <Stack spacing={3}>
      {subscriptionBanners(subscriptions).map((banner) => (
        <Alert key={banner.kind} severity={banner.severity}>
          <AlertTitle>{banner.title}</AlertTitle>
          {banner.text}
        </Alert>
      ))}
      <CardGrid>
        {subscriptions.map((subscription) => (
          <SubscriptionCard key={subscription.id} subscription={subscription} client="web" />
        ))}
      </CardGrid>
      {/* Only ended subscriptions: a new one starts with a new checkout. */}
      {!subscriptions.some(isLive) && (
        <Box>
          <ViewPlansButton />
        </Box>
      )}
    </Stack>
  );
}

/** The Subscriptions section of the dashboard (§2): banners and one card per subscription. */
export function SubscriptionsSection() {
  useRefreshFromStripe();
  const subscriptions = useUserSubscriptions();
  const status = useSubscriptionStatus();
  const list = subscriptions.data?.subscriptions.filter((s) => s.id) ?? [];

  let body: ReactNode;
  if (subscriptions.isPending) {
    body = <CardsSkeleton count={2} label="Loading subscriptions" />;
  } else if (subscriptions.isError) {
    body = (
      <Card variant="outlined">
        <CardContent>
          <Alert severity="error">
            <AlertTitle>Failed to load subscription data</AlertTitle>
            {subscriptions.error.message}
          </Alert>
        </CardContent>
      </Card>
    );
  } else if (list.length > 0) {
    body = <SubscriptionList subscriptions={list} />;
  } else if (status.isPending) {
    body = <CardsSkeleton count={2} label="Loading subscriptions" />;
  } else if (status.data?.hasSubscription) {
    body = <Alert severity="warning">Unable to load subscription details at this time</Alert>;
  } else {
    body = (
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            <Typography component="h2" variant="h6">
              No Active Subscriptions
            </Typography>
            <Typography color="text.secondary">Choose a plan to use Sage in your projects.</Typography>
            <ViewPlansButton />
          </Stack>
        </CardContent>
      </Card>
    );
  }

  return (
    <Box component="section" aria-labelledby="dashboard-subscriptions-heading">
      <Typography id="dashboard-subscriptions-heading" component="h1" variant="h4" gutterBottom>
        Subscriptions
      </Typography>
      {body}
    </Box>
  );
}
