import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { emailRequestSchema, type EmailRequest } from '../../../contract/epic';
import { HttpError } from '../../api/client';
import { cancelEpicLink, checkEmailExists, linkEpicAccount } from '../../api/epic';
import { fetchEpicLinkStatus } from '../../api/epicLinking';
import { useAuthStatus, useRefreshAuthStatus } from '../../authProvider/authStatus';
import { LinkSignedInAccount, SignInToLink } from './LinkExistingAccount';
import { PageCard } from '../../ui/PageCard';
import { useContractForm } from '../forms/contractForm';
import { FormTextField } from '../forms/FormTextField';
import { useToast } from '../../ui/toast';
import { useFollowNext } from './useFollowNext';
import { clientFromSearch } from './rules';
import { forgetVerificationSent } from './useEmailVerification';

export const EMAIL_ALREADY_EXISTS = {
  title: 'Email Already Exists',
  description:
    'An account with this email already exists. Please use a different email address or contact support if you need help accessing your existing account.',
};
export const FAILED_TO_LINK = 'Failed to link Epic account';
/** §4: without verification the page moves on after this pause. */
export const LINKED_REDIRECT_DELAY_MS = 100;

/** /epic_account_link: a new Epic account links an e-mail before its first sign-in (§2, §4, §5). */
export function EpicAccountLinkPage() {
  const [searchParams] = useSearchParams();
  const client = clientFromSearch(searchParams.get('client'));
  // The form is the link request itself: its e-mail rule is the server's (§5).
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useContractForm(emailRequestSchema);
  const problem = errors.email?.message;
  const toast = useToast();
  const navigate = useNavigate();
  const followNext = useFollowNext();
  const refreshAuthStatus = useRefreshAuthStatus();
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A browser signed in to an account without Epic is offered that account first (decision 047).
  const status = useAuthStatus();
  const signedInEmail = status.data?.authenticated ? (status.data.user?.email ?? null) : null;
  const signedInEpic = useQuery({ queryKey: ['account', 'epic'], queryFn: fetchEpicLinkStatus, enabled: signedInEmail !== null });
  const [useAnother, setUseAnother] = useState(false);
  const [existing, setExisting] = useState<string | null>(null);
  const linkedFallback = client === 'ue' ? '/login_completed?client=ue' : '/dashboard#account';
  useEffect(() => () => clearTimeout(pending.current), []);

  const link = useMutation({
    mutationFn: async (address: string) => {
      const { exists } = await checkEmailExists(address);
      // Taken already: refused as the link itself would be (409), without asking it.
      setExisting(exists ? address : null);
      if (exists) throw new HttpError({ status: 409, message: EMAIL_ALREADY_EXISTS.description });
      return linkEpicAccount(address);
    },
    onSuccess: ({ requiresVerification, next }, address) => {
      if (requiresVerification) {
        forgetVerificationSent(address);
        toast({ title: 'Email Verification Required', description: 'Please check your email for a verification code.' });
        followNext(next, `/email-verification?email=${encodeURIComponent(address)}&client=${client}`);
        return;
      }
      pending.current = setTimeout(() => followNext(next, `/login_completed?client=${client}`), LINKED_REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      if (error instanceof HttpError && error.status === 409) toast({ ...EMAIL_ALREADY_EXISTS, variant: 'destructive' });
      else toast({ title: 'Error', description: error.message || FAILED_TO_LINK, variant: 'destructive' });
    },
  });

  const cancel = useMutation({
    // Abandoned either way: a failed cancel leaves nothing the next page needs.
    mutationFn: () => cancelEpicLink().catch(() => undefined),
    onSuccess: async () => {
      await refreshAuthStatus();
      navigate(`/login_completed?client=${client}`);
    },
  });

  function onContinue({ email: address }: EmailRequest) {
    if (!busy) link.mutate(address);
  }

  // Once linked or cancelled the page is on its way elsewhere: it stays busy until it has gone.
  const busy = link.isPending || link.isSuccess || !cancel.isIdle;

  if (signedInEmail !== null && signedInEpic.data?.linked === false && !useAnother) {
    return (
      <PageCard title="One more thing..." width="xs">
        <LinkSignedInAccount email={signedInEmail} fallback={linkedFallback} onUseAnother={() => setUseAnother(true)} />
      </PageCard>
    );
  }

  return (
    <PageCard title="One more thing..." width="xs">
      <Typography color="text.secondary">
        Your Epic Games account is new to Sage. Enter the email address to use for your Sage account: we will send a link to it to make sure
        it is yours.
      </Typography>
      <Box component="form" noValidate onSubmit={(event) => void handleSubmit(onContinue)(event)}>
        <FormTextField
          label="Email Address"
          field={register('email')}
          type="email"
          error={problem !== undefined}
          helperText={problem ?? ' '}
          required
          fullWidth
          margin="normal"
          autoComplete="email"
          autoFocus
          disabled={busy}
        />
        <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" fullWidth disabled={busy}>
            {busy ? 'Processing...' : 'Continue'}
          </Button>
          <Button type="button" variant="outlined" fullWidth disabled={busy} onClick={() => cancel.mutate()}>
            Cancel
          </Button>
        </Stack>
      </Box>
      {existing !== null && <SignInToLink email={existing} fallback={linkedFallback} />}
    </PageCard>
  );
}
