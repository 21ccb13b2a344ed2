import { Button, Container, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

/** Any portal path §2 does not list. */
export function NotFoundPage() {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 4, md: 6 } }}>
      <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }}>
          Page not found
        </Typography>
        <Typography color="text.secondary">The page you are looking for does not exist or has moved.</Typography>
        <Button variant="contained" component={RouterLink} to="/download">
          Back to Download
        </Button>
      </Stack>
    </Container>
  );
}
