import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { ACCOUNT_DATA_MESSAGES, ACCOUNT_DELETION_ERRORS, type AccountDeletionStatus } from '../../../../contract/accountData';
import { reset as resetAnalytics } from '../../../analytics';
import { DELETION_STATUS_QUERY_KEY, deleteMyAccount, useDeletionStatus } from '../../../api/accountData';
import { epicSignInUrl } from '../../../api/auth';
import { HttpError } from '../../../api/client';
import { USER_QUERY_KEY } from '../../../authProvider/session';
import { assignLocation } from '../../../browser';
import { FormTextField } from '../../forms/FormTextField';
import { useContractForm } from '../../forms/contractForm';
import { PasswordField } from '../../login/PasswordField';
import { deleteAccountForm, type DeleteAccountFormValues } from './deleteAccountForm';
import { formatTime } from '../../../ui/format';
import { ORG_ERRORS } from '../../../../contract/orgs';

export const DELETE_FAILED = 'Failed to delete your account';
/** Where the browser lands once the account is gone: signed out, on the download page. */
export const AFTER_DELETION_PATH = '/download';

/** What the failure says to the person: the server's words, or ours for a Stripe failure (a 5xx reads as its status text). */
function failureText(error: Error): string {
  if (error instanceof HttpError && error.code === ACCOUNT_DELETION_ERRORS.subscriptionNotCancelled)
    return ACCOUNT_DATA_MESSAGES.subscriptionNotCancelled;
  return error.message || DELETE_FAILED;
}

/** How this account proves it is the owner (decision 034): a password field, or a recent sign-in in this browser. */
function Reauthentication({ status, children }: { status: AccountDeletionStatus; children: ReactNode }) {
  if (status.reauthentication === 'password') return <>{children}</>;
  if (status.recentSignInUntil !== null) {
    return (
      <Typography>You signed in with Epic recently: you can delete your account until {formatTime(status.recentSignInUntil)}.</Typography>
    );
  }
  return (
    <Alert
      severity="info"
      action={
        <Button color="inherit" size="small" href={epicSignInUrl('web')}>
          Sign in with Epic again
        </Button>
      }
    >
      {ACCOUNT_DATA_MESSAGES.epicSignInRequired} Then come back to Account, Delete account.
    </Alert>
  );
}

function DeletionForm({ status, onCancel }: { status: AccountDeletionStatus; onCancel: () => void }) {
  const passwordNeeded = status.reauthentication === 'password' && status.recentSignInUntil === null;
  const [schema] = useState(() => deleteAccountForm(status.username, passwordNeeded));
  const { register, handleSubmit, setFocus, formState } = useContractForm<DeleteAccountFormValues, DeleteAccountFormValues>(schema);
  const [visible, setVisible] = useState(false);
  const queryClient = useQueryClient();
  const formId = useId();

  const deletion = useMutation({
    mutationFn: deleteMyAccount,
    onSuccess: () => {
      resetAnalytics();
      // The account and its sessions are gone: no data of it survives the full navigation that follows.
      queryClient.setQueryData(USER_QUERY_KEY, null);
      assignLocation(AFTER_DELETION_PATH);
    },
    onError: (error) => {
      if (!(error instanceof HttpError)) return;
      if (error.code === ACCOUNT_DELETION_ERRORS.wrongPassword) setFocus('password');
      if (error.code === ACCOUNT_DELETION_ERRORS.confirmationMismatch) setFocus('confirm');
      // The recent sign-in stopped counting meanwhile, or the admins changed: ask again what it takes.
      if (
        error.code === ACCOUNT_DELETION_ERRORS.reauthenticationRequired ||
        error.code === ACCOUNT_DELETION_ERRORS.lastAdmin ||
        error.code === ORG_ERRORS.ownsOrg.error
      )
        void queryClient.invalidateQueries({ queryKey: DELETION_STATUS_QUERY_KEY });
    },
  });
  // Once deleted, the browser is on its way out: the form stays busy.
  const busy = deletion.isPending || deletion.isSuccess;
  const blocked = status.lastAdmin || status.ownsOrganisation || (status.reauthentication === 'epic' && status.recentSignInUntil === null);

  const onSubmit = handleSubmit(({ confirm, password }) => {
    if (!busy) deletion.mutate({ confirm, ...(password ? { password } : {}) });
  });
  const { errors } = formState;

  return (
    <>
      <DialogContent sx={{ pt: 0 }}>
        <Stack component="form" id={formId} onSubmit={onSubmit} spacing={2} noValidate>
          {status.lastAdmin && <Alert severity="warning">{ACCOUNT_DATA_MESSAGES.lastAdmin}</Alert>}
          {status.ownsOrganisation && <Alert severity="warning">{ORG_ERRORS.ownsOrg.message}</Alert>}
          <FormTextField
            label="Your username"
            field={register('confirm')}
            required
            fullWidth
            disabled={busy || blocked}
            autoComplete="off"
            error={Boolean(errors.confirm)}
            // The hint keeps the username in view after a wrong entry; the refusal follows it.
            helperText={
              <>
                {`Type ${status.username} to confirm.`}
                {errors.confirm?.message && (
                  <Box component="span" sx={{ display: 'block' }}>
                    {errors.confirm.message}
                  </Box>
                )}
              </>
            }
          />
          <Reauthentication status={status}>
            {passwordNeeded ? (
              <Box>
                <PasswordField
                  label="Password"
                  field={register('password')}
                  visible={visible}
                  onToggleVisible={() => setVisible((v) => !v)}
                  disabled={busy || blocked}
                  autoComplete="current-password"
                  margin="none"
                />
                {errors.password?.message && (
                  <Typography variant="body2" color="error" role="alert" sx={{ mt: 0.5 }}>
                    {errors.password.message}
                  </Typography>
                )}
              </Box>
            ) : (
              // A password account that signed in in this browser in the last 10 minutes: either proves it is them.
              <FormTextField
                label="Password"
                field={register('password')}
                type="password"
                fullWidth
                disabled={busy || blocked}
                autoComplete="current-password"
                helperText={
                  // Built even when Reauthentication does not show it: only with a time to say.
                  status.recentSignInUntil &&
                  `You signed in here recently: you may leave it empty until ${formatTime(status.recentSignInUntil)}.`
                }
              />
            )}
          </Reauthentication>
          {/* In the dialog, not a toast: the open dialog hides the rest of the page from screen readers. */}
          {deletion.error && <Alert severity="error">{failureText(deletion.error)}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" form={formId} variant="contained" color="error" disabled={busy || blocked}>
          {busy ? 'Deleting...' : 'Delete my account'}
        </Button>
      </DialogActions>
    </>
  );
}

/**
 * The confirmation of an account's deletion, which cannot be undone (issue 27): the username typed
 * as shown, and the password, or a sign-in in this browser in the last 10 minutes (decision 034).
 * On success the browser lands signed out on /download.
 */
export function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const status = useDeletionStatus(open);
  const titleId = useId();
  const textId = useId();

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} aria-describedby={textId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Delete your account?</DialogTitle>
      <DialogContent sx={{ pb: 1 }}>
        <DialogContentText id={textId}>
          Your account and its data are deleted and your subscriptions end at once. This cannot be undone.
        </DialogContentText>
      </DialogContent>
      {status.data ? (
        // Keyed by what the form asks for: a new answer (signed in again meanwhile) starts it afresh.
        <DeletionForm key={`${status.data.reauthentication}:${status.data.recentSignInUntil}`} status={status.data} onCancel={onClose} />
      ) : (
        <>
          <DialogContent sx={{ pt: 0 }}>
            {status.isError ? (
              <Alert severity="error">Unable to load what deleting your account needs. Please try again.</Alert>
            ) : (
              <Stack role="status" aria-label="Loading" aria-busy spacing={1}>
                <Skeleton variant="rounded" height={56} />
                <Skeleton variant="rounded" height={56} />
              </Stack>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
