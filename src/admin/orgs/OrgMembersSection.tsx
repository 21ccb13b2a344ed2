import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { Link, useCreatePath, useRecordContext, useTranslate } from 'react-admin';
import type { AdminOrg } from '../../../contract/adminOrgs';
import type { OrgMember } from '../../../contract/orgs';
import { formatCount } from '../../ui/format';
import { TableScroller } from '../TableScroller';
import { Moment, OrgSection } from './OrgSection';

/** A member's name, leading to their user page; said suspended when their account is. */
export function MemberName({ member }: { member: OrgMember }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const name = member.suspended ? translate('admin.orgs.members.suspended', { name: member.name }) : member.name;
  return <Link to={createPath({ resource: 'users', id: member.userId, type: 'show' })}>{name}</Link>;
}

/** Every member, the owner first: their role, seat, monthly limit on the shared pool and since when. */
export function OrgMembersSection() {
  const org = useRecordContext<AdminOrg>();
  const translate = useTranslate();
  if (!org) return null;
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.orgs.members.${key}`, options);
  return (
    <OrgSection title={t('title')}>
      {(titleId) => (
        <TableScroller title={t('title')}>
          <Table size="small" aria-labelledby={titleId}>
            <TableHead>
              <TableRow>
                <TableCell>{t('name')}</TableCell>
                <TableCell>{t('email')}</TableCell>
                <TableCell>{t('role')}</TableCell>
                <TableCell>{t('seat')}</TableCell>
                <TableCell align="right">{t('limit')}</TableCell>
                <TableCell>{t('joined')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {org.members.map((member) => (
                <TableRow key={member.userId}>
                  <TableCell>
                    <MemberName member={member} />
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{member.email ?? '—'}</TableCell>
                  <TableCell>{translate(`admin.orgs.roles.${member.role}`)}</TableCell>
                  <TableCell>{member.seat ? t('yes') : t('no')}</TableCell>
                  <TableCell align="right">{member.monthlyLimit === null ? t('noLimit') : formatCount(member.monthlyLimit)}</TableCell>
                  <TableCell>
                    <Moment iso={member.joinedAt} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableScroller>
      )}
    </OrgSection>
  );
}
