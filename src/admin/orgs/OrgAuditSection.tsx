import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminOrg } from '../../../contract/adminOrgs';
import { TableScroller } from '../TableScroller';
import { Moment, OrgSection } from './OrgSection';

/** The organisation's audit log, newest first, in the same words its owners and admins read, with who did it. */
export function OrgAuditSection() {
  const org = useRecordContext<AdminOrg>();
  const translate = useTranslate();
  if (!org) return null;
  const t = (key: string) => translate(`admin.orgs.audit.${key}`);
  return (
    <OrgSection title={t('title')}>
      {(titleId) =>
        org.audit.length === 0 ? (
          <Typography color="text.secondary">{t('none')}</Typography>
        ) : (
          <TableScroller title={t('title')}>
            <Table size="small" aria-labelledby={titleId}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('when')}</TableCell>
                  <TableCell>{t('who')}</TableCell>
                  <TableCell>{t('what')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {org.audit.map((entry) => (
                  <TableRow key={entry.id}>
                    <TableCell>
                      <Moment iso={entry.at} />
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.actor ?? t('unknownActor')}</TableCell>
                    <TableCell>{entry.text}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableScroller>
        )
      }
    </OrgSection>
  );
}
