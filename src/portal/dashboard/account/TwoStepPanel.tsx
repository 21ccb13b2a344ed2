import { Alert, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { OwnerProof } from '../../../../contract/secondFactor';
import { regenerateRecoveryCodes, removeTotp, SECOND_FACTOR_QUERY_KEY, useSecondFactorStatus } from '../../../api/secondFactor';
import { useToast } from '../../../ui/toast';
import { AccountPanel } from './AccountPanel';
import { OwnerProofForm } from './OwnerProofForm';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetup } from './TotpSetup';

const HEADING_ID = 'account-two-step-heading';

/**
 * The Account section's Two-step sign-in panel (issue 40): an account with a password turns on an
 * authenticator app (with ten recovery codes, shown once), turns it off, or makes new recovery
 * codes, with the password or a fresh code. Each change mails the owner. Epic-only accounts have
 * Epic's own second factor, and no panel.
 */
export function TwoStepPanel() {
  const { data, isPending, isError } = useSecondFactorStatus();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [action, setAction] = useState<'off' | 'regenerate' | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const [setupOpen, setSetupOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY });
  const showError = (error: Error) => toast({ title: 'Error', description: error.message, variant: 'destructive' });

  const turnOff = useMutation({
    mutationFn: removeTotp,
    onSuccess: async ({ message }) => {
      setAction(null);
      toast({ title: 'Two-step sign-in is off', description: message });
      await refresh();
    },
    onError: showError,
  });
  const regenerate = useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: async ({ recoveryCodes }) => {
      setAction(null);
      setNewCodes(recoveryCodes);
      await refresh();
    },
    onError: showError,
  });

  /** New recovery codes, shown once, and the button (beside `more`) and form that make them. */
  const recoveryControls = (more?: ReactNode) => (
    <>
      {newCodes && (
        <Stack spacing={1}>
          <RecoveryCodes codes={newCodes} />
          <div>
            <Button onClick={() => setNewCodes(null)}>Done</Button>
          </div>
        </Stack>
      )}
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        <Button
          variant={action === 'regenerate' ? 'contained' : 'outlined'}
          onClick={() => setAction(action === 'regenerate' ? null : 'regenerate')}
        >
          New recovery codes
        </Button>
        {more}
      </Stack>
      {action === 'regenerate' && (
        <OwnerProofForm
          submitLabel="Make new recovery codes"
          busy={regenerate.isPending}
          onSubmit={(proof: OwnerProof) => regenerate.mutate(proof)}
        />
      )}
    </>
  );
  const codesLeft = (left: number) => `${left} of your recovery codes ${left === 1 ? 'is' : 'are'} left.`;

  if (data && !data.hasPassword) return null;
  const enrolled = data?.totp.enrolled ?? false;
  return (
    <AccountPanel
      headingId={HEADING_ID}
      title="Two-step sign-in"
      loading={isPending && 'Loading your two-step sign-in settings'}
      error={isError ? 'Unable to load your two-step sign-in settings' : null}
    >
      {data && !enrolled && !setupOpen && (
        <Stack spacing={2} sx={{ mb: 2 }}>
          <Typography color="text.secondary">
            Signing in with your password also asks for a code from an authenticator app on your phone, so a stolen password alone cannot
            get in.
          </Typography>
          {data.requiredForStaff && <Alert severity="info">Staff accounts need two-step sign-in to open the console.</Alert>}
        </Stack>
      )}
      {/* A passkey is a second factor too (decision 049): its recovery codes are made here as the app's are. */}
      {data && !enrolled && !setupOpen && data.recoveryCodesLeft > 0 && (
        <Stack spacing={2} sx={{ mb: 2 }}>
          <Typography>Your passkeys are your second factor. {codesLeft(data.recoveryCodesLeft)}</Typography>
          {recoveryControls()}
        </Stack>
      )}
      {/* One place for the setup, so it stays (with its recovery codes) once the status says "on". */}
      {data && (!enrolled || setupOpen) && (
        <TotpSetup doneLabel="Done" onConfirmed={() => setSetupOpen(true)} onDone={() => setSetupOpen(false)} />
      )}
      {data && enrolled && !setupOpen && (
        <Stack spacing={2}>
          <Typography>
            On with an authenticator app
            {data.totp.since !== null && ` since ${new Date(data.totp.since).toLocaleDateString()}`}. {codesLeft(data.recoveryCodesLeft)}
          </Typography>
          {recoveryControls(
            <Button
              color="error"
              variant={action === 'off' ? 'contained' : 'outlined'}
              onClick={() => setAction(action === 'off' ? null : 'off')}
            >
              Turn off two-step sign-in
            </Button>,
          )}
          {action === 'off' && (
            <OwnerProofForm submitLabel="Turn off" busy={turnOff.isPending} onSubmit={(proof: OwnerProof) => turnOff.mutate(proof)} />
          )}
        </Stack>
      )}
    </AccountPanel>
  );
}
