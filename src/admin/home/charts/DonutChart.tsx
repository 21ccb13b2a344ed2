import { Box } from '@mui/material';
import { drawable, thousandths } from './axis';
import { chartSx } from './chartStyles';
import { Legend } from './Legend';
import { TRACK_COLOUR, seriesColour } from './palette';
import type { ChartSlice } from './types';

/** The ring's outer and inner radius in its 100 × 100 drawing (a square: it scales evenly). */
const OUTER = 48;
const INNER = 27;

/** The point at `radius` from the centre, `turn` of the way round clockwise from 12 o'clock. */
function point(radius: number, turn: number): string {
  const angle = turn * 2 * Math.PI - Math.PI / 2;
  return `${thousandths(50 + radius * Math.cos(angle))} ${thousandths(50 + radius * Math.sin(angle))}`;
}

/** The whole ring: an arc cannot go all the way round, so each circle is two half arcs. */
const RING =
  `M50 ${50 - OUTER}A${OUTER} ${OUTER} 0 1 1 50 ${50 + OUTER}A${OUTER} ${OUTER} 0 1 1 50 ${50 - OUTER}Z` +
  `M50 ${50 - INNER}A${INNER} ${INNER} 0 1 0 50 ${50 + INNER}A${INNER} ${INNER} 0 1 0 50 ${50 - INNER}Z`;

/** The ring's sector from turn `from` to turn `to` (0 to 1); the whole ring when it is all of it. */
export function slicePath(from: number, to: number): string {
  if (to - from >= 1) return RING;
  const large = to - from > 0.5 ? 1 : 0;
  return (
    `M${point(OUTER, from)}A${OUTER} ${OUTER} 0 ${large} 1 ${point(OUTER, to)}` +
    `L${point(INNER, to)}A${INNER} ${INNER} 0 ${large} 0 ${point(INNER, from)}Z`
  );
}

/** Where each slice starts and ends, in turns from 12 o'clock; the last ends at the full turn exactly. */
function turns(slices: readonly ChartSlice[]): { from: number; to: number }[] {
  const total = slices.reduce((sum, slice) => sum + drawable(slice.value), 0);
  let done = 0;
  return slices.map((slice, i) => {
    const from = done;
    done = total > 0 && i === slices.length - 1 ? 1 : done + (total > 0 ? drawable(slice.value) / total : 0);
    return { from, to: done };
  });
}

/**
 * Shares of a whole as a ring, clockwise from 12 o'clock in the slices' order, under a legend.
 * The drawing is a square as tall as the legend leaves, centred. A slice of nothing draws nothing
 * (its element stays, without a shape); with no total the bare grey ring shows.
 */
export function DonutChart({ height, slices }: { height: number; slices: readonly ChartSlice[] }) {
  const spans = turns(slices);
  return (
    <Box className="sage-chart sage-chart-donut" sx={chartSx} style={{ height }}>
      <Legend entries={slices.map((slice, i) => ({ label: slice.label, colour: seriesColour(i) }))} />
      <svg className="sage-chart-ring" viewBox="0 0 100 100">
        <path d={RING} fill={TRACK_COLOUR} fillRule="evenodd" />
        {slices.map((slice, i) => {
          const { from, to } = spans[i] ?? { from: 0, to: 0 };
          const shown = drawable(slice.value) > 0;
          return (
            <path
              key={i}
              d={shown ? slicePath(from, to) : undefined}
              fill={seriesColour(i)}
              fillRule="evenodd"
              stroke="#ffffff"
              // A white edge between slices; none round a whole ring.
              strokeWidth={shown && to - from < 1 ? 0.75 : 0}
              data-chart-slice=""
              data-value={slice.value}
              data-category={slice.label}
              data-start={thousandths(from * 360)}
              data-end={thousandths(to * 360)}
            />
          );
        })}
      </svg>
    </Box>
  );
}
