import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { Suspense, useId, useRef, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { ChartDrawn, useDrawTurn } from './drawTurns';
import { useNearViewport } from './useNearViewport';

export interface FigureTable {
  columns: string[];
  rows: (string | number)[][];
}

/**
 * The chart's place, as tall as the chart it will hold, so nothing moves when it is drawn. The
 * chart is drawn once it comes near the screen (its library loads with the first one), one chart
 * at a time: a chart further down costs the first view nothing.
 */
function ChartSpace({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [draw, drawn] = useDrawTurn(useNearViewport(ref));
  const placeholder = <Skeleton variant="rectangular" height={height} />;
  return (
    // The chart repeats the summary and the table for sighted users; inert, so nothing in it takes focus (axe: aria-hidden-focus).
    <Box ref={ref} aria-hidden="true" inert sx={{ minHeight: height }}>
      {draw ? (
        <Suspense fallback={placeholder}>
          {children}
          <ChartDrawn onDrawn={drawn} />
        </Suspense>
      ) : (
        placeholder
      )}
    </Box>
  );
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
  const translate = useTranslate();
  const titleId = useId();
  const summaryId = useId();
  return (
    // A boundary of its own: the browser attaches to each figure of the server's markup (its table
    // included) in a task of its own (issue 28). Nothing in it suspends once it runs in the browser.
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
              <ChartSpace height={props.height}>{props.children}</ChartSpace>
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
