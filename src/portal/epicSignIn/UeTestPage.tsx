import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { checkLoopbackRedirect, LOOPBACK_RULE } from '../../../contract/loopbackRedirect';
import { PageCard } from '../../ui/PageCard';
import { assignLocation } from '../../browser';
import { randomVerifier, s256Challenge } from './pkce';

/** The plugin's login URL for a loopback address, state and challenge (docs/plugin-sign-in.md). */
export function pluginLoginUrl(redirectUri: string, state: string, codeChallenge: string): string {
  const query = new URLSearchParams({
    client: 'ue',
    redirect_uri: redirectUri,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  });
  return `/api/auth/login?${query.toString()}`;
}

/**
 * /ue-test: a developer page that starts a plugin hand-off against a loopback address of your
 * choice, as the Unreal plugin would, and shows the §5 redirect rule as you type.
 */
export function UeTestPage() {
  const [redirectUri, setRedirectUri] = useState('http://127.0.0.1:53682/callback');
  const [state, setState] = useState(() => randomVerifier().slice(0, 16));
  const [verifier] = useState(randomVerifier);
  const [challenge, setChallenge] = useState<string | null>(null);
  const [cryptoProblem, setCryptoProblem] = useState<string | null>(null);
  const check = checkLoopbackRedirect(redirectUri.trim());

  useEffect(() => {
    s256Challenge(verifier).then(setChallenge, () =>
      setCryptoProblem('This browser cannot compute a PKCE challenge here: open the page over https or on localhost.'),
    );
  }, [verifier]);

  function onStart(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!check.ok || !challenge || state.trim() === '') return;
    assignLocation(pluginLoginUrl(check.url.href, state.trim(), challenge));
  }

  return (
    <PageCard title="Plugin hand-off test" width="md">
      <Typography color="text.secondary">
        For plugin developers: start the sign-in the Unreal plugin starts, with your own loopback listener. After sign-in the browser is
        sent to your address with a one-time <code>code</code> and your <code>state</code>. The full protocol is in{' '}
        <code>docs/plugin-sign-in.md</code>; <code>scripts/plugin-login.ts</code> is a reference client.
      </Typography>
      <Alert severity="info">{LOOPBACK_RULE}</Alert>
      <Box component="form" noValidate onSubmit={onStart}>
        <TextField
          label="Loopback redirect URI"
          name="redirectUri"
          value={redirectUri}
          onChange={(e) => setRedirectUri(e.target.value)}
          error={!check.ok}
          helperText={check.ok ? 'Allowed: the plugin can receive its sign-in here.' : check.reason}
          fullWidth
          margin="normal"
          autoComplete="off"
        />
        <TextField
          label="State"
          name="state"
          value={state}
          onChange={(e) => setState(e.target.value)}
          error={state.trim() === ''}
          helperText={
            state.trim() === ''
              ? 'Enter a state: the plugin checks it when the browser comes back.'
              : 'Echoed back to your listener; check it there.'
          }
          fullWidth
          margin="normal"
          autoComplete="off"
        />
        <TextField
          label="Code verifier"
          name="codeVerifier"
          value={verifier}
          helperText="Keep it: exchange the code with it at GET /api/auth/ue-payload?code=…&code_verifier=…"
          fullWidth
          margin="normal"
          slotProps={{ input: { readOnly: true } }}
        />
        <TextField
          label="Code challenge (S256)"
          name="codeChallenge"
          value={challenge ?? ''}
          fullWidth
          margin="normal"
          slotProps={{ input: { readOnly: true } }}
        />
        {cryptoProblem && <Alert severity="error">{cryptoProblem}</Alert>}
        <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={!check.ok || !challenge || state.trim() === ''}>
          Start hand-off
        </Button>
      </Box>
    </PageCard>
  );
}
