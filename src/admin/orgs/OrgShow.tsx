import { DateField, FunctionField, Link, Show, SimpleShowLayout, TextField, useCreatePath, useTranslate } from 'react-admin';
import type { AdminOrg } from '../../../contract/adminOrgs';
import { OrgAuditSection } from './OrgAuditSection';
import { OrgBillingSection } from './OrgBillingSection';
import { OrgMembersSection } from './OrgMembersSection';
import { OrgPoolSection } from './OrgPoolSection';
import { OrgUsageSection } from './OrgUsageSection';

/** The owner's e-mail, leading to their user page. */
function Owner({ org }: { org: AdminOrg }) {
  const createPath = useCreatePath();
  const translate = useTranslate();
  if (!org.ownerId) return <>—</>;
  return (
    <Link to={createPath({ resource: 'users', id: org.ownerId, type: 'show' })}>
      {org.ownerEmail ?? translate('admin.orgs.noOwnerEmail')}
    </Link>
  );
}

/**
 * An organisation as staff see it (issue 38): its plan and company, seats and shared pool (admins
 * grant credits to it), members, this period's usage by member, and its audit log. Read-only
 * beside the grant: the organisation's own people change it, from their dashboard.
 */
export function OrgShow() {
  return (
    <Show actions={false}>
      <SimpleShowLayout>
        <TextField source="name" />
        <FunctionField<AdminOrg> source="ownerEmail" render={(org) => <Owner org={org} />} />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
      <OrgBillingSection />
      <OrgPoolSection />
      <OrgMembersSection />
      <OrgUsageSection />
      <OrgAuditSection />
    </Show>
  );
}
