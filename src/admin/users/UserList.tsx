import {
  BooleanField,
  BooleanInput,
  Datagrid,
  DateField,
  FilterButton,
  List,
  SearchInput,
  SimpleList,
  TextField,
  TopToolbar,
  useListContext,
  useTranslate,
  type SearchInputProps,
} from 'react-admin';
import { Alert } from '@mui/material';
import { SEARCH_LIST_LIMIT, type AdminUser } from '../../../contract/admin';
import { useNotifyError } from '../notify';
import { RowCheckboxNames } from '../RowCheckboxNames';
import { SavedViews } from '../SavedViews';
import { ExportUsersButton } from './ExportUsersButton';
import { ListRead, USER_LIST_READ, useSimpleListScreen } from './userListSettings';
import { useUserBulkActions } from './UserBulkActions';
import { formatCount } from '../../ui/format';

/** The `q` filter (part of a username or e-mail, or an id), named for screen readers like its placeholder. */
function UserSearchInput(props: SearchInputProps) {
  const translate = useTranslate();
  return <SearchInput {...props} slotProps={{ htmlInput: { 'aria-label': translate('ra.action.search') } }} />;
}

const filters = [
  <UserSearchInput key="q" source="q" alwaysOn />,
  // Accounts the e-mail login's retirement still concerns (issue 40, decision 048).
  <BooleanInput key="noEpic" source="noEpic" label="admin.users.noEpicLink" />,
  // Who is left on a withdrawn build, to ask them to move (issue 41).
  <BooleanInput key="onWithdrawn" source="onWithdrawn" label="admin.users.onWithdrawnBuild" />,
];

function UserListActions() {
  return (
    <TopToolbar>
      {/* "Add filter": No Epic link (issue 40), On a withdrawn build (issue 41). */}
      <FilterButton />
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
      {translate('admin.users.searchLimited', { limit: formatCount(SEARCH_LIST_LIMIT) })}
    </Alert>
  );
}

/**
 * §2 User List tab: every user, paged, sorted and searched by the server; the rows a role may act on
 * are selected for its bulk actions (issue 28). On a phone it is a simple list, as react-admin's demo
 * does: a table is wider than the screen, and a phone gets no selection, so bulk actions are for
 * wider screens. Drawn ahead (`drawnAhead`), it has no title and says nothing of a failure.
 */
export function UserList({ drawnAhead }: { drawnAhead?: () => void }) {
  const notifyError = useNotifyError();
  const phone = useSimpleListScreen();
  const bulkActions = useUserBulkActions();
  return (
    <List
      {...USER_LIST_READ}
      title={drawnAhead ? false : 'admin.menu.userList'}
      filters={filters}
      actions={<UserListActions />}
      exporter={false}
      queryOptions={{
        onError: (error: unknown) => drawnAhead || notifyError({ title: 'admin.error', message: 'admin.users.fetchFailed', error }),
      }}
    >
      {drawnAhead && <ListRead onRead={drawnAhead} />}
      <SavedViews />
      <SearchLimitNote />
      {phone ? (
        <SimpleList<AdminUser>
          primaryText={(user) => user.username}
          secondaryText={(user) => user.email ?? user.epicDisplayName ?? ''}
          tertiaryText={(user) => user.status}
          linkType="show"
        />
      ) : (
        <RowCheckboxNames>
          <Datagrid rowClick="show" bulkActionButtons={bulkActions}>
            <TextField source="username" />
            <TextField source="email" />
            <TextField source="status" sortable={false} />
            <BooleanField source="isAdmin" sortable={false} />
            <DateField source="createdAt" showTime />
          </Datagrid>
        </RowCheckboxNames>
      )}
    </List>
  );
}
