import { Box, Typography } from '@mui/material';
import { useId, type ReactNode } from 'react';
import { formatDateTime } from '../../ui/format';

/** One section of an organisation's page: a region named by its h2. */
export function OrgSection({ title, children }: { title: string; children: (titleId: string) => ReactNode }) {
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ p: 2 }}>
      <Typography id={titleId} component="h2" variant="h6" gutterBottom>
        {title}
      </Typography>
      {children(titleId)}
    </Box>
  );
}

/** A description list of label and value pairs, as the user's page shows its figures. */
export function Details({ children }: { children: ReactNode }) {
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1, m: 0, mb: 2 }}>
      {children}
    </Box>
  );
}

export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, typography: 'body2', overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Box>
  );
}

/** A moment as the console's tables write it, machine-readable too. */
export function Moment({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}
