import { Box, Button, Checkbox, FormControlLabel } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { PASSWORD_CHANGE_ERRORS, SIGN_OUT_PLUGIN_DEFAULT, SIGN_OUT_PLUGIN_LABEL } from '../../../../contract/accountPassword';
import { changePassword } from '../../../api/accountPassword';
import { HttpError } from '../../../api/client';
import { useToast } from '../../../ui/toast';
import { useContractForm, useProblemToast } from '../../forms/contractForm';
import { PasswordField } from '../../login/PasswordField';
import { PASSWORD_CHANGE_FORM, type PasswordChangeFormValues } from './passwordChangeForm';

export const PASSWORD_CHANGE_FAILED = 'Failed to change your password';

/**
 * Current password, new password and its confirmation (issue 27): the Password panel's form, and
 * the one an account with a one-time password must fill in first. A box, checked to start with,
 * also signs the Sage plugin out (issue 36: a new license token). `onChanged` gets the server's
 * words once the new password holds.
 */
export function PasswordChangeForm({ submitLabel, onChanged }: { submitLabel: string; onChanged: (message: string) => unknown }) {
  const { register, handleSubmit, reset, setFocus } = useContractForm<PasswordChangeFormValues, PasswordChangeFormValues>(
    PASSWORD_CHANGE_FORM,
  );
  const [visible, setVisible] = useState(false);
  const [signOutPlugin, setSignOutPlugin] = useState(SIGN_OUT_PLUGIN_DEFAULT);
  const toast = useToast();
  const showProblem = useProblemToast();
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: async ({ message }) => {
      reset();
      setVisible(false);
      setSignOutPlugin(SIGN_OUT_PLUGIN_DEFAULT);
      await onChanged(message);
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message || PASSWORD_CHANGE_FAILED, variant: 'destructive' });
      // The one field the user can put right.
      if (error instanceof HttpError && error.code === PASSWORD_CHANGE_ERRORS.wrongPassword) setFocus('currentPassword');
    },
  });
  const busy = change.isPending;

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) => {
    if (!busy) change.mutate({ currentPassword, newPassword, signOutPlugin });
  }, showProblem);

  return (
    <Box component="form" onSubmit={onSubmit}>
      <PasswordField
        label="Current password"
        field={register('currentPassword')}
        visible={visible}
        disabled={busy}
        autoComplete="current-password"
      />
      <PasswordField
        label="New password"
        field={register('newPassword')}
        visible={visible}
        onToggleVisible={() => setVisible((v) => !v)}
        disabled={busy}
        autoComplete="new-password"
      />
      <PasswordField
        label="Confirm new password"
        field={register('confirmPassword')}
        visible={visible}
        disabled={busy}
        autoComplete="new-password"
      />
      <FormControlLabel
        control={<Checkbox checked={signOutPlugin} onChange={(event) => setSignOutPlugin(event.target.checked)} disabled={busy} />}
        label={SIGN_OUT_PLUGIN_LABEL}
        sx={{ display: 'flex', mt: 1 }}
      />
      <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 2 }}>
        {busy ? 'Processing...' : submitLabel}
      </Button>
    </Box>
  );
}
