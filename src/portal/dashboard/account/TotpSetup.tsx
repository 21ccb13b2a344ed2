import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TotpEnrolment } from '../../../../contract/secondFactor';
import { confirmTotp, SECOND_FACTOR_QUERY_KEY, startTotp } from '../../../api/secondFactor';
import { useToast } from '../../../ui/toast';
import { RecoveryCodes } from './RecoveryCodes';

/** The QR code of the otpauth URI, drawn in the browser: the secret never leaves it for an image service. */
function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // Its own chunk: only a setup in progress needs it, not every page that loads the dashboard.
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(uri, { margin: 1, width: 200 }))
      .then((url) => live && setSrc(url))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? <Box component="img" src={src} alt="QR code to scan with your authenticator app" sx={{ width: 200, height: 200 }} /> : null;
}

/**
 * Turning two-step sign-in on (issue 40), step by step: a QR code and the key as text for an
 * authenticator app, the app's code to confirm, then the ten recovery codes, once. Used by the
 * Account section and by the console's setup for staff. `onDone`: after the codes were seen.
 */
export function TotpSetup({ doneLabel, onDone, onConfirmed }: { doneLabel: string; onDone: () => void; onConfirmed?: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const showError = (error: Error) => toast({ title: 'Error', description: error.message, variant: 'destructive' });

  const start = useMutation({ mutationFn: startTotp, onSuccess: setEnrolment, onError: showError });
  const confirm = useMutation({
    mutationFn: confirmTotp,
    onSuccess: async ({ recoveryCodes: codes }) => {
      setRecoveryCodes(codes);
      onConfirmed?.();
      await queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY });
    },
    onError: showError,
  });

  async function copyKey(secret: string) {
    try {
      await navigator.clipboard.writeText(secret);
      toast({ title: 'Copied', description: 'The setup key is on the clipboard.' });
    } catch {
      toast({ title: 'Error', description: 'Copying failed: select the key and copy it yourself.', variant: 'destructive' });
    }
  }

  if (recoveryCodes) {
    return (
      <Stack spacing={2}>
        <Alert severity="success">Two-step sign-in is on.</Alert>
        <RecoveryCodes codes={recoveryCodes} />
        <Box>
          <Button variant="contained" onClick={onDone}>
            {doneLabel}
          </Button>
        </Box>
      </Stack>
    );
  }

  if (!enrolment) {
    return (
      <Box>
        <Button variant="contained" disabled={start.isPending} onClick={() => start.mutate()}>
          {start.isPending ? 'Processing...' : 'Set up authenticator app'}
        </Button>
      </Box>
    );
  }

  return (
    <Stack spacing={2}>
      <Typography>
        1. Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Authy, …).
      </Typography>
      <QrCode uri={enrolment.otpauthUri} />
      <Typography>Can't scan it? Enter this setup key in the app instead:</Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Box component="code" aria-label="Setup key" sx={{ fontFamily: 'monospace', fontSize: '1rem', wordBreak: 'break-all' }}>
          {enrolment.secret}
        </Box>
        <Button size="small" onClick={() => void copyKey(enrolment.secret)}>
          Copy key
        </Button>
      </Stack>
      <Box
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!confirm.isPending && code.trim()) confirm.mutate(code.trim());
        }}
      >
        <Typography>2. Enter the six-digit code the app shows.</Typography>
        <TextField
          label="Authentication code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          required
          margin="normal"
          autoComplete="one-time-code"
          disabled={confirm.isPending}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={confirm.isPending}>
            {confirm.isPending ? 'Processing...' : 'Turn on two-step sign-in'}
          </Button>
        </Box>
      </Box>
    </Stack>
  );
}
