import { Box, Button, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { RECENT_LIMIT, recentMessagesFormSchema } from '../../../contract/admin';
import { fetchRecentMessages } from '../../api/admin';
import { saveFile } from '../../browser';
import { CardForm, CardFormTextInput } from '../forms/CardForm';
import { TableScroller } from '../TableScroller';
import { useNotifyError, useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { messagesFileName, messagesText, prettyJson } from './messageRules';
import { formatDateTime } from '../../ui/format';

const PREVIEW_LENGTH = 160;
const preview = (message: unknown) => {
  const text = prettyJson(message).replace(/\s+/g, ' ');
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
};

/** §2 Recent Messages tab: the newest messages (limit 1–1000, default 20), exported as a text file. */
export function RecentMessages() {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();
  const notifySuccess = useNotifySuccess();
  const [limit, setLimit] = useState<number>(RECENT_LIMIT.default);

  const recent = useQuery({
    queryKey: ['admin', 'recent-messages', limit],
    queryFn: () =>
      adminCall(fetchRecentMessages(limit)).catch((error: unknown) => {
        notifyError({ title: 'admin.error', message: 'admin.recentMessages.failed', error });
        throw error;
      }),
    // Recent means now: each visit reads afresh.
    staleTime: 0,
  });

  const fetchRecent = ({ limit: asked }: { limit: number }) => {
    // The same limit again reads afresh: recent means now.
    if (asked === limit) void recent.refetch();
    else setLimit(asked);
  };

  const download = () => {
    const messages = recent.data ?? [];
    saveFile(new Blob([messagesText(messages)], { type: 'text/plain;charset=utf-8' }), messagesFileName(new Date()));
    notifySuccess('admin.recentMessages.downloaded', { count: messages.length });
  };

  return (
    <CardForm
      title="admin.menu.recentMessages"
      schema={recentMessagesFormSchema}
      defaultValues={{ limit: String(RECENT_LIMIT.default) }}
      onSubmit={fetchRecent}
      submitLabel="admin.recentMessages.submit"
      busy={recent.isFetching}
      fields={
        <CardFormTextInput
          source="limit"
          label="admin.recentMessages.limit"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          sx={{ width: 140 }}
        />
      }
      actions={
        <Button variant="outlined" onClick={download} disabled={!recent.data?.length}>
          {translate('admin.recentMessages.download')}
        </Button>
      }
    >
      <Box sx={{ mt: 2 }}>
        {recent.isPending ? (
          <CircularProgress size={24} aria-label={translate('ra.message.loading')} />
        ) : recent.isError ? (
          <Typography color="error">{translate('admin.recentMessages.failed')}</Typography>
        ) : recent.data.length === 0 ? (
          <Typography color="text.secondary">{translate('admin.recentMessages.none')}</Typography>
        ) : (
          <TableScroller title={translate('admin.menu.recentMessages')}>
            <Table size="small" aria-label={translate('admin.menu.recentMessages')}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('admin.findMessage.sessionId')}</TableCell>
                  <TableCell>{translate('admin.findMessage.createdAt')}</TableCell>
                  <TableCell>{translate('admin.findMessage.size')}</TableCell>
                  <TableCell>{translate('admin.findMessage.message')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {recent.data.map((message) => (
                  <TableRow key={message.id}>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{message.sessionId}</TableCell>
                    <TableCell>{formatDateTime(message.createdAt)}</TableCell>
                    <TableCell>{translate('admin.findMessage.characters', { count: message.messageSize })}</TableCell>
                    {/* Wide enough to read: on a phone the table scrolls sideways rather than squeeze it to a letter a line. */}
                    <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-word', minWidth: '20em' }}>
                      {preview(message.message)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableScroller>
        )}
      </Box>
    </CardForm>
  );
}
