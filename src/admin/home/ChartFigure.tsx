import { Box, Card, CardContent, Typography } from '@mui/material';
import { Suspense, useId, type ReactNode } from 'react';
import { consoleTranslate as translate } from '../i18n';

export interface FigureTable {
  columns: string[];
  rows: (string | number)[][];
}

/**
 * One chart of the Home: its title, a sentence that says what it shows (the text alternative
 * screen readers get, and a summary for everyone), the chart itself, and its figures as a table
 * behind `Show the figures`. With nothing to draw it says so instead of drawing empty axes.
 */
export function ChartFigure(props: {
  title: string;
  summary: string;
  empty: string | null;
  table: FigureTable;
  /** The drawn chart's height with its legend, in pixels. */
  height: number;
  children: ReactNode;
  wide?: boolean;
}) {
  const titleId = useId();
  const summaryId = useId();
  return (
    // A boundary of its own: the browser attaches to each figure of the server's markup in a task
    // of its own rather than to the whole Home in one long task (issue 37, a phone's blocking time).
    <Suspense>
      <Card
        component="figure"
        aria-labelledby={titleId}
        aria-describedby={summaryId}
        sx={{ m: 0, gridColumn: props.wide ? { md: 'span 2' } : undefined }}
      >
        <CardContent>
          <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {props.title}
          </Typography>
          <Typography id={summaryId} component="p" variant="body2" color="text.secondary" gutterBottom>
            {props.empty ?? props.summary}
          </Typography>
          {props.empty === null && (
            <>
              {/* The chart repeats the summary and the table for sighted users; inert, so nothing in it takes focus (axe: aria-hidden-focus). */}
              <Box aria-hidden="true" inert sx={{ height: props.height }}>
                {props.children}
              </Box>
              <Box component="details" sx={{ mt: 1, '& summary': { cursor: 'pointer' } }}>
                <Typography component="summary" variant="body2">
                  {translate('admin.home.insights.showFigures')}
                </Typography>
                <Box
                  component="table"
                  sx={{ mt: 1, borderCollapse: 'collapse', fontSize: 14, '& th, & td': { textAlign: 'left', pr: 2, py: 0.25 } }}
                >
                  <caption style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                    {props.title}
                  </caption>
                  <thead>
                    <tr>
                      {props.table.columns.map((column) => (
                        <th key={column} scope="col">
                          {column}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {props.table.rows.map((row, i) => (
                      <tr key={i}>
                        {row.map((cell, j) =>
                          j === 0 ? (
                            <th key={j} scope="row">
                              {cell}
                            </th>
                          ) : (
                            <td key={j}>{cell}</td>
                          ),
                        )}
                      </tr>
                    ))}
                  </tbody>
                </Box>
              </Box>
            </>
          )}
        </CardContent>
      </Card>
    </Suspense>
  );
}
