import { Box, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useId } from 'react';
import { givenOrNot } from './usageRules';
import { formatCount } from '../../ui/format';

export interface TallyRow {
  /** The project or engine version; '' when the plugin did not say. */
  key: string;
  uses: number;
  units: number;
}

/** Uses and queries over the range by one thing the plugin reports (project, engine version). */
export function UsageTallyTable({ title, column, rows, days }: { title: string; column: string; rows: TallyRow[]; days: number }) {
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId}>
      <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No uses in the last {days} days.
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-labelledby={titleId}>
            <TableHead>
              <TableRow>
                <TableCell scope="col">{column}</TableCell>
                <TableCell scope="col" align="right">
                  Uses
                </TableCell>
                <TableCell scope="col" align="right">
                  Queries
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.key}>
                  <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                    {givenOrNot(row.key)}
                  </TableCell>
                  <TableCell align="right">{formatCount(row.uses)}</TableCell>
                  <TableCell align="right">{formatCount(row.units)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
