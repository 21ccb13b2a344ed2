import type { CSSProperties } from 'react';
import { categoryLabelSteps, labelStep, percentOf, thousandths, type ValueAxis } from './axis';
import { BASELINE_COLOUR, GRID_COLOUR } from './palette';

/** Which way the value axis runs: up the chart (columns) or along it (rows, horizontal bars). */
export type Direction = 'columns' | 'rows';

/** Custom properties are not in React's CSSProperties. */
type StyleWithVariables = CSSProperties & Record<`--${string}`, string>;

/** Invisible copies of the labels, which give their column its width (see chartStyles). */
function Sizer({ labels }: { labels: readonly string[] }) {
  return (
    <div className="sage-chart-sizer">
      {labels.map((label, i) => (
        <span key={i}>{label}</span>
      ))}
    </div>
  );
}

/** The value axis's tick labels, each centred on its gridline. */
export function ValueTicks({
  axis,
  formatTick,
  direction,
}: {
  axis: ValueAxis;
  formatTick: (value: number) => string;
  direction: Direction;
}) {
  const labels = axis.ticks.map(formatTick);
  return (
    <div className="sage-chart-ticks">
      {direction === 'columns' && <Sizer labels={labels} />}
      {axis.ticks.map((tick, i) => {
        const at = `${percentOf(tick, axis.max)}%`;
        return (
          <span key={i} className="sage-chart-label" style={direction === 'columns' ? { bottom: at } : { left: at }}>
            {labels[i]}
          </span>
        );
      })}
    </div>
  );
}

/** The gridlines at the ticks, in the plot's 100 × 100 drawing; the zero line darker. */
export function Gridlines({ axis, direction }: { axis: ValueAxis; direction: Direction }) {
  return (
    <g shapeRendering="crispEdges">
      {axis.ticks.map((tick, i) => {
        const at = percentOf(tick, axis.max);
        const ends = direction === 'columns' ? { x1: 0, x2: 100, y1: 100 - at, y2: 100 - at } : { x1: at, x2: at, y1: 0, y2: 100 };
        const colour = tick === 0 ? BASELINE_COLOUR : GRID_COLOUR;
        return <line key={i} {...ends} stroke={colour} strokeWidth={1} vectorEffect="non-scaling-stroke" />;
      })}
    </g>
  );
}

/** The centre of the `index`th of `count` bands, as a percentage. */
export const bandCentre = (index: number, count: number): number => thousandths(((index + 0.5) / count) * 100);

/**
 * The category labels under the columns (every narrow-th one; every wide-th one too on a chart of
 * 640 px and more), or beside the rows (as many as the height fits, at 16 px a label).
 */
export function CategoryLabels(props: { categories: readonly string[]; direction: Direction; height: number }) {
  const { categories, direction } = props;
  const count = categories.length;
  if (direction === 'rows') {
    const step = labelStep(count, Math.floor((props.height - 48) / 16));
    const shown = categories.filter((_, i) => i % step === 0);
    return (
      <div className="sage-chart-categories">
        <Sizer labels={shown} />
        {categories.map((label, i) =>
          i % step === 0 ? (
            <span key={i} className="sage-chart-label" style={{ top: `${bandCentre(i, count)}%` }}>
              {label}
            </span>
          ) : null,
        )}
      </div>
    );
  }
  const { narrow, wide } = categoryLabelSteps(count);
  // Each label at most as wide as the room to the next one shown, so labels never overlap.
  const room = (step: number) => `${thousandths((step / Math.max(1, count)) * 100 - 1)}%`;
  const style: StyleWithVariables = { '--sage-label-room': room(narrow), '--sage-label-room-wide': room(wide) };
  return (
    <div className="sage-chart-categories" style={style}>
      {categories.map((label, i) => {
        if (i % wide !== 0) return null;
        const className = i % narrow === 0 ? 'sage-chart-label' : 'sage-chart-label sage-chart-label-wide';
        return (
          <span key={i} className={className} style={{ left: `${bandCentre(i, count)}%` }}>
            {label}
          </span>
        );
      })}
    </div>
  );
}
