import { Box, CircularProgress, Typography } from '@mui/material';

/** Shown while a signed-in route waits for the current user. */
export function LoadingScreen() {
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 10 }}>
      <CircularProgress size={24} aria-hidden />
      <Typography>Loading...</Typography>
    </Box>
  );
}
