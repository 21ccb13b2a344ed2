import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { VERIFY_LINK_MESSAGES } from '../../../contract/emailVerification';
import { PageCard } from '../../ui/PageCard';
import { closeWindow } from '../../browser';

const KNOWN_MESSAGES: readonly string[] = Object.values(VERIFY_LINK_MESSAGES);

/** The server's message when it is one the server sends; anyone can write a link with another. */
export function shownMessage(success: boolean, message: string | null): string {
  if (message !== null && KNOWN_MESSAGES.includes(message)) return message;
  return success ? 'Your email has been verified.' : VERIFY_LINK_MESSAGES.invalid;
}

/**
 * /email-verification-completed?success=…&message=…: where the link in a verification mail lands
 * (§2). The sign-in goes on in the tab that is waiting, so this one can be closed.
 */
export function EmailVerificationCompletedPage() {
  const [searchParams] = useSearchParams();
  const success = searchParams.get('success') === 'true';
  const message = shownMessage(success, searchParams.get('message'));
  const [closeAttempted, setCloseAttempted] = useState(false);

  return (
    <PageCard title={success ? 'Email Verified' : 'Verification Failed'}>
      <Alert severity={success ? 'success' : 'error'}>{message}</Alert>
      {!success && (
        <Typography variant="body2" color="text.secondary">
          Go back to the sign-in window and use Resend Email to get a new link.
        </Typography>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button
          variant="contained"
          onClick={() => {
            closeWindow();
            setCloseAttempted(true);
          }}
        >
          Close this tab
        </Button>
        {closeAttempted && (
          <Typography variant="body2" color="text.secondary" role="status">
            If the tab is still open, you can close it yourself.
          </Typography>
        )}
      </Stack>
    </PageCard>
  );
}
