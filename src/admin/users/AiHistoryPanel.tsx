import { Box, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminUser } from '../../../contract/admin';
import { fetchAiThreads, type AiThread } from '../../api/admin';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { formatDateTime } from '../../ui/format';

function ThreadMessage({ role, content }: AiThread['messages'][number]) {
  const assistant = role === 'assistant';
  return (
    <Box
      data-role={role}
      sx={{
        alignSelf: assistant ? 'flex-start' : 'flex-end',
        maxWidth: '85%',
        px: 1.5,
        py: 1,
        borderRadius: 2,
        bgcolor: assistant ? 'primary.main' : 'grey.100',
        color: assistant ? 'primary.contrastText' : 'text.primary',
      }}
    >
      <Typography variant="caption" component="p" sx={{ fontWeight: 600, opacity: 0.8 }}>
        {role}
      </Typography>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {content}
      </Typography>
    </Box>
  );
}

/** §2: the user's AI chat history, the first 10 threads, assistant messages apart from the others. */
export function AiHistoryPanel() {
  const user = useRecordContext<AdminUser>();
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const adminCall = useAdminCall();
  const {
    data: threads,
    isPending,
    isError,
    error,
  } = useQuery({
    queryKey: ['users', 'aiHistory', user?.id],
    queryFn: () => adminCall(fetchAiThreads(user!.id)),
    enabled: Boolean(user),
  });
  useEffect(() => {
    if (error) notifyError({ message: 'admin.aiHistory.failed', error });
  }, [error, notifyError]);

  return (
    <Box component="section" aria-labelledby="ai-history-title" sx={{ p: 2 }}>
      <Typography id="ai-history-title" component="h2" variant="h6" gutterBottom>
        {translate('admin.aiHistory.title')}
      </Typography>
      {isPending ? (
        <CircularProgress size={24} aria-label={translate('ra.message.loading')} />
      ) : isError ? (
        <Typography color="error">{translate('admin.aiHistory.failed')}</Typography>
      ) : threads.length === 0 ? (
        <Typography color="text.secondary">{translate('admin.aiHistory.empty')}</Typography>
      ) : (
        <Stack spacing={2}>
          {threads.map((thread) => (
            <Paper key={thread.id} variant="outlined" component="article" aria-label={formatDateTime(thread.created_at)} sx={{ p: 2 }}>
              <Typography variant="subtitle2" component="h3" gutterBottom>
                <time dateTime={thread.created_at}>{formatDateTime(thread.created_at)}</time>
              </Typography>
              <Stack spacing={1}>
                {thread.messages.map((message, index) => (
                  <ThreadMessage key={index} {...message} />
                ))}
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
    </Box>
  );
}
