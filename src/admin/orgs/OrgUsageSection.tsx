import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminOrg } from '../../../contract/adminOrgs';
import { formatCount, formatDateTime } from '../../ui/format';
import { TableScroller } from '../TableScroller';
import { MemberName } from './OrgMembersSection';
import { Moment, OrgSection } from './OrgSection';

/** This billing period's queries the organisation paid for: in all, and by member, from their seat and from the pool. */
export function OrgUsageSection() {
  const org = useRecordContext<AdminOrg>();
  const translate = useTranslate();
  if (!org) return null;
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.orgs.usage.${key}`, options);
  return (
    <OrgSection title={t('title')}>
      {(titleId) => (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('period', {
              start: formatDateTime(org.period.start),
              end: formatDateTime(org.period.end),
              seat: formatCount(org.usage.seat),
              pool: formatCount(org.usage.pool),
            })}
          </Typography>
          <TableScroller title={t('title')}>
            <Table size="small" aria-labelledby={titleId}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('member')}</TableCell>
                  <TableCell align="right">{t('seat')}</TableCell>
                  <TableCell align="right">{t('pool')}</TableCell>
                  <TableCell align="right">{t('total')}</TableCell>
                  <TableCell>{t('lastActive')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {org.members.map((member) => (
                  <TableRow key={member.userId}>
                    <TableCell>
                      <MemberName member={member} />
                    </TableCell>
                    <TableCell align="right">{formatCount(member.usage - member.poolUsage)}</TableCell>
                    <TableCell align="right">{formatCount(member.poolUsage)}</TableCell>
                    <TableCell align="right">{formatCount(member.usage)}</TableCell>
                    <TableCell>{member.lastActiveAt ? <Moment iso={member.lastActiveAt} /> : t('never')}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableScroller>
        </>
      )}
    </OrgSection>
  );
}
