import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { LinkedResponse } from '../../../contract/epicLinking';
import { linkByEmail, linkSignedIn, linkSignIn } from '../../api/epicLinking';
import { useRefreshAuthStatus } from '../../authProvider/authStatus';
import { useFollowNext } from './useFollowNext';

/** After a link the session is new: the pages read it afresh, then go where the server says. */
function useLinked(fallback: string) {
  const followNext = useFollowNext();
  const refreshAuthStatus = useRefreshAuthStatus();
  return async ({ next }: LinkedResponse) => {
    await refreshAuthStatus();
    followNext(next, fallback);
  };
}

function PasswordField({ id, value, onChange, error }: { id: string; value: string; onChange: (v: string) => void; error?: string }) {
  return (
    <TextField
      id={id}
      label="Password"
      type="password"
      autoComplete="current-password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error !== undefined}
      helperText={error ?? ' '}
      required
      fullWidth
      margin="normal"
    />
  );
}

/**
 * The link page for a browser signed in to an account without Epic (decision 047): one click,
 * after its password, links the Epic account to it; "Use another email address" leads to the form.
 */
export function LinkSignedInAccount({ email, fallback, onUseAnother }: { email: string; fallback: string; onUseAnother: () => void }) {
  const [password, setPassword] = useState('');
  const linked = useLinked(fallback);
  const link = useMutation({ mutationFn: () => linkSignedIn(password), onSuccess: linked });
  const busy = link.isPending || link.isSuccess;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (password && !busy) link.mutate();
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Link to the account you're signed in as">
      <Typography color="text.secondary">
        You are signed in to Sage as {email}. Enter its password to link your Epic Games account to it.
      </Typography>
      <PasswordField
        id="link-signed-in-password"
        value={password}
        onChange={setPassword}
        error={link.isError ? link.error.message : undefined}
      />
      <Stack spacing={1} sx={{ mt: 1 }}>
        <Button type="submit" variant="contained" fullWidth disabled={busy || !password}>
          {busy ? 'Linking...' : `Link to the account you're signed in as (${email})`}
        </Button>
        <Button type="button" variant="text" fullWidth disabled={busy} onClick={onUseAnother}>
          Use another email address
        </Button>
      </Stack>
    </Box>
  );
}

/**
 * Under "Email Already Exists" (decision 047): the way out is to prove that account, by its
 * password or by a single-use link mailed to it; either links the Epic account and signs in.
 */
export function SignInToLink({ email, fallback }: { email: string; fallback: string }) {
  const [password, setPassword] = useState('');
  const linked = useLinked(fallback);
  const signIn = useMutation({ mutationFn: () => linkSignIn(email, password), onSuccess: linked });
  const mail = useMutation({ mutationFn: () => linkByEmail(email) });
  const busy = signIn.isPending || signIn.isSuccess;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (password && !busy) signIn.mutate();
  }

  return (
    <Box component="section" aria-labelledby="sign-in-to-link-heading" sx={{ mt: 3 }}>
      <Typography id="sign-in-to-link-heading" component="h2" variant="h6">
        Sign in to that account to link it
      </Typography>
      <Typography color="text.secondary">If {email} is your account, prove it and your Epic Games account is linked to it.</Typography>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Sign in to link">
        <PasswordField
          id="sign-in-to-link-password"
          value={password}
          onChange={setPassword}
          error={signIn.isError ? signIn.error.message : undefined}
        />
        <Button type="submit" variant="contained" fullWidth disabled={busy || !password}>
          {busy ? 'Linking...' : 'Sign in and link'}
        </Button>
      </Box>
      <Button type="button" variant="outlined" fullWidth sx={{ mt: 2 }} disabled={mail.isPending || busy} onClick={() => mail.mutate()}>
        Email me a link instead
      </Button>
      {mail.isSuccess && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {mail.data.message} Open it in this browser to finish here.
        </Alert>
      )}
      {mail.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {mail.error.message}
        </Alert>
      )}
    </Box>
  );
}
