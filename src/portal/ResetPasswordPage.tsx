import { Alert, Box, Button, Container, Link, Paper, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { resetPassword } from '../api/auth';
import { useToast } from '../ui/toast';
import { PasswordField } from './login/PasswordField';
import { validatePasswordReset } from './login/validation';

export const RESET_SUCCESS_MESSAGE = 'Password reset successful. Please login with your new password.';

/** /reset-password?token=…: choose a new password from an e-mailed link (§2, §5, §8). */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const navigate = useNavigate();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const problem = validatePasswordReset(newPassword, confirmPassword);
    if (problem) {
      toast({ title: 'Error', description: problem, variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const result = await resetPassword({ token, newPassword });
      if (result.ok) {
        toast({ title: 'Success', description: RESET_SUCCESS_MESSAGE });
        navigate('/');
        return;
      }
      toast({ title: 'Error', description: result.message || 'Failed to reset password', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Container maxWidth="xs" sx={{ py: { xs: 4, sm: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography component="h1" variant="h5" gutterBottom>
          Reset your password
        </Typography>
        {token === '' ? (
          <Alert severity="warning">
            This password reset link is incomplete: it has no reset token. Open the link from your e-mail again, or
            request a new one with Forgot password on the{' '}
            <Link component={RouterLink} to="/login">
              sign-in page
            </Link>
            .
          </Alert>
        ) : (
          <Box component="form" onSubmit={onSubmit}>
            <Typography variant="body2" color="text.secondary">
              Choose a new password for your account.
            </Typography>
            <PasswordField
              label="New Password"
              name="newPassword"
              value={newPassword}
              onChange={setNewPassword}
              visible={showPassword}
              onToggleVisible={() => setShowPassword((v) => !v)}
              disabled={busy}
              autoComplete="new-password"
            />
            <PasswordField
              label="Confirm Password"
              name="confirmPassword"
              value={confirmPassword}
              onChange={setConfirmPassword}
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
