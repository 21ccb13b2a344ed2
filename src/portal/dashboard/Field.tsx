import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * One row of a dashboard card's description list: the label, then its value; stacked on a phone.
 * A long value (an e-mail address) wraps rather than widening the card.
 */
export function Field(props: { label: string; children: ReactNode; labelWidth?: number; align?: 'center' | 'start' }) {
  const { labelWidth = 160, align = 'center' } = props;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: `${labelWidth}px 1fr` }, gap: 0.5, alignItems: align }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {props.label}
      </Typography>
      <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {props.children}
      </Box>
    </Box>
  );
}
