import { Alert, Box, Button, Card, CardContent, List, ListItemButton, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Title, useCreatePath, useTranslate } from 'react-admin';
import { useAdminDataProvider } from '../../dataProvider';
import { useNotifyError } from '../notify';

/** §2 Search tab: users matching a term, each leading to their page. */
export function UserSearch() {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const dataProvider = useAdminDataProvider();
  const notifyError = useNotifyError();
  const [term, setTerm] = useState('');
  const [missingTerm, setMissingTerm] = useState(false);

  const search = useMutation({
    mutationFn: (query: string) => dataProvider.search(query),
    onError: (error) => notifyError({ title: 'admin.search.errorTitle', message: 'admin.search.error', error }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = term.trim();
    setMissingTerm(!query);
    if (query) search.mutate(query);
  };

  return (
    <Card sx={{ mt: 2, maxWidth: 720 }}>
      <Title title="admin.menu.search" />
      <CardContent>
        <Stack component="form" noValidate direction="row" spacing={2} onSubmit={submit} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label={translate('admin.search.field')}
            type="search"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            size="small"
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="contained" loading={search.isPending}>
            {translate('admin.search.submit')}
          </Button>
        </Stack>
        {missingTerm && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {translate('admin.search.termRequired')}
          </Alert>
        )}
        {search.isSuccess && (
          <Box sx={{ mt: 2 }}>
            {search.data.length === 0 ? (
              <Typography>{translate('admin.search.none')}</Typography>
            ) : (
              <List aria-label={translate('admin.search.results')}>
                {search.data.map((user) => (
                  <ListItemButton key={user.id} component={Link} to={createPath({ resource: 'users', id: user.id, type: 'show' })}>
                    <ListItemText primary={user.username} secondary={user.email} />
                  </ListItemButton>
                ))}
              </List>
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
