import { Box, Button, FormControlLabel, Radio, RadioGroup, TextField } from '@mui/material';
import { useState } from 'react';
import type { OwnerProof } from '../../../../contract/secondFactor';

/**
 * Proof that it is the owner, for a change of two-step sign-in (issue 40): the account's password,
 * or a fresh code from the app (or a recovery code), each used up by the change.
 */
export function OwnerProofForm({
  submitLabel,
  busy,
  onSubmit,
}: {
  submitLabel: string;
  busy: boolean;
  onSubmit: (proof: OwnerProof) => void;
}) {
  const [kind, setKind] = useState<'password' | 'code'>('password');
  const [value, setValue] = useState('');
  return (
    <Box
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (busy || !value) return;
        onSubmit(kind === 'password' ? { password: value } : { code: value.trim() });
        setValue('');
      }}
    >
      <RadioGroup
        row
        aria-label={`${submitLabel}: confirm with`}
        value={kind}
        onChange={(event) => setKind(event.target.value === 'code' ? 'code' : 'password')}
      >
        <FormControlLabel value="password" control={<Radio />} label="My password" disabled={busy} />
        <FormControlLabel value="code" control={<Radio />} label="An authentication or recovery code" disabled={busy} />
      </RadioGroup>
      <TextField
        label={kind === 'password' ? 'Password' : 'Authentication code'}
        type={kind === 'password' ? 'password' : 'text'}
        autoComplete={kind === 'password' ? 'current-password' : 'one-time-code'}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        required
        margin="dense"
        disabled={busy}
      />
      <Box sx={{ mt: 1 }}>
        <Button type="submit" variant="outlined" disabled={busy}>
          {busy ? 'Processing...' : submitLabel}
        </Button>
      </Box>
    </Box>
  );
}
