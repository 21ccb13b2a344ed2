import { Alert, FormControlLabel, Switch, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enginesText, RELEASE_EMAILS_TEXT } from '../../../../contract/releaseEmails';
import { RELEASE_EMAILS_QUERY_KEY, saveReleaseEmails, useReleaseEmails } from '../../../api/releaseEmails';
import { AccountPanel } from './AccountPanel';

const HEADING_ID = 'account-release-emails-heading';
export const RELEASE_EMAILS_SAVE_FAILED = 'Your choice could not be saved. Please try again.';

/**
 * The Account section's Release e-mails panel (issue 41): one switch, off until the user turns it
 * on, and which engines it covers — those of their recorded installs, or every engine while none
 * is known. Each change is saved at once.
 */
export function ReleaseEmailsPanel() {
  const { data, isPending, isError } = useReleaseEmails();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: saveReleaseEmails,
    onSuccess: (saved) => queryClient.setQueryData(RELEASE_EMAILS_QUERY_KEY, saved),
  });
  const enabled = save.isPending ? save.variables : (data?.enabled ?? false);

  return (
    <AccountPanel
      headingId={HEADING_ID}
      title={RELEASE_EMAILS_TEXT.title}
      loading={isPending && 'Loading your release e-mail choice'}
      error={isError ? 'Unable to load your release e-mail choice' : null}
    >
      {data && (
        <>
          <FormControlLabel
            control={<Switch checked={enabled} disabled={save.isPending} onChange={(event) => save.mutate(event.target.checked)} />}
            label={RELEASE_EMAILS_TEXT.switchLabel}
          />
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {data.engines.length > 0
              ? `That is ${enginesText(data.engines)}, as your plugin installs report.`
              : 'No plugin install is recorded yet, so that is every engine.'}{' '}
            The e-mail goes to your verified address, once per build, and every one has a link to stop them.
          </Typography>
          {data.enabled && !data.addressVerified && (
            <Alert severity="warning" sx={{ mt: 2 }}>
              {RELEASE_EMAILS_TEXT.unverified}
            </Alert>
          )}
          {save.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {save.error.message || RELEASE_EMAILS_SAVE_FAILED}
            </Alert>
          )}
        </>
      )}
    </AccountPanel>
  );
}
