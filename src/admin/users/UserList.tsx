import {
  BooleanField,
  Datagrid,
  DateField,
  List,
  SearchInput,
  TextField,
  TopToolbar,
  useListContext,
  useTranslate,
  type SearchInputProps,
} from 'react-admin';
import { Alert } from '@mui/material';
import { DEFAULT_PAGE_SIZE, SEARCH_LIST_LIMIT } from '../../../contract/admin';
import { useNotifyError } from '../notify';
import { ExportUsersButton } from './ExportUsersButton';

/** The `q` filter (part of a username or e-mail, or an id), named for screen readers like its placeholder. */
function UserSearchInput(props: SearchInputProps) {
  const translate = useTranslate();
  return <SearchInput {...props} slotProps={{ htmlInput: { 'aria-label': translate('ra.action.search') } }} />;
}

const filters = [<UserSearchInput key="q" source="q" alwaysOn />];

function UserListActions() {
  return (
    <TopToolbar>
      <ExportUsersButton />
    </TopToolbar>
  );
}

/** Shown while a search lists as many users as a search can: more may match (decision 020). */
function SearchLimitNote() {
  const { total, filterValues } = useListContext();
  const translate = useTranslate();
  if (!filterValues.q || total !== SEARCH_LIST_LIMIT) return null;
  return (
    <Alert severity="info" role="status" sx={{ mx: 2, mt: 1 }}>
      {translate('admin.users.searchLimited', { limit: SEARCH_LIST_LIMIT.toLocaleString('en') })}
    </Alert>
  );
}

/** §2 User List tab: every user, paged, sorted and searched by the server. */
export function UserList() {
  const notifyError = useNotifyError();
  return (
    <List
      title="admin.menu.userList"
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={DEFAULT_PAGE_SIZE}
      filters={filters}
      actions={<UserListActions />}
      exporter={false}
      queryOptions={{ onError: (error: unknown) => notifyError({ title: 'admin.error', message: 'admin.users.fetchFailed', error }) }}
    >
      <SearchLimitNote />
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="username" />
        <TextField source="email" />
        <TextField source="status" sortable={false} />
        <BooleanField source="isAdmin" sortable={false} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
