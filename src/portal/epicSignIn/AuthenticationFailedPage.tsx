import { Alert, Button, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { track } from '../../analytics';
import { epicSignInUrl } from '../../api/auth';
import { PageCard } from '../../ui/PageCard';
import { assignLocation } from '../../browser';
import { failureText } from './rules';

/** /authentication_failed?reason=…: why an Epic sign-in ended, and the way back (§2), or to support when signing in again cannot help. */
export function AuthenticationFailedPage() {
  const [searchParams] = useSearchParams();
  const reason = searchParams.get('reason');
  const { title, description, contactSupport } = failureText(reason);

  // Authentication failures are tracked with their reason (the code, not any token or e-mail).
  useEffect(() => {
    track('User Login', { method: 'epic', status: 'failed', reason: reason ?? 'unknown', error_message: title });
  }, [reason, title]);

  return (
    <PageCard title={title}>
      <Alert severity={reason === 'canceled' ? 'info' : 'error'}>{description}</Alert>
      {!contactSupport && (
        <Typography variant="body2" color="text.secondary">
          Signing in from the Unreal plugin? Start the sign-in again from the Sage toolbar in Unreal Editor.
        </Typography>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {contactSupport ? (
          <Button variant="contained" component={RouterLink} to="/support">
            Contact Support
          </Button>
        ) : (
          <Button
            variant="contained"
            onClick={() => {
              track('Button Click', { button: 'Try Again', screen: 'authentication_failed' });
              assignLocation(epicSignInUrl('web'));
            }}
          >
            Try Again
          </Button>
        )}
        <Button variant="outlined" component={RouterLink} to="/">
          Return to Home
        </Button>
      </Stack>
    </PageCard>
  );
}
