import { Alert, AlertTitle, Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import type { Org } from '../../../../contract/orgs';
import type { TopUp, TopUpSettings } from '../../../../contract/topUp';
import { fetchOrgTopUp, orgBillingKey, orgTopUpKey, saveOrgTopUp } from '../../../api/orgBilling';
import { useToast } from '../../../ui/toast';
import { TopUpForm } from '../topUp/TopUpForm';
import { lastTopUpText, monthText, ruleText } from '../topUp/topUpStatus';

/** Why the studio's top-up is paused, and what to do. */
const PAUSED: Record<NonNullable<TopUp['paused']>['reason'], string> = {
  authentication_required:
    "The studio's card needs its holder to confirm the payment. Buy a credit pack by hand above, then turn top-up back on.",
  card_declined: "The studio's card was declined. Buy a credit pack by hand above with a card that works, then turn top-up back on.",
  no_saved_card: 'No card is saved for the studio. Buy a credit pack by hand above to save one, then turn top-up back on.',
};

function OrgTopUpBody({ org, view }: { org: Org; view: TopUp }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: (settings: TopUpSettings) => saveOrgTopUp(org.id, settings),
    onSuccess: (saved) => {
      queryClient.setQueryData(orgTopUpKey(org.id), saved);
      // Settings that start a top-up at once change the pool shown above.
      void queryClient.invalidateQueries({ queryKey: orgBillingKey(org.id) });
      toast({ title: 'Automatic top-up saved', description: ruleText(saved) });
    },
    onError: (error) =>
      toast({ title: 'Error', description: error.message || 'The top-up settings could not be saved', variant: 'destructive' }),
  });
  if (view.packs.length === 0) return <Typography>No credit packs are on sale right now, so there is nothing to top up with.</Typography>;
  const month = monthText(view);
  const last = lastTopUpText(view);
  const resume = () => {
    if (view.settings && !save.isPending) save.mutate({ ...view.settings, enabled: true });
  };
  return (
    <Stack spacing={2}>
      {view.paused ? (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" variant="outlined" onClick={resume} loading={save.isPending}>
              Turn top-up back on
            </Button>
          }
        >
          <AlertTitle>Automatic top-up is paused</AlertTitle>
          {PAUSED[view.paused.reason]}
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
      {!view.savedCard && (
        <Alert severity="info">
          Automatic top-up pays with the card saved when the studio buys a credit pack: buy one above once, then turn it on here.
        </Alert>
      )}
      <TopUpForm
        view={view}
        saving={save.isPending}
        onSave={(settings) => save.mutate(settings)}
        switchLabel="Top up the shared pool automatically when it runs low"
      />
    </Stack>
  );
}

/** Automatic top-up of the studio's shared pool (owner, billing; issue 39): the Usage section's card, for the pool. */
export function OrgTopUp({ org }: { org: Org }) {
  const headingId = useId();
  const topUp = useQuery({ queryKey: orgTopUpKey(org.id), queryFn: () => fetchOrgTopUp(org.id) });
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} component="h4" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Automatic top-up of the shared pool
      </Typography>
      {topUp.isPending && <Typography role="status">Loading automatic top-up...</Typography>}
      {topUp.isError && <Alert severity="error">Automatic top-up could not be read: {topUp.error.message}</Alert>}
      {topUp.data && <OrgTopUpBody org={org} view={topUp.data} />}
    </Box>
  );
}
