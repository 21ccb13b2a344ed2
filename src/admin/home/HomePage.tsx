import { Button, Card, CardActions, CardContent, CircularProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useId } from 'react';
import { fetchGroveMetrics } from '../../api/admin';
import { GROVE_METRICS_QUERY_KEY } from '../../api/consoleHomeKeys';
import { formatCount } from '../../ui/format';
import { consoleTranslate as translate } from '../i18n';
import { useAdminCall } from '../useAdminCall';
import { InsightsSection } from './InsightsSection';
import { PluginVersionsCard } from './PluginVersionsCard';
import { useHomeFailureToast } from './useHomeFailureToast';

/** §2 Home tab: the number of Grove users, with Refresh, and Retry when it could not be read. */
function GroveUsersCard() {
  const adminCall = useAdminCall();
  const failureToast = useHomeFailureToast();
  const metrics = useQuery({
    queryKey: GROVE_METRICS_QUERY_KEY,
    queryFn: () =>
      adminCall(fetchGroveMetrics()).catch((error: unknown) => {
        failureToast('admin.home.failed', error);
        throw error;
      }),
  });
  const refetch = () => void metrics.refetch();
  const titleId = useId();

  return (
    <Card component="section" aria-labelledby={titleId} sx={{ mt: 2, maxWidth: 480 }}>
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6" gutterBottom>
          {translate('admin.home.groveUsers')}
        </Typography>
        {metrics.isPending ? (
          // In a line as tall as the number's, so nothing below moves when the number comes.
          <Typography variant="h3" component="p">
            <CircularProgress size={32} aria-label={translate('ra.message.loading')} />
          </Typography>
        ) : metrics.isError ? (
          <Typography color="error">{translate('admin.home.failed')}</Typography>
        ) : (
          <>
            <Typography variant="h3" component="p">
              {formatCount(metrics.data.userStats.totalUsers)}
            </Typography>
            {metrics.data.userStats.subscribersWithoutEpic !== undefined && (
              <Typography color="text.secondary">
                {translate('admin.home.subscribersWithoutEpic', { count: formatCount(metrics.data.userStats.subscribersWithoutEpic) })}
              </Typography>
            )}
          </>
        )}
      </CardContent>
      <CardActions>
        {metrics.isError ? (
          <Button onClick={refetch} disabled={metrics.isFetching}>
            {translate('admin.home.retry')}
          </Button>
        ) : (
          <Button onClick={refetch} disabled={metrics.isFetching}>
            {translate('admin.home.refresh')}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}

/**
 * §2 Home tab: Grove Users, then the business at a glance (issue 14) and the plugin versions in use
 * (issue 41); its title is the app bar's.
 * It needs no react-admin (decision 035): the server draws it whole from the page's figures.
 */
export function HomePage() {
  return (
    // Boundaries of their own, attached in tasks of their own (as each chart is).
    <>
      <Suspense>
        <GroveUsersCard />
      </Suspense>
      <Suspense>
        <InsightsSection />
      </Suspense>
      <Suspense>
        <PluginVersionsCard />
      </Suspense>
    </>
  );
}
