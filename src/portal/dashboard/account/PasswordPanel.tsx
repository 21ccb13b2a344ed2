import { Alert, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { usePasswordStatus } from '../../../api/accountPassword';
import { useToast } from '../../../ui/toast';
import { PasswordChangeForm } from './PasswordChangeForm';

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
    <Card variant="outlined" component="section" aria-labelledby={HEADING_ID}>
      <CardContent>
        <Typography id={HEADING_ID} component="h2" variant="h6" gutterBottom>
          Password
        </Typography>
        {isPending ? (
          <Stack role="status" aria-label="Loading your password settings" aria-busy spacing={1}>
            <Skeleton variant="text" width="60%" />
            <Skeleton variant="rounded" height={56} />
          </Stack>
        ) : isError ? (
          <Alert severity="error">Unable to load your password settings</Alert>
        ) : (
          <>
            <Typography color="text.secondary">
              Change the password you sign in with. Every other browser signed in to your account is signed out, and we e-mail you to say
              so.
            </Typography>
            <PasswordChangeForm
              submitLabel="Change password"
              onChanged={(message) => toast({ title: 'Password changed', description: message })}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}
