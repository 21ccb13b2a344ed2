import { Alert, AlertTitle, Box } from '@mui/material';
import { useCallback } from 'react';
import { Notification, useNotify, useTranslate } from 'react-admin';
import { TOAST_DURATION_MS } from '../ui/toast';

/** The console's toasts last as long as the portal's (§9). */
export function AdminNotification() {
  return <Notification autoHideDuration={TOAST_DURATION_MS} />;
}

export interface ErrorToast {
  /** Translation key or text of the title, e.g. `Update Error`. */
  title?: string;
  /** Translation key or text of the message, e.g. `Failed to export users`, or the server's message. */
  message: string;
  /** The failure, whose message is shown below as the reason. */
  error?: unknown;
}

function ErrorToastContent({ title, message, reason }: { title?: string; message: string; reason?: string }) {
  const translate = useTranslate();
  return (
    <Alert severity="error" variant="filled" sx={{ minWidth: 288 }}>
      {title && <AlertTitle>{translate(title, { _: title })}</AlertTitle>}
      {translate(message, { _: message })}
      {reason && (
        <Box component="span" sx={{ display: 'block', typography: 'body2', mt: 0.5 }}>
          {reason}
        </Box>
      )}
    </Alert>
  );
}

const reasonOf = (error: unknown): string | undefined => (error instanceof Error && error.message ? error.message : undefined);

/** §8's failure toasts: a title (Error, Search Error, Update Error, …) and the product's text. */
export function useNotifyError() {
  const notify = useNotify();
  return useCallback(
    ({ title, message, error }: ErrorToast) => {
      const reason = reasonOf(error);
      notify(<ErrorToastContent title={title} message={message} reason={reason === message ? undefined : reason} />, {
        type: 'error',
      });
    },
    [notify],
  );
}

/** §8's success toasts (`User updated successfully`, `Downloaded N messages to text file`, …). */
export function useNotifySuccess() {
  const notify = useNotify();
  return useCallback(
    (message: string, messageArgs?: Record<string, unknown>) => notify(message, { type: 'success', messageArgs }),
    [notify],
  );
}
