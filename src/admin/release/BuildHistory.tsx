import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { BuildHistoryItem } from '../../../contract/builds';
import { fetchBuildHistory } from '../../api/admin';
import { formatDate } from '../../ui/format';
import { ReleaseNotes } from '../../ui/ReleaseNotes';
import { TableScroller } from '../TableScroller';
import { useAdminCall } from '../useAdminCall';
import { BUILD_HISTORY_QUERY_KEY } from './buildHistoryKey';
import { WithdrawBuildDialog } from './WithdrawBuildDialog';

/**
 * Every build released, newest first, withdrawn ones too (issue 41): its version, when, whether it
 * is required, its notes and whether it is still offered. `mayWithdraw`: admins withdraw an offered
 * build from here; support reads it.
 */
export function BuildHistory({ mayWithdraw }: { mayWithdraw: boolean }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.release.history.${key}`, options);
  const adminCall = useAdminCall();
  const history = useQuery({ queryKey: BUILD_HISTORY_QUERY_KEY, queryFn: () => adminCall(fetchBuildHistory()) });
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const titleId = useId();

  return (
    <Card component="section" aria-labelledby={titleId} aria-busy={history.isFetching} sx={{ mt: 2 }}>
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6" gutterBottom>
          {t('title')}
        </Typography>
        {history.isPending ? (
          <CircularProgress size={32} aria-label={translate('ra.message.loading')} />
        ) : history.isError ? (
          <>
            <Typography color="error" gutterBottom>
              {t('failed')}
            </Typography>
            <Button onClick={() => void history.refetch()} disabled={history.isFetching}>
              {translate('admin.home.retry')}
            </Button>
          </>
        ) : history.data.length === 0 ? (
          <Typography color="text.secondary">{t('empty')}</Typography>
        ) : (
          <TableScroller title={t('title')}>
            <Table size="small" aria-labelledby={titleId}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('version')}</TableCell>
                  <TableCell>{t('released')}</TableCell>
                  <TableCell>{t('status')}</TableCell>
                  <TableCell>{t('notes')}</TableCell>
                  {mayWithdraw && <TableCell>{t('actions')}</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {history.data.map((build) => (
                  <BuildRow key={build.id} build={build} mayWithdraw={mayWithdraw} onWithdraw={() => setWithdrawing(build.version)} />
                ))}
              </TableBody>
            </Table>
          </TableScroller>
        )}
      </CardContent>
      {withdrawing !== null && <WithdrawBuildDialog version={withdrawing} onClose={() => setWithdrawing(null)} />}
    </Card>
  );
}

function BuildRow({ build, mayWithdraw, onWithdraw }: { build: BuildHistoryItem; mayWithdraw: boolean; onWithdraw: () => void }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.release.history.${key}`, options);
  const [showNotes, setShowNotes] = useState(false);
  const notesId = useId();
  const withdrawn = build.withdrawnAt !== null;
  return (
    <TableRow sx={{ verticalAlign: 'top' }}>
      <TableCell component="th" scope="row">
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {build.version}
        </Box>
        {build.required && <Chip label={t('required')} size="small" color="primary" variant="outlined" sx={{ ml: 1 }} />}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(build.releasedAt)}</TableCell>
      <TableCell>
        {withdrawn ? (
          <>
            <Chip label={t('withdrawn')} size="small" color="error" />
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {t('withdrawnOn', { date: formatDate(build.withdrawnAt as string), reason: build.withdrawReason ?? '' })}
            </Typography>
          </>
        ) : (
          <Chip label={t('offered')} size="small" color="success" variant="outlined" />
        )}
      </TableCell>
      <TableCell sx={{ minWidth: 200 }}>
        {build.notes.trim() === '' ? (
          <Typography variant="body2" color="text.secondary">
            {t('noNotes')}
          </Typography>
        ) : (
          <>
            <Button size="small" aria-expanded={showNotes} aria-controls={notesId} onClick={() => setShowNotes((shown) => !shown)}>
              {t(showNotes ? 'hideNotes' : 'showNotes', { version: build.version })}
            </Button>
            <Box id={notesId} hidden={!showNotes} sx={{ mt: 1 }}>
              {showNotes && <ReleaseNotes notes={build.notes} headingLevel={3} />}
            </Box>
          </>
        )}
      </TableCell>
      {mayWithdraw && (
        <TableCell>
          {!withdrawn && (
            <Button
              size="small"
              color="error"
              sx={{ whiteSpace: 'nowrap' }}
              onClick={onWithdraw}
              aria-label={translate('admin.release.withdraw.labelOf', { version: build.version })}
            >
              {translate('admin.release.withdraw.label')}
            </Button>
          )}
        </TableCell>
      )}
    </TableRow>
  );
}
