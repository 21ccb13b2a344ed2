import { Button, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { USER_QUERY_KEY, useCurrentUser } from '../authProvider/session';
import { PageCard } from '../ui/PageCard';
import { useToast } from '../ui/toast';
import { PasswordChangeForm } from './dashboard/account/PasswordChangeForm';

/**
 * What every signed-in page (the console's too) shows instead while the account still has the
 * one-time password `create-admin` printed (issue 27; src/portal/guards.tsx). Once the new password
 * holds, the current user is read again and the page the user asked for appears in its place.
 */
export function SetOwnPasswordScreen() {
  const { data: user } = useCurrentUser();
  const queryClient = useQueryClient();
  const toast = useToast();

  async function changed(message: string) {
    toast({ title: 'Password set', description: message });
    await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
  }

  return (
    <PageCard title="Set your own password">
      <Typography>
        {user?.email ? `The account ${user.email} was` : 'Your account was'} created with a one-time password. Before you go on, choose a
        password of your own: enter the one-time password as your current password.
      </Typography>
      <PasswordChangeForm submitLabel="Set my password" onChanged={changed} />
      <Stack direction="row">
        {/* The navigation bar's Logout link: a same-origin navigation that signs out at once. */}
        <Button href="/api/logout">Sign out</Button>
      </Stack>
    </PageCard>
  );
}
