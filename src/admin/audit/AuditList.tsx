import { Typography, useMediaQuery, type Theme } from '@mui/material';
import {
  Datagrid,
  DateField,
  DateInput,
  FunctionField,
  List,
  SelectField,
  SelectInput,
  SimpleList,
  TextField,
  TextInput,
} from 'react-admin';
import { AUDIT_ACTIONS, DEFAULT_PAGE_SIZE, type AuditEntry } from '../../../contract/admin';
import { prettyJson } from '../messages/messageRules';
import { SavedViews } from '../SavedViews';
import { formatDateTime } from '../../ui/format';

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <>—</>;
  return (
    <Typography component="pre" variant="body2" sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-word', m: 0 }}>
      {prettyJson(value)}
    </Typography>
  );
}

/** The actions the server records, each shown by its own name (`user.update`). */
const ACTION_CHOICES = AUDIT_ACTIONS.map((action) => ({ id: action, name: action }));

/**
 * The filters the server applies (contract auditFilterSchema), each exact: who by e-mail or ID, one
 * action, the changed record's ID, and whole UTC days from and to, both included.
 */
const auditFilters = [
  <TextInput key="actor" source="actor" label="Who (e-mail or ID)" alwaysOn />,
  <SelectInput
    key="action"
    source="action"
    label="Action"
    choices={ACTION_CHOICES}
    translateChoice={false}
    emptyText="Any action"
    alwaysOn
  />,
  <TextInput key="target" source="target" label="Target ID" alwaysOn />,
  <DateInput key="from" source="from" label="From (UTC day)" alwaysOn />,
  <DateInput key="to" source="to" label="To (UTC day)" alwaysOn />,
];

const targetOf = (entry: AuditEntry) => [entry.targetType, entry.targetId].filter(Boolean).join(' ');

/**
 * Every admin write, newest first: when, who, what, on which record, before and after; saved views
 * keep the filters. On a phone it is a simple list of when, who, what and on which record, as
 * react-admin's demo does: the table, with its before and after, is wider than the screen.
 */
export function AuditList() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <List
      title="admin.menu.audit"
      filters={auditFilters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={DEFAULT_PAGE_SIZE}
      exporter={false}
    >
      <SavedViews />
      {phone ? (
        <SimpleList<AuditEntry>
          primaryText={(entry) => entry.action}
          secondaryText={(entry) => [entry.actorEmail ?? '—', targetOf(entry)].filter(Boolean).join(' · ')}
          tertiaryText={(entry) => formatDateTime(entry.createdAt)}
          linkType={false}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <DateField source="createdAt" showTime sortable={false} />
          <TextField source="actorEmail" sortable={false} emptyText="—" />
          <SelectField source="action" choices={ACTION_CHOICES} translateChoice={false} sortable={false} />
          <FunctionField<AuditEntry> source="target" sortable={false} render={targetOf} />
          <FunctionField<AuditEntry> source="before" sortable={false} render={(entry) => <Json value={entry.before} />} />
          <FunctionField<AuditEntry> source="after" sortable={false} render={(entry) => <Json value={entry.after} />} />
        </Datagrid>
      )}
    </List>
  );
}
