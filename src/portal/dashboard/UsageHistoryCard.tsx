import { Alert, AlertTitle, Box, Card, CardContent, Skeleton, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { USAGE_RANGES, type UsageHistory, type UsageRange } from '../../../contract/usage';
import { useUsageHistory } from '../../api/usage';
import { UsageTallyTable } from './UsageTallyTable';
import { historySummary } from './usageRules';
import { formatCount } from '../../ui/format';

// MUI X Charts is large: only the Usage section downloads it, after the dashboard has shown.
const UsageChart = lazy(() => import('./UsageChart'));

const CHART_HEIGHT = 240;
const HIDDEN_CAPTION = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' } as const;

/** Queries per day: a sentence for everyone (the chart's text alternative), the chart, and its figures as a table. */
function QueriesPerDay({ history, titleId }: { history: UsageHistory; titleId: string }) {
  const summaryId = useId();
  const drawn = history.units.some((n) => n > 0);
  return (
    <Box component="figure" aria-labelledby={titleId} aria-describedby={summaryId} sx={{ m: 0 }}>
      <Typography id={summaryId} variant="body2" color="text.secondary" gutterBottom>
        {historySummary(history)}
      </Typography>
      {drawn && (
        <>
          {/* The chart repeats the sentence and the table for sighted readers; inert, so nothing in it takes focus (axe: aria-hidden-focus). */}
          <Box aria-hidden="true" inert>
            <Suspense fallback={<Skeleton variant="rounded" height={CHART_HEIGHT} />}>
              <UsageChart history={history} />
            </Suspense>
          </Box>
          <Box component="details" sx={{ mt: 1, '& summary': { cursor: 'pointer' } }}>
            <Typography component="summary" variant="body2">
              Show the figures
            </Typography>
            <Box
              component="table"
              sx={{ mt: 1, borderCollapse: 'collapse', fontSize: 14, '& th, & td': { textAlign: 'left', pr: 2, py: 0.25 } }}
            >
              <caption style={HIDDEN_CAPTION}>Queries per day</caption>
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  <th scope="col">Queries</th>
                </tr>
              </thead>
              <tbody>
                {history.days.map((day, i) => (
                  <tr key={day}>
                    <th scope="row">{day}</th>
                    <td>{formatCount(history.units[i] ?? 0)}</td>
                  </tr>
                ))}
              </tbody>
            </Box>
          </Box>
        </>
      )}
    </Box>
  );
}

export function HistoryFigures({ history, titleId }: { history: UsageHistory; titleId: string }) {
  const days = history.days.length;
  return (
    <Stack spacing={3}>
      <QueriesPerDay history={history} titleId={titleId} />
      <UsageTallyTable
        title="By Unreal project"
        column="Unreal project"
        days={days}
        rows={history.byProject.map((row) => ({ key: row.projectId, uses: row.uses, units: row.units }))}
      />
      <UsageTallyTable
        title="By engine version"
        column="Engine version"
        days={days}
        rows={history.byEngineVersion.map((row) => ({ key: row.engineVersion, uses: row.uses, units: row.units }))}
      />
    </Stack>
  );
}

/** Where the queries of the last 30 or 90 UTC days went: per day, by project and by engine version. */
export function UsageHistoryCard() {
  const [days, setDays] = useState<UsageRange>(USAGE_RANGES[0]);
  const history = useUsageHistory(days);
  const titleId = useId();

  let body: ReactNode;
  if (history.isPending) {
    body = (
      <Stack role="status" aria-label="Loading usage history" aria-busy spacing={1}>
        <Skeleton variant="text" width="50%" />
        <Skeleton variant="rounded" height={CHART_HEIGHT} />
      </Stack>
    );
  } else if (history.isError) {
    body = (
      <Alert severity="error">
        <AlertTitle>Failed to load usage history</AlertTitle>
        {history.error.message}
      </Alert>
    );
  } else {
    // While another range loads, the previous figures stay (placeholder data) under aria-busy.
    body = <HistoryFigures history={history.data} titleId={titleId} />;
  }

  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} aria-busy={history.isFetching}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1 }}>
          <Typography id={titleId} component="h2" variant="h6">
            Queries per day
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={days}
            onChange={(_event, value: UsageRange | null) => value !== null && setDays(value)}
            aria-label="Range"
          >
            {USAGE_RANGES.map((option) => (
              <ToggleButton key={option} value={option}>
                {option} days
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>
        {body}
      </CardContent>
    </Card>
  );
}
