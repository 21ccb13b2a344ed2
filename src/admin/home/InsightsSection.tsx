import { Box, Button, CircularProgress, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Suspense, useDeferredValue, useId } from 'react';
import { INSIGHT_RANGES, type InsightRange } from '../../../contract/insights';
import { fetchInsights } from '../../api/admin';
import { insightsQueryKey } from '../../api/consoleHomeKeys';
import { consoleTranslate as translate } from '../i18n';
import { useAdminCall } from '../useAdminCall';
import { useInsightRange } from './insightRange';
import { useHomeFailureToast } from './useHomeFailureToast';
import { BusinessCharts } from './BusinessCharts';
import { TopUsers } from './TopUsers';

/**
 * The Home's figures of the business over 7, 30 or 90 UTC days (issue 14), and this month's top
 * users (issue 26): one request for all of them; the range is kept per browser like the console's
 * other list settings.
 */
export function InsightsSection() {
  const adminCall = useAdminCall();
  const failureToast = useHomeFailureToast();
  const [range, setRange] = useInsightRange();
  const insights = useQuery({
    queryKey: insightsQueryKey(range),
    queryFn: () =>
      adminCall(fetchInsights(range)).catch((error: unknown) => {
        failureToast('admin.home.insights.failed', error);
        throw error;
      }),
    placeholderData: keepPreviousData,
  });
  const titleId = useId();
  // The figures render in a transition, in slices that never keep a tap or a key waiting; the
  // spinner (or the range before) stays until they have.
  const shown = useDeferredValue(insights.data);

  return (
    <Box component="section" aria-labelledby={titleId} aria-busy={insights.isFetching || shown !== insights.data} sx={{ mt: 3 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography id={titleId} component="h2" variant="h6">
          {translate('admin.home.insights.title')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={range}
          onChange={(_event, value: InsightRange | null) => value !== null && setRange(value)}
          aria-label={translate('admin.home.insights.range')}
        >
          {INSIGHT_RANGES.map((option) => (
            <ToggleButton key={option} value={option}>
              {translate('admin.home.insights.rangeDays', { days: option })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('admin.home.insights.utcNote', { days: range })}
      </Typography>
      {insights.isError ? (
        <Box>
          <Typography color="error" gutterBottom>
            {translate('admin.home.insights.failed')}
          </Typography>
          <Button onClick={() => void insights.refetch()} disabled={insights.isFetching}>
            {translate('admin.home.retry')}
          </Button>
        </Box>
      ) : shown === undefined ? (
        <CircularProgress size={32} aria-label={translate('ra.message.loading')} />
      ) : (
        <>
          <BusinessCharts insights={shown} days={shown.days.length} />
          <Suspense>
            <TopUsers insights={shown} />
          </Suspense>
        </>
      )}
    </Box>
  );
}
