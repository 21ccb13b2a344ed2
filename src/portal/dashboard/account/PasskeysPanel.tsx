import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import * as z from 'zod/mini';
import { PASSKEY_ERRORS, passkeyNameSchema, removePasskeyRequestSchema, type Passkey } from '../../../../contract/passkeys';
import { usePasswordStatus } from '../../../api/accountPassword';
import { HttpError } from '../../../api/client';
import { PASSKEYS_QUERY_KEY, addPasskey, removePasskey, usePasskeys } from '../../../api/passkeys';
import { SECOND_FACTOR_QUERY_KEY } from '../../../api/secondFactor';
import { formatMoment } from '../../../ui/format';
import { useToast } from '../../../ui/toast';
import { FormTextField } from '../../forms/FormTextField';
import { useContractForm, firstProblem } from '../../forms/contractForm';
import { PasswordField } from '../../login/PasswordField';
import { passkeyProblem } from '../../passkeys/passkeyProblem';
import { AccountPanel } from './AccountPanel';
import { ListRow, listSx } from './ListRow';
import { RecoveryCodes } from './RecoveryCodes';

const HEADING_ID = 'account-passkeys-heading';
export const ADD_FAILED = 'Failed to add the passkey';
export const REMOVE_FAILED = 'Failed to remove the passkey';

const addFormSchema = z.object({ name: passkeyNameSchema });

/** Invalidates what a passkey change moves: the list, and the two-step sign-in's status (a passkey is a second factor). */
const passkeysChanged = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY }),
  ]);

/**
 * Name it, then the browser asks where to keep the passkey and for the fingerprint, face or PIN.
 * The account's first second factor comes with its recovery codes, shown here once.
 */
function AddPasskeyForm() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { register, handleSubmit, reset, formState } = useContractForm(addFormSchema);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const add = useMutation({
    mutationFn: ({ name }: { name: string }) => addPasskey(name),
    onSuccess: ({ passkey, recoveryCodes }) => {
      reset({ name: '' });
      setNewCodes(recoveryCodes ?? null);
      toast({ title: 'Passkey added', description: `"${passkey.name}" can now sign you in without your password.` });
    },
    onSettled: () => passkeysChanged(queryClient),
  });
  const invalid = firstProblem(formState.errors);

  return (
    <Box component="form" noValidate onSubmit={handleSubmit((values) => add.mutate(values))}>
      {newCodes && (
        <Stack spacing={1} sx={{ mb: 2 }}>
          <Typography>Your password sign-in now also asks for your passkey. Keep these recovery codes in case you lose it.</Typography>
          <RecoveryCodes codes={newCodes} />
          <div>
            <Button onClick={() => setNewCodes(null)}>Done</Button>
          </div>
        </Stack>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <FormTextField
          label="Passkey name"
          field={register('name')}
          required
          fullWidth
          disabled={add.isPending}
          error={invalid !== undefined}
          helperText={invalid ?? 'For example, the device it is kept on: "Work laptop".'}
        />
        <Button type="submit" variant="contained" disabled={add.isPending} sx={{ flexShrink: 0, mt: { sm: 1 } }}>
          {add.isPending ? 'Waiting for your passkey...' : 'Add a passkey'}
        </Button>
      </Stack>
      {add.error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {passkeyProblem(add.error, ADD_FAILED)}
        </Alert>
      )}
    </Box>
  );
}

/** Removing a passkey asks for the account's password, as a thief holding only a session would not know it. */
function RemoveDialog({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const titleId = useId();
  const textId = useId();
  const [showPassword, setShowPassword] = useState(false);
  const { register, handleSubmit, setFocus, formState } = useContractForm(removePasskeyRequestSchema);
  const remove = useMutation({
    mutationFn: ({ password }: { password: string }) => removePasskey(passkey.id, { password }),
    onSuccess: () => {
      toast({ title: 'Passkey removed', description: `"${passkey.name}" can no longer sign in to your account.` });
      onClose();
    },
    onError: (error) => {
      if (error instanceof HttpError && error.code === PASSKEY_ERRORS.wrongPassword) setFocus('password');
    },
    onSettled: () => passkeysChanged(queryClient),
  });
  const invalid = firstProblem(formState.errors);
  const busy = remove.isPending;

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} aria-describedby={textId}>
      <Box component="form" noValidate onSubmit={handleSubmit((values) => remove.mutate(values))}>
        <DialogTitle id={titleId}>Remove {`"${passkey.name}"`}?</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>
            This passkey will no longer sign in to your account. Enter your password to remove it.
          </DialogContentText>
          <PasswordField
            label="Password"
            field={register('password')}
            visible={showPassword}
            onToggleVisible={() => setShowPassword((v) => !v)}
            disabled={busy}
            autoComplete="current-password"
          />
          {(invalid ?? remove.error) && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {invalid ?? (remove.error?.message || REMOVE_FAILED)}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={busy}>
            {busy ? 'Removing...' : 'Remove passkey'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function PasskeyList({ passkeys }: { passkeys: Passkey[] }) {
  const [removing, setRemoving] = useState<Passkey | null>(null);
  if (passkeys.length === 0) return <Typography variant="body2">You have no passkey yet.</Typography>;
  return (
    <>
      <Box component="ul" sx={listSx}>
        {passkeys.map((passkey) => (
          <ListRow
            key={passkey.id}
            title={
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                  {passkey.name}
                </Typography>
                {passkey.synced && <Chip label="Synced" size="small" variant="outlined" />}
              </Stack>
            }
            facts={[
              ['Added', formatMoment(passkey.createdAt)],
              ['Last used', passkey.lastUsedAt ? formatMoment(passkey.lastUsedAt) : 'Never used'],
            ]}
            action={
              <Button
                variant="outlined"
                color="error"
                size="small"
                aria-label={`Remove ${passkey.name}`}
                onClick={() => setRemoving(passkey)}
              >
                Remove
              </Button>
            }
          />
        ))}
      </Box>
      {removing && <RemoveDialog passkey={removing} onClose={() => setRemoving(null)} />}
    </>
  );
}

/**
 * The Account section's Passkeys panel (issue 40): the passkeys that sign in to a password account
 * without its password, each with when it was added and last used; adding one (named, then the
 * browser's ceremony) and removing one (with the password). Each change is mailed to the owner.
 * Accounts that sign in with Epic have no password, and no panel: Epic has its own.
 */
export function PasskeysPanel() {
  const password = usePasswordStatus();
  const hasPassword = password.data?.hasPassword === true;
  const { data, isPending, isError, error } = usePasskeys(hasPassword);

  if (password.data && !hasPassword) return null;
  return (
    <AccountPanel
      headingId={HEADING_ID}
      title="Passkeys"
      intro={
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          A passkey signs you in without your password: this device, your phone or a security key checks it is you with your fingerprint,
          face or PIN. We e-mail you whenever one is added or removed.
        </Typography>
      }
      loading={(password.isPending || (hasPassword && isPending)) && 'Loading your passkeys'}
      error={password.isError || isError ? error?.message || 'Unable to load your passkeys' : null}
    >
      {data && (
        <Stack spacing={3}>
          <PasskeyList passkeys={data} />
          <AddPasskeyForm />
        </Stack>
      )}
    </AccountPanel>
  );
}
