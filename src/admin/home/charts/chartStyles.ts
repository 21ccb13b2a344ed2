import type { SxProps, Theme } from '@mui/material';
import { TEXT_COLOUR } from './palette';

/**
 * Every chart's layout, one rule set whatever the chart (one Emotion class): HTML lays out the
 * text, which never scales; the marks are an SVG stretched over the plot. Positions along an axis
 * are percentages in each element's own style, so the chart fits any width without measuring.
 */
export const chartSx: SxProps<Theme> = {
  // The chart's own width decides which category labels fit (container queries below, `cqi`).
  containerType: 'inline-size',
  display: 'flex',
  flexDirection: 'column',
  overflow: 'hidden',
  fontSize: 12,
  lineHeight: 1.25,
  color: TEXT_COLOUR,
  '& .sage-chart-legend': {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'center',
    gap: '4px 16px',
    flex: 'none',
    m: 0,
    pb: '8px',
    fontSize: 14,
  },
  '& .sage-chart-legend-item': { display: 'inline-flex', alignItems: 'center', gap: '6px' },
  '& .sage-chart-body': {
    flex: '1 1 0',
    minHeight: 0,
    display: 'grid',
    columnGap: '4px',
    pt: '8px',
    // Room for the last category label, centred on its bar, and the last tick of a horizontal axis.
    pr: '16px',
  },
  '& .sage-chart-body-columns': { gridTemplateColumns: 'auto auto minmax(0, 1fr)', gridTemplateRows: 'minmax(0, 1fr) 22px auto' },
  '& .sage-chart-body-rows': { gridTemplateColumns: 'auto minmax(0, 1fr)', gridTemplateRows: 'minmax(0, 1fr) 22px auto' },
  '& .sage-chart-plot, & .sage-chart-ticks, & .sage-chart-categories': { position: 'relative', minWidth: 0, minHeight: 0 },
  '& .sage-chart-plot > svg': { position: 'absolute', inset: 0, width: '100%', height: '100%', overflow: 'visible' },
  // Invisible copies of the labels give their column its width, which absolutely placed labels do not.
  '& .sage-chart-sizer': { visibility: 'hidden', height: 0, overflow: 'hidden', whiteSpace: 'nowrap' },
  '& .sage-chart-sizer > span': { display: 'block' },
  '& .sage-chart-label': { position: 'absolute', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
  '& .sage-chart-value-title': {
    gridRow: 1,
    writingMode: 'vertical-rl',
    transform: 'rotate(180deg)',
    textAlign: 'center',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  '& .sage-chart-axis-title': { gridRow: 3, textAlign: 'center', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
  // Vertical charts: value ticks at the left, centred on their gridline; categories under their band.
  '& .sage-chart-body-columns .sage-chart-ticks .sage-chart-label': { right: 0, transform: 'translateY(50%)' },
  '& .sage-chart-body-columns .sage-chart-categories': { gridColumn: 3, gridRow: 2 },
  '& .sage-chart-body-columns .sage-chart-axis-title': { gridColumn: 3 },
  '& .sage-chart-categories .sage-chart-label': { top: '4px', transform: 'translateX(-50%)', maxWidth: 'var(--sage-label-room)' },
  '& .sage-chart-categories .sage-chart-label-wide': { display: 'none' },
  '@container (min-width: 640px)': {
    '& .sage-chart-categories .sage-chart-label-wide': { display: 'block' },
    '& .sage-chart-categories .sage-chart-label': { maxWidth: 'var(--sage-label-room-wide)' },
  },
  // Horizontal bars: a label per row at the left (at most 40% of the chart), value ticks below.
  '& .sage-chart-body-rows .sage-chart-categories': { gridColumn: 1, gridRow: 1, maxWidth: '40cqi' },
  '& .sage-chart-body-rows .sage-chart-categories .sage-chart-label': {
    top: 'auto',
    right: 0,
    maxWidth: '100%',
    transform: 'translateY(-50%)',
  },
  '& .sage-chart-body-rows .sage-chart-ticks': { gridColumn: 2, gridRow: 2 },
  '& .sage-chart-body-rows .sage-chart-ticks .sage-chart-label': { top: '4px', transform: 'translateX(-50%)' },
  '& .sage-chart-body-rows .sage-chart-axis-title': { gridColumn: 2 },
  // The donut: a square drawing in the height the legend leaves, centred.
  '& .sage-chart-ring': { flex: '1 1 0', minHeight: 0, width: '100%' },
};
