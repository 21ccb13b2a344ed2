import { Button, Container, Stack, Typography } from '@mui/material';
import { useRuntimeConfig } from '../runtimeConfig';

/** §2 Other pages → Support: a mail to the configured support address. */
export function SupportPage() {
  const { supportEmail } = useRuntimeConfig();

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 4, md: 6 } }}>
      <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }}>
          Get Support
        </Typography>
        <Typography color="text.secondary">
          Questions about installing Sage, your account or billing? Send us an e-mail at {supportEmail} and we will get back to you.
        </Typography>
        <Button variant="contained" size="large" href={`mailto:${supportEmail}`}>
          Contact Us
        </Button>
      </Stack>
    </Container>
  );
}
