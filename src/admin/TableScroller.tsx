import { TableContainer } from '@mui/material';
import type { ReactNode } from 'react';
import { consoleTranslate as translate } from './i18n';

/**
 * A table wider than a phone scrolls sideways inside its card, not the page. The scrolling box is a
 * region, "<the table's title> table", that takes the keyboard's focus so the arrow keys scroll it
 * (WCAG lets data tables scroll; the portal's invoice table does the same).
 */
export function TableScroller({ title, children }: { title: string; children: ReactNode }) {
  return (
    <TableContainer role="region" aria-label={translate('admin.tableRegion', { title })} tabIndex={0} sx={{ overflowX: 'auto' }}>
      {children}
    </TableContainer>
  );
}
