import { Alert, Box, Button, Checkbox, Container, Divider, FormControlLabel, Link, Paper, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { documentTitle, pageFor } from '../../contract/pages';
import { useRuntimeConfig } from '../runtimeConfig';
import { epicSignInUrl } from '../api/auth';
import { assignLocation } from '../browser';
import { useContractForm, useProblemToast } from './forms/contractForm';
import { FormTextField } from './forms/FormTextField';
import { EmailChangeNoticeSlot } from './login/EmailChangeNoticeSlot';
import { loadLoginFormSchemas, modeFromSearch, type LoginFormValues, type LoginMode } from './login/loginForm';
import { PasskeySignIn } from './login/PasskeySignIn';
import { PasswordField } from './login/PasswordField';
import { SecondFactorStep } from './login/SecondFactorStep';
import { useLoginActions } from './login/useLoginActions';
import { RetiredLoginPage } from './login/RetiredLoginPage';
import { emailFormShown, registrationAllowed } from '../../contract/legacyLogin';

const TEXT: Record<LoginMode, { heading: string; submit: string; switchPrompt: string; switchAction: string }> = {
  signin: {
    heading: 'Sign in to Sage',
    submit: 'Sign in with e-mail',
    switchPrompt: "Don't have an account?",
    switchAction: 'Create an account',
  },
  register: {
    heading: 'Create your Sage account',
    submit: 'Create my account',
    switchPrompt: 'Already have an account?',
    switchAction: 'Sign in instead',
  },
};

const LOGIN_PAGE = pageFor('/login');

/** A registered checkbox's props for MUI's Checkbox, which takes its input's ref in slotProps. */
function checkboxField({ ref, ...field }: UseFormRegisterReturn) {
  return { ...field, slotProps: { input: { ref } } };
}

/** /login: legacy e-mail sign-in and registration, plus Epic sign-in (§2 Login screen). */
export function LoginPage() {
  const [searchParams] = useSearchParams();
  const [mode, setMode] = useState<LoginMode>(() => modeFromSearch(searchParams.get('mode')));
  // The fields keep their own text: what was typed on the pre-rendered page before the app ran it
  // is what the form reads (decision 010).
  const { register, handleSubmit, getValues } = useContractForm(() => loadLoginFormSchemas().then((rules) => rules.LOGIN_FORMS[mode]));
  const [showPassword, setShowPassword] = useState(false);
  const showProblem = useProblemToast();
  const { submit, requestPasswordReset, secondFactorPrompt, secondFactorPasskey, confirmCode, cancelSecondFactor } = useLoginActions();
  const busy = submit.isPending || confirmCode.isPending;
  const text = TEXT[mode];
  const { epicSignIn, legacyLogin } = useRuntimeConfig();

  // The tab names the mode on screen, also after a toggle, which leaves the URL as it was.
  useEffect(() => {
    document.title = documentTitle(LOGIN_PAGE, new URLSearchParams({ mode }));
  }, [mode]);

  function send({ email, password, rememberMe = false }: LoginFormValues) {
    if (!busy) submit.mutate({ mode, email, password, rememberMe });
  }

  const onSubmit = handleSubmit(send, showProblem);

  function toggleMode() {
    // Confirm Password leaves the form in sign-in mode, so it comes back empty.
    setMode((m) => (m === 'signin' ? 'register' : 'signin'));
  }

  // LEGACY_LOGIN=off: no e-mail form at all (decision 048).
  if (!emailFormShown(legacyLogin)) return <RetiredLoginPage />;

  return (
    <Container maxWidth="xs" sx={{ py: { xs: 4, sm: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography component="h1" variant="h5" gutterBottom>
          {text.heading}
        </Typography>
        <EmailChangeNoticeSlot />
        {secondFactorPrompt !== null ? (
          <SecondFactorStep
            prompt={secondFactorPrompt}
            busy={busy}
            onSubmit={(code) => confirmCode.mutate(code)}
            onPasskey={secondFactorPasskey ? () => confirmCode.mutate(null) : undefined}
            onCancel={cancelSecondFactor}
          />
        ) : (
          <>
            <Alert severity="info" sx={{ mb: 3 }}>
              You don't need to sign in to download and install Sage —{' '}
              <Link component={RouterLink} to="/download">
                go to Downloads
              </Link>
              . This login is for legacy users and will be removed soon.
            </Alert>

            <Button
              variant="contained"
              fullWidth
              size="large"
              disabled={busy || epicSignIn === 'unavailable'}
              onClick={() => assignLocation(epicSignInUrl('web'))}
            >
              Sign in with Epic
            </Button>
            {epicSignIn === 'development' && (
              <Alert severity="warning" sx={{ mt: 2 }}>
                Development sign-in: Epic Games is not configured on this server, so a local test identity provider stands in for it. Any
                display name signs in.
              </Alert>
            )}
            {epicSignIn === 'unavailable' && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                Sign in with Epic is not available on this server yet.
              </Typography>
            )}
            {mode === 'signin' && <PasskeySignIn disabled={busy} />}

            <Divider sx={{ my: 3 }}>or</Divider>

            <Box component="form" method="post" onSubmit={onSubmit} onFocus={() => void loadLoginFormSchemas()}>
              <FormTextField
                label="Email"
                field={register('email')}
                type="email"
                required
                fullWidth
                margin="normal"
                autoComplete="email"
                disabled={busy}
              />
              <PasswordField
                label="Password"
                field={register('password')}
                visible={showPassword}
                onToggleVisible={() => setShowPassword((v) => !v)}
                disabled={busy}
                autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
              />
              {mode === 'register' && (
                <PasswordField
                  label="Confirm Password"
                  field={register('passwordConfirm')}
                  visible={showPassword}
                  disabled={busy}
                  autoComplete="new-password"
                />
              )}
              {mode === 'signin' && (
                <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mt: 1 }}>
                  <FormControlLabel control={<Checkbox {...checkboxField(register('rememberMe'))} disabled={busy} />} label="Remember me" />
                  <Link
                    component="button"
                    type="button"
                    variant="body2"
                    disabled={busy}
                    onClick={() => requestPasswordReset(getValues('email'))}
                  >
                    Forgot password?
                  </Link>
                </Stack>
              )}
              <Button type="submit" variant="outlined" fullWidth size="large" disabled={busy} sx={{ mt: 3 }}>
                {busy ? 'Processing...' : text.submit}
              </Button>
            </Box>

            <Typography variant="body2" sx={{ mt: 3, textAlign: 'center', display: registrationAllowed(legacyLogin) ? undefined : 'none' }}>
              {text.switchPrompt}{' '}
              <Link component="button" type="button" variant="body2" disabled={busy} onClick={toggleMode}>
                {text.switchAction}
              </Link>
            </Typography>
          </>
        )}
      </Paper>
    </Container>
  );
}
