import { bandCentre } from './Axes';
import { axisFor, drawable, percentOf, thousandths } from './axis';
import { ChartFrame } from './ChartFrame';
import { seriesColour } from './palette';
import type { CartesianChartProps, ChartSeries } from './types';

/** A bar's share of its band: the rest is the gap between bars. */
const BAR_SHARE = 0.7;

/** The series a bar chart draws: all of them stacked, else the first alone. */
const drawnSeries = (series: readonly ChartSeries[], stacked: boolean) => (stacked ? series : series.slice(0, 1));

/**
 * Vertical bars, one per category (a stack of one per series when `stacked`), in the plot's
 * 100 × 100 drawing: each `<rect>`'s height is its value's percentage of the axis.
 */
export function BarChart(props: CartesianChartProps & { stacked?: boolean; legend?: boolean }) {
  const { categories } = props;
  const series = drawnSeries(props.series, props.stacked ?? false);
  const totals = categories.map((_, i) => series.reduce((sum, s) => sum + drawable(s.values[i]), 0));
  const axis = axisFor(
    Math.max(0, ...totals),
    series.flatMap((s) => s.values),
  );
  const band = 100 / Math.max(1, categories.length);
  const width = thousandths(band * BAR_SHARE);
  const legend = props.legend ? series.map((s, i) => ({ label: s.label, colour: seriesColour(i) })) : undefined;
  return (
    <ChartFrame
      kind="bar"
      direction="columns"
      height={props.height}
      axis={axis}
      categories={categories}
      valueLabel={props.valueLabel}
      categoryLabel={props.categoryLabel}
      formatTick={props.formatTick}
      legend={legend}
    >
      {categories.map((category, i) => {
        const x = thousandths(bandCentre(i, categories.length) - width / 2);
        let base = 0;
        return series.map((s, j) => {
          const value = s.values[i] ?? 0;
          const height = percentOf(value, axis.max);
          base += height;
          return (
            <rect
              key={`${i}-${j}`}
              x={x}
              y={thousandths(100 - base)}
              width={width}
              height={height}
              fill={seriesColour(j)}
              data-chart-mark=""
              data-value={value}
              data-category={category}
              data-series={s.label}
            />
          );
        });
      })}
    </ChartFrame>
  );
}
