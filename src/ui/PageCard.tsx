import { CircularProgress, Container, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A narrow page of one card: a heading, then its content stacked (the sign-in pages). */
export function PageCard({ title, width = 'sm', children }: { title: string; width?: 'xs' | 'sm' | 'md'; children: ReactNode }) {
  return (
    <Container maxWidth={width} sx={{ py: { xs: 4, sm: 8 } }}>
      {/* A long word (an e-mail address) breaks where it must, rather than running out of the card on a phone. */}
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, overflowWrap: 'anywhere' }}>
        <Stack spacing={3}>
          <Typography component="h1" variant="h5">
            {title}
          </Typography>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}

/** A spinner with a line of text, for a step that is under way. */
export function BusyLine({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      <CircularProgress size={20} aria-hidden />
      <Typography>{children}</Typography>
    </Stack>
  );
}
