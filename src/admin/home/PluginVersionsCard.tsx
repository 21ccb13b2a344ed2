import {
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
import { useId } from 'react';
import { PLUGIN_ADOPTION_DAYS } from '../../../contract/pluginAdoption';
import { fetchPluginAdoption } from '../../api/admin';
import { PLUGIN_ADOPTION_QUERY_KEY } from '../../api/consoleHomeKeys';
import { formatCount } from '../../ui/format';
import { consoleTranslate as translate } from '../i18n';
import { TableScroller } from '../TableScroller';
import { useAdminCall } from '../useAdminCall';

const t = (key: string, options?: Record<string, unknown>) => translate(`admin.home.pluginVersions.${key}`, options);

/**
 * The Home's plugin versions over the last 30 days (issue 41): installs that called in and queries
 * recorded per version, newest first, so staff see a release taken up and who is left on a
 * withdrawn build. Read once the Home is drawn, below its other cards: nothing above it moves.
 */
export function PluginVersionsCard() {
  const adminCall = useAdminCall();
  const adoption = useQuery({ queryKey: PLUGIN_ADOPTION_QUERY_KEY, queryFn: () => adminCall(fetchPluginAdoption()) });
  const titleId = useId();
  const noteId = useId();
  const days = adoption.data?.days ?? PLUGIN_ADOPTION_DAYS;
  const versions = adoption.data?.versions ?? [];

  return (
    <Card component="section" aria-labelledby={titleId} aria-describedby={noteId} aria-busy={adoption.isFetching} sx={{ mt: 3 }}>
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6">
          {t('title', { days })}
        </Typography>
        <Typography id={noteId} component="p" variant="body2" color="text.secondary" gutterBottom>
          {adoption.isSuccess && versions.length === 0 ? t('empty', { days }) : t('note', { days })}
        </Typography>
        {adoption.isPending ? (
          <CircularProgress size={32} aria-label={translate('ra.message.loading')} />
        ) : adoption.isError ? (
          <>
            <Typography color="error" gutterBottom>
              {t('failed')}
            </Typography>
            <Button onClick={() => void adoption.refetch()} disabled={adoption.isFetching}>
              {translate('admin.home.retry')}
            </Button>
          </>
        ) : (
          versions.length > 0 && (
            <TableScroller title={t('title', { days })}>
              <Table size="small" aria-labelledby={titleId}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('version')}</TableCell>
                    <TableCell align="right">{t('installs')}</TableCell>
                    <TableCell align="right">{t('queries')}</TableCell>
                    <TableCell align="right">{t('units')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {versions.map((use) => (
                    <TableRow key={use.version ?? ''}>
                      <TableCell component="th" scope="row">
                        {use.version ?? t('unknown')}
                        {use.withdrawn && <Chip label={t('withdrawn')} size="small" color="error" variant="outlined" sx={{ ml: 1 }} />}
                      </TableCell>
                      <TableCell align="right">{formatCount(use.installs)}</TableCell>
                      <TableCell align="right">{formatCount(use.uses)}</TableCell>
                      <TableCell align="right">{formatCount(use.units)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableScroller>
          )
        )}
      </CardContent>
    </Card>
  );
}
