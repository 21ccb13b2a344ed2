import { Card, CardContent, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { Insights } from '../../../contract/insights';
import { CONSOLE_BASE } from '../consolePages';
import { consoleTranslate as translate } from '../i18n';
import { TableScroller } from '../TableScroller';
import { formatCount } from '../../ui/format';
import { formatMonthStart } from './insightFormat';

/**
 * The Home's top users of this UTC month to date (issue 26), each leading to their page. The month,
 * not the chosen range: it is the billing month of the free allowance and of most plans.
 */
export function TopUsers({ insights }: { insights: Pick<Insights, 'topUsers' | 'generatedAt'> }) {
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.home.insights.${key}`, options);
  const titleId = useId();
  const noteId = useId();
  return (
    <Card component="section" aria-labelledby={titleId} aria-describedby={noteId} sx={{ mt: 2 }}>
      <CardContent>
        <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('topUsers')}
        </Typography>
        <Typography id={noteId} component="p" variant="body2" color="text.secondary" gutterBottom>
          {insights.topUsers.length === 0 ? t('topUsersEmpty') : t('topUsersNote', { start: formatMonthStart(insights.generatedAt) })}
        </Typography>
        {insights.topUsers.length > 0 && (
          <TableScroller title={t('topUsers')}>
            <Table size="small" aria-labelledby={titleId}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('userColumn')}</TableCell>
                  <TableCell>{t('emailColumn')}</TableCell>
                  <TableCell align="right">{t('queriesColumn')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {insights.topUsers.map((user) => (
                  <TableRow key={user.userId}>
                    <TableCell component="th" scope="row">
                      <Link component={RouterLink} to={`${CONSOLE_BASE}/users/${encodeURIComponent(user.userId)}/show`}>
                        {user.username}
                      </Link>
                    </TableCell>
                    <TableCell>{user.email ?? '—'}</TableCell>
                    <TableCell align="right">{formatCount(user.units)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableScroller>
        )}
      </CardContent>
    </Card>
  );
}
