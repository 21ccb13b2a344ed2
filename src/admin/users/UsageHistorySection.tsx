import {
  Box,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import { USAGE_RANGES, type UsageHistory, type UsageRange } from '../../../contract/usage';
import { fetchUserUsageHistory } from '../../api/admin';
import { useNotifyError } from '../notify';
import { TableScroller } from '../TableScroller';
import { useAdminCall } from '../useAdminCall';
import { usageQueryKey } from './usageKeys';
import { formatCount } from '../../ui/format';

/** MUI X Charts in their own chunk, as the Home's: a user's page shows its figures while it loads. */
const UsageChart = lazy(() => import('./UsageChart'));

type Tally = { label: string; uses: number; units: number };

/** Uses and queries by one attribute of the uses, most queries first (the server's order). */
function TallyTable({ title, column, rows }: { title: string; column: string; rows: Tally[] }) {
  const translate = useTranslate();
  const titleId = useId();
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography id={titleId} component="h4" variant="subtitle2" gutterBottom>
        {title}
      </Typography>
      <TableScroller title={title}>
        <Table size="small" aria-labelledby={titleId}>
          <TableHead>
            <TableRow>
              <TableCell>{column}</TableCell>
              <TableCell align="right">{translate('admin.usage.history.uses')}</TableCell>
              <TableCell align="right">{translate('admin.usage.history.queriesAxis')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.label}>
                <TableCell component="th" scope="row" sx={{ wordBreak: 'break-all' }}>
                  {row.label}
                </TableCell>
                <TableCell align="right">{formatCount(row.uses)}</TableCell>
                <TableCell align="right">{formatCount(row.units)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableScroller>
    </Box>
  );
}

function HistoryFigures({ history }: { history: UsageHistory }) {
  const translate = useTranslate();
  const loading = <CircularProgress size={24} aria-label={translate('ra.message.loading')} />;
  const notGiven = (value: string) => value || translate('admin.usage.history.notGiven');
  const total = history.units.reduce((sum, units) => sum + units, 0);
  return (
    <>
      <Suspense fallback={loading}>
        <UsageChart history={history} />
      </Suspense>
      {total > 0 && (
        <Box sx={{ display: 'grid', gap: 2, mt: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <TallyTable
            title={translate('admin.usage.history.byProject')}
            column={translate('admin.usage.history.project')}
            rows={history.byProject.map((row) => ({ label: notGiven(row.projectId), uses: row.uses, units: row.units }))}
          />
          <TallyTable
            title={translate('admin.usage.history.byEngineVersion')}
            column={translate('admin.usage.history.engineVersion')}
            rows={history.byEngineVersion.map((row) => ({ label: notGiven(row.engineVersion), uses: row.uses, units: row.units }))}
          />
        </Box>
      )}
    </>
  );
}

/** The user's queries per UTC day over 30 or 90 days, and by Unreal project and engine version. */
export function UsageHistorySection({ userId }: { userId: string }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();
  const [days, setDays] = useState<UsageRange>(USAGE_RANGES[0]);
  const history = useQuery({
    queryKey: [...usageQueryKey(userId), 'history', days],
    queryFn: () => adminCall(fetchUserUsageHistory(userId, days)),
    placeholderData: keepPreviousData,
  });
  const { error } = history;
  useEffect(() => {
    if (error) notifyError({ message: 'admin.usage.history.failed', error });
  }, [error, notifyError]);
  const titleId = useId();

  return (
    <Box component="section" aria-labelledby={titleId} aria-busy={history.isFetching} sx={{ mb: 3 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {translate('admin.usage.history.title')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={days}
          onChange={(_event, value: UsageRange | null) => value !== null && setDays(value)}
          aria-label={translate('admin.usage.history.range')}
        >
          {USAGE_RANGES.map((option) => (
            <ToggleButton key={option} value={option}>
              {translate('admin.usage.history.rangeDays', { days: option })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('admin.usage.history.utcNote', { days })}
      </Typography>
      {history.isPending ? (
        <CircularProgress size={24} aria-label={translate('ra.message.loading')} />
      ) : history.isError ? (
        <Typography color="error">{translate('admin.usage.history.failed')}</Typography>
      ) : (
        <HistoryFigures history={history.data} />
      )}
    </Box>
  );
}
