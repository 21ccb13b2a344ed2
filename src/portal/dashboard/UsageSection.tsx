import { Alert, AlertTitle, Box, Button, Card, CardContent, LinearProgress, Skeleton, Stack, Typography } from '@mui/material';
import { useId, type ReactNode } from 'react';
import type { UsageSummary } from '../../../contract/usage';
import { USAGE_PERIOD_CSV_PATH, useUsageSummary } from '../../api/usage';
import { TopUpCard } from './topUp/TopUpCard';
import { UsageHistoryCard } from './UsageHistoryCard';
import { allowanceView, inProgressText, orgPaysText, planName } from './usageRules';
import { Field } from './Field';
import { formatCount, formatLongDate } from '../../ui/format';

function Allowance({ summary }: { summary: UsageSummary }) {
  const view = allowanceView(summary);
  if (view.kind !== 'metered') return <Typography>{view.text}</Typography>;
  return (
    <Stack spacing={1}>
      <Typography>{view.text}</Typography>
      <LinearProgress
        variant="determinate"
        value={view.used}
        min={0}
        max={view.allowance}
        aria-label="Allowance used this period"
        aria-valuetext={view.text}
        sx={{ height: 8, borderRadius: 4, maxWidth: 480 }}
      />
      <Typography variant="body2" color="text.secondary">
        Renews on {formatLongDate(summary.remaining.periodEnd)}
      </Typography>
    </Stack>
  );
}

function PeriodFigures({ summary }: { summary: UsageSummary }) {
  return (
    <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
      <Stack component="dl" spacing={2} sx={{ m: 0, width: '100%' }}>
        {summary.remaining.org && (
          <Field label="Paid by" align="start">
            <Typography>{orgPaysText(summary.remaining.org)}</Typography>
            <Typography variant="body2" color="text.secondary">
              Its period renews on {formatLongDate(summary.remaining.org.periodEnd)}. Then your own plan and credits below pay.
            </Typography>
          </Field>
        )}
        <Field label="Plan" align="start">
          <Typography>{planName(summary.plan)}</Typography>
        </Field>
        <Field label="Allowance" align="start">
          <Allowance summary={summary} />
        </Field>
        {summary.remaining.held !== undefined && (
          <Field label="In progress" align="start">
            <Typography>{inProgressText(summary.remaining.held)}</Typography>
          </Field>
        )}
        <Field label="Credits left" align="start">
          <Typography>{formatCount(summary.remaining.credits)}</Typography>
          <Typography variant="body2" color="text.secondary">
            Pack credits never expire.
            {summary.creditsUsed > 0 && ` ${formatCount(summary.creditsUsed)} used this period.`}
          </Typography>
        </Field>
      </Stack>
      {/* A plain link: the browser downloads the file with the session cookie. */}
      <Button variant="outlined" href={USAGE_PERIOD_CSV_PATH} download>
        Download this period&apos;s uses (CSV)
      </Button>
    </Stack>
  );
}

function PeriodCard() {
  const summary = useUsageSummary();
  const titleId = useId();

  let body: ReactNode;
  if (summary.isPending) {
    body = (
      <Stack role="status" aria-label="Loading usage" aria-busy spacing={2}>
        <Skeleton variant="text" width="30%" />
        <Skeleton variant="rounded" width="60%" height={8} />
        <Skeleton variant="text" width="40%" />
      </Stack>
    );
  } else if (summary.isError) {
    body = (
      <Alert severity="error">
        <AlertTitle>Failed to load usage</AlertTitle>
        {summary.error.message}
      </Alert>
    );
  } else {
    body = <PeriodFigures summary={summary.data} />;
  }

  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6" gutterBottom>
          This period
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}

/** The Usage section of the dashboard (issue 26): this period's allowance and credits, automatic top-up (issue 39), and where queries went. */
export function UsageSection() {
  return (
    <Box component="section" aria-labelledby="dashboard-usage-heading">
      <Typography id="dashboard-usage-heading" component="h1" variant="h4" gutterBottom>
        Usage
      </Typography>
      <Stack spacing={3}>
        <PeriodCard />
        <TopUpCard />
        <UsageHistoryCard />
      </Stack>
    </Box>
  );
}
