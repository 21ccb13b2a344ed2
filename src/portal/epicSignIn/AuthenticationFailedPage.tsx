import { Alert, Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { epicSignInUrl } from '../../api/epic';
import { PageCard } from '../../ui/PageCard';
import { assignLocation } from '../browser';
import { failureText } from './rules';

/** /authentication_failed?reason=…: why an Epic sign-in ended, and the way back (§2). */
export function AuthenticationFailedPage() {
  const [searchParams] = useSearchParams();
  const reason = searchParams.get('reason');
  const { title, description } = failureText(reason);

  return (
    <PageCard title={title}>
      <Alert severity={reason === 'canceled' ? 'info' : 'error'}>{description}</Alert>
      <Typography variant="body2" color="text.secondary">
        Signing in from the Unreal plugin? Start the sign-in again from the Sage toolbar in Unreal Editor.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="contained" onClick={() => assignLocation(epicSignInUrl('web'))}>
          Try Again
        </Button>
        <Button variant="outlined" component={RouterLink} to="/">
          Return to Home
        </Button>
      </Stack>
    </PageCard>
  );
}
