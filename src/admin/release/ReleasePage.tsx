import { Alert, Box, Button, Card, CardContent, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Title, useTranslate } from 'react-admin';
import type { ReleaseRequest } from '../../../contract/admin';
import { CURRENT_BUILD_QUERY_KEY } from '../../api/builds';
import { useAdminDataProvider } from '../../dataProvider';
import { useNotifyError, useNotifySuccess } from '../notify';
import { canRelease, missesRequiredFields, RELEASE_BUILDS, RELEASE_FIELDS, releaseRequest } from './releaseRules';

const EMPTY: ReleaseRequest = { version: '', ue55Url: '', ue56Url: '', ue57Url: '' };

/** §2 Release tab: a new plugin build for UE 5.5, 5.6 and 5.7, with its progress per build. */
export function ReleasePage() {
  const translate = useTranslate();
  const dataProvider = useAdminDataProvider();
  const queryClient = useQueryClient();
  const notifyError = useNotifyError();
  const notifySuccess = useNotifySuccess();
  const [form, setForm] = useState<ReleaseRequest>(EMPTY);
  const [invalid, setInvalid] = useState(false);

  const release = useMutation({
    mutationFn: (build: ReleaseRequest) => dataProvider.release(build),
    onSuccess: (build) => {
      // The download page offers the new build at once, without waiting for its cache to expire.
      queryClient.setQueryData(CURRENT_BUILD_QUERY_KEY, build);
      notifySuccess('admin.release.success', { version: build.version });
    },
    onError: (error) => notifyError({ title: 'admin.release.errorTitle', message: 'admin.release.error', error }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missesRequiredFields(form)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    release.mutate(releaseRequest(form));
  };

  // One call releases the three builds together, so they share its progress.
  const progress = release.isPending
    ? 'admin.release.updating'
    : release.isSuccess
      ? 'admin.release.released'
      : release.isError
        ? 'admin.release.failed'
        : null;

  return (
    <Card sx={{ mt: 2, maxWidth: 640 }}>
      <Title title="admin.menu.release" />
      <CardContent>
        <Stack component="form" noValidate spacing={2} onSubmit={submit}>
          {RELEASE_FIELDS.map((field) => (
            <TextField
              key={field}
              label={translate(`admin.release.${field}`)}
              value={form[field]}
              onChange={(event) => setForm({ ...form, [field]: event.target.value })}
              disabled={release.isPending}
              type={field === 'version' ? 'text' : 'url'}
              fullWidth
            />
          ))}
          {invalid && <Alert severity="error">{translate('admin.release.fieldsRequired')}</Alert>}
          <Box>
            <Button type="submit" variant="contained" disabled={!canRelease(form) || release.isPending}>
              {translate('admin.release.submit')}
            </Button>
          </Box>
        </Stack>
        {progress && (
          <>
            <Typography component="h2" variant="subtitle1" sx={{ mt: 3 }}>
              {translate('admin.release.progress')}
            </Typography>
            <List dense aria-label={translate('admin.release.progress')}>
              {RELEASE_BUILDS.map((engine) => (
                <ListItem key={engine} disableGutters>
                  <ListItemText primary={engine} secondary={translate(progress)} />
                </ListItem>
              ))}
            </List>
          </>
        )}
      </CardContent>
    </Card>
  );
}
