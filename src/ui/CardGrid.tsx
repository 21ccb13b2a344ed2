import { Box, Card, CardContent, Skeleton, Stack } from '@mui/material';
import type { ReactNode } from 'react';

/** Cards side by side where there is room, stacked on a phone. */
export function CardGrid({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(auto-fill, minmax(320px, 1fr))' } }}>{children}</Box>
  );
}

/** A loading placeholder of `count` cards, announced as `label`. */
export function CardsSkeleton({ count, label }: { count: number; label: string }) {
  return (
    <Box role="status" aria-busy="true" aria-label={label}>
      <CardGrid>
        {Array.from({ length: count }, (_, i) => (
          <Card key={i} variant="outlined">
            <CardContent>
              <Stack spacing={1.5}>
                <Skeleton variant="text" width="50%" height={32} />
                <Skeleton variant="text" width="80%" />
                <Skeleton variant="text" width="30%" height={40} />
                <Skeleton variant="rounded" width={120} height={36} />
              </Stack>
            </CardContent>
          </Card>
        ))}
      </CardGrid>
    </Box>
  );
}
