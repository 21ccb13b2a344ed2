import { Alert, Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { RELEASE_EMAILS_TEXT, unsubscribeQuerySchema } from '../../contract/releaseEmails';
import { unsubscribeReleaseEmails } from '../api/releaseEmails';
import { PageCard } from '../ui/PageCard';

/**
 * /unsubscribe/release-emails?token=…: the visible link of a release e-mail (issue 41). Opening it
 * changes nothing — mail scanners follow links — the button does, with the same POST a mail
 * provider's one-click unsubscribe sends (RFC 8058). No sign-in needed: the token is the credential.
 */
export function UnsubscribeReleaseEmailsPage() {
  const [searchParams] = useSearchParams();
  const parsed = unsubscribeQuerySchema.safeParse({ token: searchParams.get('token') ?? undefined });
  const stop = useMutation({ mutationFn: unsubscribeReleaseEmails });

  if (!parsed.success) {
    return (
      <PageCard title={RELEASE_EMAILS_TEXT.unsubscribeTitle}>
        <Alert severity="error">{RELEASE_EMAILS_TEXT.unknownLink}</Alert>
      </PageCard>
    );
  }
  if (stop.isSuccess) {
    return (
      <PageCard title="Release e-mails stopped">
        <Alert severity="success" role="status">
          {stop.data.message}
        </Alert>
        <Stack direction="row">
          <Button variant="outlined" component={RouterLink} to="/download">
            Go to the download page
          </Button>
        </Stack>
      </PageCard>
    );
  }
  return (
    <PageCard title={RELEASE_EMAILS_TEXT.unsubscribeTitle}>
      <Typography>You get an e-mail when a Sage build for your Unreal Engine version is released. Stop them with one click.</Typography>
      {stop.isError && <Alert severity="error">{stop.error.message || RELEASE_EMAILS_TEXT.unknownLink}</Alert>}
      <Stack direction="row">
        <Button variant="contained" disabled={stop.isPending} onClick={() => stop.mutate(parsed.data.token)}>
          {stop.isPending ? 'Stopping...' : RELEASE_EMAILS_TEXT.unsubscribeButton}
        </Button>
      </Stack>
    </PageCard>
  );
}
