import { Box, Button, FormControl, FormHelperText, InputLabel, Link, OutlinedInput, Typography } from '@mui/material';
import { useId, useState } from 'react';

interface Props {
  /** The server's question ("Enter the code from your authenticator app, …"). */
  prompt: string;
  busy: boolean;
  onSubmit: (code: string) => void;
  /** When the account has a passkey: answers the step with it instead of a code. */
  onPasskey?: () => void;
  onCancel: () => void;
}

/**
 * The sign-in's second step (issue 40): after the password of an account with two-step sign-in,
 * the authenticator app's six-digit code, or one of the recovery codes; or a passkey of the account.
 */
export function SecondFactorStep({ prompt, busy, onSubmit, onPasskey, onCancel }: Props) {
  const [code, setCode] = useState('');
  const id = useId();
  return (
    <Box
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy && code.trim()) onSubmit(code);
      }}
    >
      <Typography component="h2" variant="h6" gutterBottom>
        Two-step sign-in
      </Typography>
      <Typography color="text.secondary">{prompt}</Typography>
      {/* The parts of MUI's TextField, not TextField itself: it would bring Select and Menu into /login (FormTextField). */}
      <FormControl variant="outlined" required fullWidth margin="normal" disabled={busy}>
        <InputLabel htmlFor={id}>Authentication code</InputLabel>
        <OutlinedInput
          id={id}
          label="Authentication code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoFocus
          autoComplete="one-time-code"
          aria-describedby={`${id}-help`}
          inputProps={{ maxLength: 64, spellCheck: false, autoCapitalize: 'none' }}
        />
        <FormHelperText id={`${id}-help`}>Lost your phone? Enter one of your recovery codes instead.</FormHelperText>
      </FormControl>
      <Button type="submit" variant="contained" fullWidth size="large" disabled={busy} sx={{ mt: 2 }}>
        {busy ? 'Processing...' : 'Verify'}
      </Button>
      {onPasskey && (
        <Button variant="outlined" fullWidth size="large" disabled={busy} sx={{ mt: 2 }} onClick={onPasskey}>
          Use a passkey
        </Button>
      )}
      <Typography variant="body2" sx={{ mt: 2, textAlign: 'center' }}>
        <Link component="button" type="button" variant="body2" disabled={busy} onClick={onCancel}>
          Back to sign-in
        </Link>
      </Typography>
    </Box>
  );
}
