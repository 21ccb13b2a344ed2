import { Alert, Button, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { AccountEmail } from '../../../../contract/accountEmail';
import { RECENT_SIGN_IN_MINUTES } from '../../../../contract/recentSignIn';
import { epicSignInUrl } from '../../../api/auth';
import { useAccountEmail } from '../../../api/accountEmail';
import { EmailChangeForm } from './EmailChangeForm';
import { pendingText } from './emailChangeRules';
import { useEmailChangeNotice } from './useEmailChangeNotice';
import { Field } from '../Field';

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

  let body: ReactNode;
  if (isPending) {
    body = (
      <Stack role="status" aria-label="Loading your e-mail settings" aria-busy spacing={1}>
        <Skeleton variant="text" width="60%" />
        <Skeleton variant="rounded" height={56} />
      </Stack>
    );
  } else if (isError || !account) {
    body = <Alert severity="error">Unable to load your e-mail settings</Alert>;
  } else {
    body = (
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
    );
  }

  return (
    <Card variant="outlined" component="section" aria-labelledby={HEADING_ID}>
      <CardContent>
        <Typography id={HEADING_ID} component="h2" variant="h6" gutterBottom>
          E-mail
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
