import { bandCentre } from './Axes';
import { axisFor, drawable, percentOf, thousandths } from './axis';
import { ChartFrame } from './ChartFrame';
import { seriesColour } from './palette';
import type { CartesianChartProps } from './types';

/** A bar's share of its row: the rest is the gap between bars. */
const BAR_SHARE = 0.6;

/**
 * One series as a bar per row (e.g. subscriptions by status), its label at the left and the value
 * axis below: each `<rect>`'s width is its value's percentage of the axis.
 */
export function HorizontalBarChart(props: Omit<CartesianChartProps, 'categoryLabel'>) {
  const { categories } = props;
  const values = props.series[0]?.values ?? [];
  const axis = axisFor(Math.max(0, ...values.map(drawable)), values);
  const band = 100 / Math.max(1, categories.length);
  const thickness = thousandths(band * BAR_SHARE);
  return (
    <ChartFrame
      kind="hbar"
      direction="rows"
      height={props.height}
      axis={axis}
      categories={categories}
      valueLabel={props.valueLabel}
      formatTick={props.formatTick}
    >
      {categories.map((category, i) => (
        <rect
          key={i}
          x={0}
          y={thousandths(bandCentre(i, categories.length) - thickness / 2)}
          width={percentOf(values[i], axis.max)}
          height={thickness}
          fill={seriesColour(0)}
          data-chart-mark=""
          data-value={values[i] ?? 0}
          data-category={category}
        />
      ))}
    </ChartFrame>
  );
}
