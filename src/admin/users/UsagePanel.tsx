import { Box, Button, CircularProgress, LinearProgress, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminUser } from '../../../contract/admin';
import { allowanceState, type UsageSummary } from '../../../contract/usage';
import { fetchUserUsage, userUsageCsvPath } from '../../api/admin';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { useRefusalNotes } from '../RefusalNotes';
import { useStaffRefusal } from '../useStaffMay';
import { CreditAdjustmentDialog } from './CreditAdjustmentDialog';
import { CreditPacks } from './CreditPacks';
import { UsageHistorySection } from './UsageHistorySection';
import { usageQueryKey } from './usageKeys';
import { formatCount, formatDateTime } from '../../ui/format';

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, typography: 'body2' }}>
        {children}
      </Box>
    </Box>
  );
}

function Allowance({ summary }: { summary: UsageSummary }) {
  const translate = useTranslate();
  const state = allowanceState(summary);
  if (state.kind === 'unlimited') return <>{translate('admin.usage.unlimited', { used: formatCount(state.used) })}</>;
  if (state.kind === 'none') return <>{translate('admin.usage.noAllowance')}</>;
  const text = translate('admin.usage.allowanceUsed', { used: formatCount(state.used), allowance: formatCount(state.allowance) });
  return (
    <Stack spacing={0.5} sx={{ maxWidth: 360 }}>
      <span>{text}</span>
      <LinearProgress
        variant="determinate"
        value={(state.filled / state.allowance) * 100}
        aria-label={translate('admin.usage.allowanceBar')}
        aria-valuetext={text}
        sx={{ height: 8, borderRadius: 4 }}
      />
    </Stack>
  );
}

const time = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/** This period at a glance: the same figures as the user's own dashboard. */
function PeriodFigures({ summary }: { summary: UsageSummary }) {
  const translate = useTranslate();
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1, m: 0, mb: 2 }}>
      <Figure label={translate('admin.usage.plan')}>{summary.plan ?? translate('admin.usage.free')}</Figure>
      <Figure label={translate('admin.usage.period')}>
        {time(summary.period.start)} {translate('admin.usage.periodTo')} {time(summary.period.end)}
      </Figure>
      <Figure label={translate('admin.usage.allowance')}>
        <Allowance summary={summary} />
      </Figure>
      <Figure label={translate('admin.usage.creditsUsed')}>{formatCount(summary.creditsUsed)}</Figure>
      <Figure label={translate('admin.usage.creditsLeft')}>{formatCount(summary.remaining.credits)}</Figure>
      {summary.remaining.held !== undefined && (
        <Figure label={translate('admin.usage.inProgress')}>
          {translate('admin.usage.inProgressText', { smart_count: summary.remaining.held })}
        </Figure>
      )}
    </Box>
  );
}

/** Issue 26: the user's usage as staff see it, with grants, deductions and refunds of credit packs. */
export function UsagePanel() {
  const user = useRecordContext<AdminUser>();
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const adminCall = useAdminCall();
  const [adjusting, setAdjusting] = useState(false);
  const refusal = useStaffRefusal('adjustCredits', { role: user?.role ?? null });
  const { describedBy, notes } = useRefusalNotes([refusal]);
  const summary = useQuery({
    queryKey: [...usageQueryKey(user?.id ?? ''), 'summary'],
    queryFn: () => adminCall(fetchUserUsage(user!.id)),
    enabled: Boolean(user),
  });
  const { error } = summary;
  useEffect(() => {
    if (error) notifyError({ message: 'admin.usage.failed', error });
  }, [error, notifyError]);
  if (!user) return null;

  return (
    <Box component="section" aria-labelledby="usage-title" sx={{ p: 2 }}>
      <Typography id="usage-title" component="h2" variant="h6" gutterBottom>
        {translate('admin.usage.title')}
      </Typography>
      {summary.isPending ? (
        <CircularProgress size={24} aria-label={translate('ra.message.loading')} />
      ) : summary.isError ? (
        <Typography color="error">{translate('admin.usage.failed')}</Typography>
      ) : (
        <>
          <PeriodFigures summary={summary.data} />
          <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 3, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              onClick={() => setAdjusting(true)}
              disabled={refusal !== null}
              aria-describedby={describedBy(refusal)}
            >
              {translate('admin.usage.adjust.label')}
            </Button>
            {notes}
            {/* A plain link: the browser downloads the file with the session cookie. */}
            <Button variant="text" href={userUsageCsvPath(user.id)} download>
              {translate('admin.usage.downloadCsv')}
            </Button>
          </Stack>
          {adjusting && <CreditAdjustmentDialog user={user} balance={summary.data.remaining.credits} onClose={() => setAdjusting(false)} />}
        </>
      )}
      <UsageHistorySection userId={user.id} />
      <CreditPacks user={user} />
    </Box>
  );
}
