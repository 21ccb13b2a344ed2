import { Button, Card, CardActions, CardContent, CircularProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { memo, Suspense, useId } from 'react';
import { useTranslate } from 'react-admin';
import { fetchGroveMetrics } from '../../api/admin';
import { GROVE_METRICS_QUERY_KEY } from '../../api/consoleHomeKeys';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { InsightsSection } from './InsightsSection';
import { formatCount } from '../../ui/format';

/** §2 Home tab: the number of Grove users, with Refresh, and Retry when it could not be read. */
function GroveUsersCard() {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();
  const metrics = useQuery({
    queryKey: GROVE_METRICS_QUERY_KEY,
    queryFn: () =>
      adminCall(fetchGroveMetrics()).catch((error: unknown) => {
        notifyError({ title: 'admin.error', message: 'admin.home.failed', error });
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
          <Typography variant="h3" component="p">
            {formatCount(metrics.data.userStats.totalUsers)}
          </Typography>
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
 * §2 Home tab: Grove Users, then the business at a glance (issue 14); its title is the app bar's
 * (AdminAppBar). Memoised: react-admin renders the console's routes again as it starts (its
 * effects settle its routes and permissions), and the Home's figures, unchanged, need not be
 * rendered again with them (issue 28, a phone's first load).
 */
export const HomePage = memo(function HomePage() {
  return (
    <>
      {/* Boundaries of their own: the browser attaches to each part of the server's markup in a
          task of its own, after the frame, rather than to the whole page at once (issue 28). */}
      <Suspense>
        <GroveUsersCard />
      </Suspense>
      <Suspense>
        <InsightsSection />
      </Suspense>
    </>
  );
});
