import {
  Alert,
  Box,
  Button,
  Container,
  Divider,
  FormControl,
  FormHelperText,
  InputLabel,
  OutlinedInput,
  Paper,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
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
  const [missing, setMissing] = useState(false);
  const fieldId = useId();
  const request = useMutation({ mutationFn: (email: string) => requestSignInLink(email) });

  // The field keeps its own text: what was typed on the pre-rendered page is what is sent (decision 010).
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setMissing(email === '');
    if (email && !request.isPending) request.mutate(email);
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
          {/* TextField's parts, not TextField: its select mode would bring Select, Menu and List to /login (FormTextField says why). */}
          <FormControl fullWidth margin="normal" required error={missing}>
            <InputLabel htmlFor={fieldId}>Email</InputLabel>
            <OutlinedInput id={fieldId} label="Email" type="email" autoComplete="email" name="email" aria-describedby={`${fieldId}-help`} />
            <FormHelperText id={`${fieldId}-help`}>{missing ? 'Email is required' : ' '}</FormHelperText>
          </FormControl>
          <Button type="submit" variant="outlined" fullWidth disabled={request.isPending}>
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
