import { Alert, Box, Button, Container, Link, Paper, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { resetPassword } from '../api/auth';
import { useToast } from '../ui/toast';
import { useContractForm, useProblemToast } from './forms/contractForm';
import { loadLoginFormSchemas, type ResetPasswordFormValues } from './login/loginForm';
import { PasswordField } from './login/PasswordField';

export const RESET_SUCCESS_MESSAGE = 'Password reset successful. Please login with your new password.';

/** /reset-password?token=…: choose a new password from an e-mailed link (§2, §5, §8). */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const { register, handleSubmit } = useContractForm<ResetPasswordFormValues, ResetPasswordFormValues>(() =>
    loadLoginFormSchemas().then((rules) => rules.RESET_PASSWORD_FORM),
  );
  const [showPassword, setShowPassword] = useState(false);
  const toast = useToast();
  const showProblem = useProblemToast();
  const navigate = useNavigate();
  const reset = useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      toast({ title: 'Success', description: RESET_SUCCESS_MESSAGE });
      navigate('/');
    },
    onError: (error) => toast({ title: 'Error', description: error.message || 'Failed to reset password', variant: 'destructive' }),
  });
  const busy = reset.isPending;

  function send({ newPassword }: { newPassword: string }) {
    if (!busy) reset.mutate({ token, newPassword });
  }

  const onSubmit = handleSubmit(send, showProblem);

  return (
    <Container maxWidth="xs" sx={{ py: { xs: 4, sm: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography component="h1" variant="h5" gutterBottom>
          Reset your password
        </Typography>
        {token === '' ? (
          <Alert severity="warning">
            This password reset link is incomplete: it has no reset token. Open the link from your e-mail again, or request a new one with
            Forgot password on the{' '}
            <Link component={RouterLink} to="/login">
              sign-in page
            </Link>
            .
          </Alert>
        ) : (
          <Box component="form" onSubmit={onSubmit} onFocus={() => void loadLoginFormSchemas()}>
            <Typography variant="body2" color="text.secondary">
              Choose a new password for your account.
            </Typography>
            <PasswordField
              label="New Password"
              field={register('newPassword')}
              visible={showPassword}
              onToggleVisible={() => setShowPassword((v) => !v)}
              disabled={busy}
              autoComplete="new-password"
            />
            <PasswordField
              label="Confirm Password"
              field={register('confirmPassword')}
              visible={showPassword}
              disabled={busy}
              autoComplete="new-password"
            />
            <Button type="submit" variant="contained" fullWidth size="large" disabled={busy} sx={{ mt: 3 }}>
              {busy ? 'Processing...' : 'Reset password'}
            </Button>
          </Box>
        )}
      </Paper>
    </Container>
  );
}
