import { Typography } from '@mui/material';
import { usePasswordStatus } from '../../../api/accountPassword';
import { useToast } from '../../../ui/toast';
import { PasswordChangeForm } from './PasswordChangeForm';
import { AccountPanel } from './AccountPanel';

const HEADING_ID = 'account-password-heading';

/**
 * The Account section's Password panel (issue 27): an account that signs in with a password
 * changes it here, with the current one. The other browsers signed in to it are signed out, and a
 * mail tells the owner. Accounts that sign in with Epic only have no password, and no panel.
 */
export function PasswordPanel() {
  const { data, isPending, isError } = usePasswordStatus();
  const toast = useToast();

  if (data && !data.hasPassword) return null;
  return (
    <AccountPanel
      headingId={HEADING_ID}
      title="Password"
      loading={isPending && 'Loading your password settings'}
      error={isError ? 'Unable to load your password settings' : null}
    >
      <Typography color="text.secondary">
        Change the password you sign in with. Every other browser signed in to your account is signed out, and we e-mail you to say so.
      </Typography>
      <PasswordChangeForm
        submitLabel="Change password"
        onChanged={(message) => toast({ title: 'Password changed', description: message })}
      />
    </AccountPanel>
  );
}
