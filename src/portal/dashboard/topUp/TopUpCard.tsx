import { Alert, AlertTitle, Button, Card, CardContent, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { TopUp, TopUpSettings } from '../../../../contract/topUp';
import { saveTopUp, topUpQuery, useTopUp } from '../../../api/topUp';
import { usageSummaryQuery } from '../../../api/usage';
import { useToast } from '../../../ui/toast';
import { TopUpForm } from './TopUpForm';
import { lastTopUpText, monthText, PAUSED_TEXT, ruleText } from './topUpStatus';

const BUY_BY_HAND = '/products-checkout?client=web';

function Status({ view, saving, onResume }: { view: TopUp; saving: boolean; onResume: () => void }) {
  const month = monthText(view);
  const last = lastTopUpText(view);
  return (
    <Stack spacing={1}>
      {view.paused ? (
        <Alert
          severity="warning"
          action={
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Button color="inherit" size="small" component={RouterLink} to={BUY_BY_HAND}>
                Buy credits by hand
              </Button>
              <Button color="inherit" size="small" variant="outlined" onClick={onResume} loading={saving}>
                Turn top-up back on
              </Button>
            </Stack>
          }
        >
          <AlertTitle>Automatic top-up is paused</AlertTitle>
          {PAUSED_TEXT[view.paused.reason]}
        </Alert>
      ) : (
        <Typography>{ruleText(view)}</Typography>
      )}
      {month && <Typography>{month}</Typography>}
      {last && (
        <Typography variant="body2" color="text.secondary">
          {last}
        </Typography>
      )}
    </Stack>
  );
}

function TopUpBody({ view }: { view: TopUp }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: saveTopUp,
    onSuccess: (saved) => {
      queryClient.setQueryData(topUpQuery.queryKey, saved);
      // Settings that start a top-up at once change the credits shown above.
      void queryClient.invalidateQueries({ queryKey: usageSummaryQuery.queryKey });
      toast({ title: 'Automatic top-up saved', description: ruleText(saved) });
    },
    onError: (error) =>
      toast({ title: 'Error', description: error.message || 'The top-up settings could not be saved', variant: 'destructive' }),
  });
  const resume = () => {
    if (view.settings && !save.isPending) save.mutate({ ...view.settings, enabled: true } satisfies TopUpSettings);
  };

  if (view.packs.length === 0) return <Typography>No credit packs are on sale right now, so there is nothing to top up with.</Typography>;
  return (
    <Stack spacing={3}>
      <Status view={view} saving={save.isPending} onResume={resume} />
      {!view.savedCard && (
        <Alert severity="info">
          Automatic top-up pays with the card you save when you buy credits.{' '}
          <Link component={RouterLink} to={BUY_BY_HAND}>
            Buy a credit pack
          </Link>{' '}
          once, then turn it on here.
        </Alert>
      )}
      <TopUpForm view={view} saving={save.isPending} onSave={(settings) => save.mutate(settings)} />
    </Stack>
  );
}

/** The Usage section's automatic top-up (issue 39): its state, this month's cost against the cap, and its settings. */
export function TopUpCard() {
  const topUp = useTopUp();
  const titleId = useId();

  let body: ReactNode;
  if (topUp.isPending) {
    body = (
      <Stack role="status" aria-label="Loading automatic top-up" aria-busy spacing={2}>
        <Skeleton variant="text" width="50%" />
        <Skeleton variant="rounded" width="60%" height={40} />
      </Stack>
    );
  } else if (topUp.isError) {
    body = (
      <Alert severity="error">
        <AlertTitle>Failed to load automatic top-up</AlertTitle>
        {topUp.error.message}
      </Alert>
    );
  } else {
    body = <TopUpBody view={topUp.data} />;
  }

  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6" gutterBottom>
          Automatic top-up
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
