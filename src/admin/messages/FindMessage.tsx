import { Alert, Box, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { messageSearchFormSchema } from '../../../contract/admin';
import { ERROR_CODES } from '../../../contract/errors';
import { HttpError } from '../../api/client';
import { findMessage } from '../../api/admin';
import { CardForm, CardFormTextInput } from '../forms/CardForm';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { prettyJson } from './messageRules';
import { formatDateTime } from '../../ui/format';

const isNotFound = (error: unknown) => error instanceof HttpError && error.code === ERROR_CODES.notFound;

/** §2 Find Message tab: the message stored under a session id. */
export function FindMessage() {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();

  const find = useMutation({
    mutationFn: (id: string) => adminCall(findMessage(id)),
    onError: (error) => {
      if (!isNotFound(error)) notifyError({ title: 'admin.error', message: 'admin.findMessage.failed', error });
    },
  });

  const message = find.data;
  return (
    <CardForm
      title="admin.menu.findMessage"
      maxWidth={900}
      schema={messageSearchFormSchema}
      defaultValues={{ sessionId: '' }}
      onSubmit={({ sessionId }) => find.mutate(sessionId)}
      // What an earlier search found is not the answer to a refused one.
      onRefused={find.reset}
      submitLabel="admin.findMessage.submit"
      busy={find.isPending}
      fields={<CardFormTextInput source="sessionId" label="admin.findMessage.sessionId" sx={{ flex: 1 }} />}
    >
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
            <Typography
              component="pre"
              variant="body2"
              sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-word', m: 0 }}
            >
              {prettyJson(message.message)}
            </Typography>
          </dd>
        </Box>
      )}
    </CardForm>
  );
}
