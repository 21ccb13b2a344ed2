import { useMediaQuery, type Theme } from '@mui/material';
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  SimpleList,
  TextField,
  useTranslate,
  type SearchInputProps,
} from 'react-admin';
import { DEFAULT_PAGE_SIZE } from '../../../contract/admin';
import type { AdminOrgRow } from '../../../contract/adminOrgs';
import { formatCount } from '../../ui/format';
import { useNotifyError } from '../notify';

/** The `q` filter (part of the name or of a member's e-mail, or an id), named for screen readers like its placeholder. */
function OrgSearchInput(props: SearchInputProps) {
  const translate = useTranslate();
  return <SearchInput {...props} slotProps={{ htmlInput: { 'aria-label': translate('ra.action.search') } }} />;
}

const filters = [<OrgSearchInput key="q" source="q" alwaysOn />];

/** `2 / 5`: seats given to members of those bought. */
function SeatsOf({ org }: { org: AdminOrgRow }) {
  const translate = useTranslate();
  return <>{translate('admin.orgs.seats', { assigned: formatCount(org.seats.assigned), bought: formatCount(org.seats.bought) })}</>;
}

/** `Sage Studio (active)`, or None without a live plan. */
function PlanOf({ org }: { org: AdminOrgRow }) {
  const translate = useTranslate();
  return <>{org.plan ? translate('admin.orgs.plan', { plan: org.plan.name, status: org.plan.status }) : translate('admin.orgs.noPlan')}</>;
}

/**
 * Organisations (issue 38): every one, paged, sorted by name or creation and searched by the
 * server (a part of its name or of a member's e-mail), each opening its page. As the User List,
 * its search, page and sort live in the console's store rather than the address (issue 37), and a
 * phone gets a simple list.
 */
export function OrgList() {
  const notifyError = useNotifyError();
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <List
      resource="orgs"
      title="admin.menu.orgs"
      filters={filters}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={DEFAULT_PAGE_SIZE}
      disableSyncWithLocation
      storeKey="orgs"
      exporter={false}
      queryOptions={{ onError: (error: unknown) => notifyError({ title: 'admin.error', message: 'admin.orgs.fetchFailed', error }) }}
    >
      {phone ? (
        <SimpleList<AdminOrgRow>
          primaryText={(org) => org.name}
          secondaryText={(org) => org.ownerEmail ?? translate('admin.orgs.noOwnerEmail')}
          tertiaryText={(org) =>
            translate('admin.orgs.seats', { assigned: formatCount(org.seats.assigned), bought: formatCount(org.seats.bought) })
          }
          linkType="show"
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="name" />
          <TextField source="ownerEmail" sortable={false} emptyText="—" />
          <NumberField source="memberCount" sortable={false} />
          <FunctionField<AdminOrgRow> source="seats" sortable={false} render={(org) => <SeatsOf org={org} />} />
          <FunctionField<AdminOrgRow> source="plan" sortable={false} render={(org) => <PlanOf org={org} />} />
          <NumberField source="pool" sortable={false} />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
