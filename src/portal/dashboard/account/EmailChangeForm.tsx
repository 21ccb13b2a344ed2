import { Box, Button } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  EMAIL_CHANGE_ERRORS,
  emailChangeRequestSchema,
  emailChangeWithPasswordSchema,
  type AccountEmail,
} from '../../../../contract/accountEmail';
import { ACCOUNT_EMAIL_QUERY_KEY, requestEmailChange } from '../../../api/accountEmail';
import { HttpError } from '../../../api/client';
import { useToast } from '../../../ui/toast';
import { FormTextField } from '../../forms/FormTextField';
import { useContractForm, useProblemToast } from '../../forms/contractForm';
import { PasswordField } from '../../login/PasswordField';

export const EMAIL_CHANGE_FAILED = 'Failed to send the link';

interface EmailChangeFormValues {
  newEmail: string;
  currentPassword?: string;
}

/** The refusals a field of the form can put right, and that field. */
const FIELD_OF: Record<string, keyof EmailChangeFormValues> = {
  [EMAIL_CHANGE_ERRORS.sameEmail]: 'newEmail',
  [EMAIL_CHANGE_ERRORS.emailTaken]: 'newEmail',
  [EMAIL_CHANGE_ERRORS.wrongPassword]: 'currentPassword',
  [EMAIL_CHANGE_ERRORS.passwordRequired]: 'currentPassword',
};

/**
 * The new address, and the current password of an account that has one (issue 27): the request's
 * own rules (contract/accountEmail.ts). A link goes to the new address; the panel shows it waiting.
 */
export function EmailChangeForm({ withPassword }: { withPassword: boolean }) {
  const { register, handleSubmit, reset, setFocus } = useContractForm<EmailChangeFormValues, EmailChangeFormValues>(
    withPassword ? emailChangeWithPasswordSchema : emailChangeRequestSchema,
  );
  const [visible, setVisible] = useState(false);
  const toast = useToast();
  const showProblem = useProblemToast();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: requestEmailChange,
    onSuccess: ({ message, pending }) => {
      reset();
      setVisible(false);
      queryClient.setQueryData<AccountEmail>(ACCOUNT_EMAIL_QUERY_KEY, (account) => (account ? { ...account, pending } : account));
      toast({ title: 'Check your new inbox', description: message });
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message || EMAIL_CHANGE_FAILED, variant: 'destructive' });
      const code = error instanceof HttpError ? error.code : undefined;
      const field = code ? FIELD_OF[code] : undefined;
      if (field) setFocus(field);
      // The sign-in grew too old while the page was open: the panel offers signing in again.
      if (code === EMAIL_CHANGE_ERRORS.signInAgain) void queryClient.invalidateQueries({ queryKey: ACCOUNT_EMAIL_QUERY_KEY });
    },
  });
  const busy = change.isPending;

  const onSubmit = handleSubmit(({ newEmail, currentPassword }) => {
    if (!busy) change.mutate({ newEmail, ...(withPassword ? { currentPassword } : {}) });
  }, showProblem);

  return (
    <Box component="form" onSubmit={onSubmit}>
      <FormTextField
        label="New e-mail"
        field={register('newEmail')}
        type="email"
        required
        fullWidth
        margin="normal"
        disabled={busy}
        autoComplete="email"
      />
      {withPassword && (
        <PasswordField
          label="Current password"
          field={register('currentPassword')}
          visible={visible}
          onToggleVisible={() => setVisible((v) => !v)}
          disabled={busy}
          autoComplete="current-password"
        />
      )}
      <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 2 }}>
        {busy ? 'Sending...' : 'Send link'}
      </Button>
    </Box>
  );
}
