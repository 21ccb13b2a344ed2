import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Title, useTranslate } from 'react-admin';
import { HttpError } from '../../api/client';
import { useAdminDataProvider } from '../../dataProvider';
import { formatDateTime } from '../format';
import { useNotifyError } from '../notify';
import { prettyJson } from './messageRules';

const isNotFound = (error: unknown) => error instanceof HttpError && error.code === 'not_found';

/** §2 Find Message tab: the message stored under a session id. */
export function FindMessage() {
  const translate = useTranslate();
  const dataProvider = useAdminDataProvider();
  const notifyError = useNotifyError();
  const [sessionId, setSessionId] = useState('');
  const [missingId, setMissingId] = useState(false);

  const find = useMutation({
    mutationFn: (id: string) => dataProvider.findBySessionId(id),
    onError: (error) => {
      if (!isNotFound(error)) notifyError({ title: 'admin.error', message: 'admin.findMessage.failed', error });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = sessionId.trim();
    setMissingId(!id);
    if (id) find.mutate(id);
    else find.reset();
  };

  const message = find.data;
  return (
    <Card sx={{ mt: 2, maxWidth: 900 }}>
      <Title title="admin.menu.findMessage" />
      <CardContent>
        <Stack component="form" noValidate direction="row" spacing={2} onSubmit={submit} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label={translate('admin.findMessage.sessionId')}
            value={sessionId}
            onChange={(event) => setSessionId(event.target.value)}
            size="small"
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="contained" loading={find.isPending}>
            {translate('admin.findMessage.submit')}
          </Button>
        </Stack>
        {missingId && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {translate('admin.findMessage.sessionIdRequired')}
          </Alert>
        )}
        {find.isError && isNotFound(find.error) && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {translate('admin.findMessage.notFound')}
          </Alert>
        )}
        {message && (
          <Box component="dl" sx={{ mt: 2, '& dt': { fontWeight: 600, mt: 1 }, '& dd': { ml: 0 } }}>
            <dt>{translate('admin.findMessage.sessionId')}</dt>
            <dd>{message.sessionId}</dd>
            <dt>{translate('admin.findMessage.createdAt')}</dt>
            <dd>
              <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
            </dd>
            <dt>{translate('admin.findMessage.size')}</dt>
            <dd>{translate('admin.findMessage.characters', { count: message.messageSize })}</dd>
            <dt>{translate('admin.findMessage.message')}</dt>
            <dd>
              <Typography component="pre" variant="body2" sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-word', m: 0 }}>
                {prettyJson(message.message)}
              </Typography>
            </dd>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
