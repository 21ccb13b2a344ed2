import { Alert, Box, Button, Container, Divider, Paper, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { epicSignInUrl } from '../../api/auth';
import { requestSignInLink } from '../../api/signInLink';
import { EPIC_LINKING_TEXT } from '../../../contract/epicLinkingText';
import { assignLocation } from '../../browser';
import { useRuntimeConfig } from '../../runtimeConfig';

/**
 * /login and /register with LEGACY_LOGIN=off (decision 048): no e-mail form. Epic signs in; an
 * account without Epic asks for a single-use link by e-mail, whose only way leads through linking Epic.
 */
export function RetiredLoginPage() {
  const { epicSignIn } = useRuntimeConfig();
  const [email, setEmail] = useState('');
  const request = useMutation({ mutationFn: () => requestSignInLink(email.trim()) });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (email.trim() && !request.isPending) request.mutate();
  }

  return (
    <Container maxWidth="xs" sx={{ py: { xs: 4, sm: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography component="h1" variant="h5" gutterBottom>
          Sign in to Sage
        </Typography>
        <Button
          variant="contained"
          fullWidth
          size="large"
          disabled={epicSignIn === 'unavailable'}
          onClick={() => assignLocation(epicSignInUrl('web'))}
        >
          Sign in with Epic
        </Button>
        <Divider sx={{ my: 3 }}>or</Divider>
        <Typography component="h2" variant="h6">
          Signed in with an email before?
        </Typography>
        <Typography color="text.secondary">
          Signing in with an email and password has been retired. Enter your account's email: we send you a link to sign in with Epic Games
          and link it to your Sage account.
        </Typography>
        <Box component="form" noValidate onSubmit={onSubmit}>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            fullWidth
            margin="normal"
          />
          <Button type="submit" variant="outlined" fullWidth disabled={request.isPending || !email.trim()}>
            Email me a sign-in link
          </Button>
        </Box>
        {request.isSuccess && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {EPIC_LINKING_TEXT.linkSent}
          </Alert>
        )}
        {request.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {request.error.message}
          </Alert>
        )}
      </Paper>
    </Container>
  );
}
