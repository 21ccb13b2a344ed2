import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { BusyLine, PageCard } from '../../ui/PageCard';
import { INTERNAL_CALLBACK_URL } from '../../api/auth';
import { useToast } from '../../ui/toast';
import { assignLocation } from '../../browser';
import { clientFromSearch } from './rules';
import { useEmailVerification, type VerificationPhase } from './useEmailVerification';

function StatusPanel({ phase, email, failure }: { phase: VerificationPhase; email: string; failure: string | null }) {
  switch (phase) {
    case 'sending':
      return <BusyLine>Sending a verification email to {email}...</BusyLine>;
    case 'waiting':
      return <BusyLine>Waiting for you to open the link we sent to {email}...</BusyLine>;
    case 'verified':
      return <Alert severity="success">Email verified! Signing you in...</Alert>;
    case 'expired':
      return <Alert severity="warning">Verification Expired: the link has expired. Resend the email to get a new one.</Alert>;
    case 'failed':
      return <Alert severity="error">{failure}</Alert>;
  }
}

function VerificationScreen({ email, onBack }: { email: string; onBack: () => void }) {
  const toast = useToast();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const client = clientFromSearch(searchParams.get('client'));
  const verification = useEmailVerification(email, {
    sent: () => toast({ title: 'Email Sent', description: `We sent a verification link to ${email}.` }),
    sendFailed: (message) => {
      toast({ title: 'Failed to Send Verification', description: message, variant: 'destructive' });
      navigate(`/epic_account_link?client=${client}`);
    },
    verified: () => {
      toast({ title: 'Email Verified!', description: 'Your Epic account has been successfully linked.' });
      assignLocation(INTERNAL_CALLBACK_URL);
    },
    expired: () =>
      toast({
        title: 'Verification Expired',
        description: 'The verification link has expired. Please resend the email.',
        variant: 'destructive',
      }),
    resent: () => toast({ title: 'Email Resent', description: `We sent a new verification link to ${email}.` }),
    resendFailed: (message) => toast({ title: 'Resend Failed', description: message, variant: 'destructive' }),
  });
  const { phase, failure, secondsLeft, resending, canResend, resend } = verification;

  return (
    <>
      <Typography color="text.secondary">
        Open the link in the email we sent to <strong>{email}</strong> to link it to your Epic account. This page moves on by itself once
        your email is verified. The link works for 15 minutes.
      </Typography>
      <Box role="status" aria-live="polite" sx={{ p: 2, borderRadius: 1, bgcolor: 'action.hover' }}>
        <StatusPanel phase={phase} email={email} failure={failure} />
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="contained" disabled={!canResend} onClick={resend}>
          {resending ? 'Sending...' : secondsLeft > 0 ? `Resend Email (${secondsLeft}s)` : 'Resend Email'}
        </Button>
        <Button variant="outlined" onClick={onBack}>
          Back to Account Linking
        </Button>
      </Stack>
    </>
  );
}

/** /email-verification?email=… (and -preview): waits for the link in the mail to be opened (§2, §4). */
export function EmailVerificationPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const email = searchParams.get('email')?.trim() ?? '';
  const client = clientFromSearch(searchParams.get('client'));
  const back = () => navigate(`/epic_account_link?client=${client}`);

  return (
    <PageCard title="Check Your Email">
      {email ? (
        <VerificationScreen key={email} email={email} onBack={back} />
      ) : (
        <>
          <Alert severity="warning">This page needs the email address to verify. Go back and enter it again.</Alert>
          <Box>
            <Button variant="outlined" onClick={back}>
              Back to Account Linking
            </Button>
          </Box>
        </>
      )}
    </PageCard>
  );
}
