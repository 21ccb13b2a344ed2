import { Alert, Button, Chip, Stack, Typography } from '@mui/material';
import type { AccountEmail } from '../../../../contract/accountEmail';
import { RECENT_SIGN_IN_MINUTES } from '../../../../contract/recentSignIn';
import { epicSignInUrl } from '../../../api/auth';
import { useAccountEmail } from '../../../api/accountEmail';
import { EmailChangeForm } from './EmailChangeForm';
import { pendingText } from './emailChangeRules';
import { useEmailChangeNotice } from './useEmailChangeNotice';
import { Field } from '../Field';
import { AccountPanel } from './AccountPanel';

const HEADING_ID = 'account-email-heading';

function Details({ account }: { account: AccountEmail }) {
  return (
    <Stack component="dl" spacing={2} sx={{ m: 0 }}>
      <Field label="Current e-mail" labelWidth={200}>
        {account.email ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
            <Typography>{account.email}</Typography>
            <Chip size="small" label={account.verified ? 'Verified' : 'Not verified'} color={account.verified ? 'success' : 'default'} />
          </Stack>
        ) : (
          <Typography>No e-mail yet</Typography>
        )}
      </Field>
      {account.epicDisplayName !== null && (
        <Field label="Linked Epic account" labelWidth={200}>
          <Typography>{account.epicDisplayName}</Typography>
        </Field>
      )}
    </Stack>
  );
}

/** What a change takes: the form, or for an Epic account whose sign-in is too old, signing in again. */
function ChangeArea({ account }: { account: AccountEmail }) {
  if (account.proof === 'sign_in_again') {
    return (
      <Alert
        severity="info"
        action={
          <Button color="inherit" size="small" href={epicSignInUrl('web')}>
            Sign in with Epic again
          </Button>
        }
      >
        To change your e-mail, sign in with Epic again first: your last sign-in here was more than {RECENT_SIGN_IN_MINUTES} minutes ago.
      </Alert>
    );
  }
  // Keyed by what it asks for: the form's rules are chosen when it mounts.
  return <EmailChangeForm key={account.proof} withPassword={account.proof === 'current_password'} />;
}

/**
 * The Account section's E-mail panel (issue 27): the account's address and whether it is verified,
 * the linked Epic account, and changing the address through a link sent to the new one. The old
 * address stays the account's until the link is opened, and is told of the change.
 */
export function EmailPanel() {
  const { data: account, isPending, isError } = useAccountEmail();
  useEmailChangeNotice();

  return (
    <AccountPanel
      headingId={HEADING_ID}
      title="E-mail"
      loading={isPending && 'Loading your e-mail settings'}
      error={isError || !account ? 'Unable to load your e-mail settings' : null}
    >
      {account && (
        <Stack spacing={2}>
          <Details account={account} />
          {account.pending && (
            <Alert severity="info" role="status">
              {pendingText(account.pending)}
            </Alert>
          )}
          <Typography color="text.secondary">
            To change it, we send a link to the new address. Your e-mail changes when you open it, and we tell your current address.
          </Typography>
          <ChangeArea account={account} />
        </Stack>
      )}
    </AccountPanel>
  );
}
