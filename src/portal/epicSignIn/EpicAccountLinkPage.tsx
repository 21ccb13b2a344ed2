import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { linkEmailSchema } from '../../../contract/epic';
import { cancelEpicLink, checkEmailExists, linkEpicAccount } from '../../api/epic';
import { useRefreshAuthStatus } from '../../authProvider/authStatus';
import { PageCard } from '../../ui/PageCard';
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
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const navigate = useNavigate();
  const followNext = useFollowNext();
  const refreshAuthStatus = useRefreshAuthStatus();
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const emailInput = useRef<HTMLInputElement>(null);
  useEffect(() => () => clearTimeout(pending.current), []);

  const showError = (description: string) => toast({ title: 'Error', description, variant: 'destructive' });

  async function onContinue(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const parsed = linkEmailSchema.safeParse(email);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Invalid email address');
      emailInput.current?.focus();
      return;
    }
    setProblem(null);
    setBusy(true);
    const address = parsed.data;
    const exists = await checkEmailExists(address);
    if (!exists.ok || exists.data.exists) {
      setBusy(false);
      if (exists.ok) toast({ ...EMAIL_ALREADY_EXISTS, variant: 'destructive' });
      else showError(exists.message || FAILED_TO_LINK);
      return;
    }
    const linked = await linkEpicAccount(address);
    if (!linked.ok) {
      setBusy(false);
      if (linked.status === 409) toast({ ...EMAIL_ALREADY_EXISTS, variant: 'destructive' });
      else showError(linked.message || FAILED_TO_LINK);
      return;
    }
    if (linked.data.requiresVerification) {
      forgetVerificationSent(address);
      toast({ title: 'Email Verification Required', description: 'Please check your email for a verification code.' });
      followNext(linked.data.next, `/email-verification?email=${encodeURIComponent(address)}&client=${client}`);
      return;
    }
    pending.current = setTimeout(() => followNext(linked.data.next, `/login_completed?client=${client}`), LINKED_REDIRECT_DELAY_MS);
  }

  async function onCancel() {
    setBusy(true);
    await cancelEpicLink();
    await refreshAuthStatus();
    navigate(`/login_completed?client=${client}`);
  }

  return (
    <PageCard title="One more thing..." width="xs">
      <Typography color="text.secondary">
        Your Epic Games account is new to Sage. Enter the email address to use for your Sage account: we will send a
        link to it to make sure it is yours.
      </Typography>
      <Box component="form" noValidate onSubmit={onContinue}>
        <TextField
          label="Email Address"
          name="email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={problem !== null}
          helperText={problem ?? ' '}
          required
          fullWidth
          margin="normal"
          autoComplete="email"
          autoFocus
          inputRef={emailInput}
          disabled={busy}
        />
        <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" fullWidth disabled={busy}>
            {busy ? 'Processing...' : 'Continue'}
          </Button>
          <Button type="button" variant="outlined" fullWidth disabled={busy} onClick={() => void onCancel()}>
            Cancel
          </Button>
        </Stack>
      </Box>
    </PageCard>
  );
}
