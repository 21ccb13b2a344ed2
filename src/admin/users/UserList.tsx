import {
  BooleanField,
  Datagrid,
  DateField,
  List,
  SearchInput,
  TextField,
  TopToolbar,
  useTranslate,
  type SearchInputProps,
} from 'react-admin';
import { DEFAULT_PAGE_SIZE } from '../../../contract/admin';
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
