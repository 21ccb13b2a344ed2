import { Box, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { userSearchFormSchema } from '../../../contract/admin';
import { searchUsers } from '../../api/admin';
import { CardForm, CardFormTextInput } from '../forms/CardForm';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';

/** §2 Search tab: users matching a term, each leading to their page. */
export function UserSearch() {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();

  const search = useMutation({
    mutationFn: (query: string) => adminCall(searchUsers(query)),
    onError: (error) => notifyError({ title: 'admin.search.errorTitle', message: 'admin.search.error', error }),
  });

  return (
    <CardForm
      title="admin.menu.search"
      maxWidth={720}
      schema={userSearchFormSchema}
      defaultValues={{ query: '' }}
      onSubmit={({ query }) => search.mutate(query)}
      submitLabel="admin.search.submit"
      busy={search.isPending}
      fields={<CardFormTextInput source="query" label="admin.search.field" type="search" sx={{ flex: 1 }} />}
    >
      {search.isSuccess && (
        <Box sx={{ mt: 2 }}>
          {search.data.length === 0 ? (
            <Typography>{translate('admin.search.none')}</Typography>
          ) : (
            <List aria-label={translate('admin.search.results')}>
              {search.data.map((user) => (
                <ListItem key={user.id} disablePadding>
                  <ListItemButton component={Link} to={createPath({ resource: 'users', id: user.id, type: 'show' })}>
                    <ListItemText primary={user.username} secondary={user.email} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      )}
    </CardForm>
  );
}
