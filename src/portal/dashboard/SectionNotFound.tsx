import { Box, Button, Typography } from '@mui/material';

/** Shown for a section that exists but is not available (§2 Dashboard). */
export function SectionNotFound({ onBack }: { onBack: () => void }) {
  return (
    <Box component="section" aria-labelledby="dashboard-not-found-heading" sx={{ py: 4 }}>
      <Typography id="dashboard-not-found-heading" component="h1" variant="h4" gutterBottom>
        Section Not Found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        This part of the dashboard is not available.
      </Typography>
      <Button variant="contained" onClick={onBack}>
        Back to General
      </Button>
    </Box>
  );
}
