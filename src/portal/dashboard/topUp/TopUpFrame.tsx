import { Alert, AlertTitle, Box, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { TopUp, TopUpPauseReason, TopUpSettings } from '../../../../contract/topUp';
import { useToast } from '../../../ui/toast';
import { TopUpForm } from './TopUpForm';
import { lastTopUpText, monthText, ruleText } from './topUpStatus';

/**
 * Automatic top-up (issue 39) of a user's credits (the Usage section's card) or of a studio's
 * shared pool (a part of its Plan and billing card): one frame, its heading, loading and failure
 * to read, around one panel; only the words, the query and the save differ.
 */

/** Where the frame stands: its own card (`card`, under an h2), or a part of a larger one (`part`, under an h4). */
export type TopUpPlace = 'card' | 'part';

export function TopUpFrame({
  title,
  place,
  topUp,
  children,
}: {
  title: string;
  place: TopUpPlace;
  topUp: UseQueryResult<TopUp>;
  children: (view: TopUp) => ReactNode;
}) {
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
    body = children(topUp.data);
  }
  if (place === 'part') {
    return (
      <Box component="section" aria-labelledby={titleId}>
        <Typography id={titleId} component="h4" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {body}
      </Box>
    );
  }
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6" gutterBottom>
          {title}
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}

/** What differs between a user's top-up and a studio's, apart from the frame. */
export interface TopUpPanelProps {
  view: TopUp;
  save: (settings: TopUpSettings) => Promise<TopUp>;
  /** The query the saved answer replaces. */
  queryKey: QueryKey;
  /** The balance shown above: settings that start a top-up at once change it. */
  balanceKey: QueryKey;
  /** Why top-up is paused, and what to do. */
  pausedText: Record<TopUpPauseReason, string>;
  /** Where to buy credits by hand, when it is another page (a studio buys its packs above, on its own page). */
  buyByHand?: string;
  /** What to do while no card is saved. */
  noSavedCard: ReactNode;
  /** The form's switch's words, when not the user's own. */
  switchLabel?: string;
}

/** Top-up's state (its rule, or why it is paused, with a button to turn it back on), this month against the cap, its settings. */
export function TopUpPanel({ view, save, queryKey, balanceKey, pausedText, buyByHand, noSavedCard, switchLabel }: TopUpPanelProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const saving = useMutation({
    mutationFn: save,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: balanceKey });
      toast({ title: 'Automatic top-up saved', description: ruleText(saved) });
    },
    onError: (error) =>
      toast({ title: 'Error', description: error.message || 'The top-up settings could not be saved', variant: 'destructive' }),
  });
  const resume = () => {
    if (view.settings && !saving.isPending) saving.mutate({ ...view.settings, enabled: true } satisfies TopUpSettings);
  };

  if (view.packs.length === 0) return <Typography>No credit packs are on sale right now, so there is nothing to top up with.</Typography>;
  const month = monthText(view);
  const last = lastTopUpText(view);
  return (
    <Stack spacing={3}>
      <Stack spacing={1}>
        {view.paused ? (
          <Alert
            severity="warning"
            action={
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                {buyByHand && (
                  <Button color="inherit" size="small" component={RouterLink} to={buyByHand}>
                    Buy credits by hand
                  </Button>
                )}
                <Button color="inherit" size="small" variant="outlined" onClick={resume} loading={saving.isPending}>
                  Turn top-up back on
                </Button>
              </Stack>
            }
          >
            <AlertTitle>Automatic top-up is paused</AlertTitle>
            {pausedText[view.paused.reason]}
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
      {!view.savedCard && <Alert severity="info">{noSavedCard}</Alert>}
      <TopUpForm view={view} saving={saving.isPending} onSave={(settings) => saving.mutate(settings)} switchLabel={switchLabel} />
    </Stack>
  );
}
