import { bandCentre } from './Axes';
import { axisFor, drawable, percentOf, thousandths } from './axis';
import { ChartFrame } from './ChartFrame';
import { seriesColour } from './palette';
import type { CartesianChartProps } from './types';

/**
 * One series as a line through each category's value, at the centre of its band (so its labels
 * sit as a bar chart's do), optionally with the area under it filled. The line keeps its 2 px
 * whatever the plot's stretch (non-scaling stroke).
 */
export function LineChart(props: CartesianChartProps & { area?: boolean }) {
  const { categories } = props;
  const values = props.series[0]?.values ?? [];
  const axis = axisFor(Math.max(0, ...values.map(drawable)), values);
  const count = categories.length;
  const points = categories.map((_, i) => `${bandCentre(i, count)} ${thousandths(100 - percentOf(values[i], axis.max))}`);
  const line = points.length > 0 ? `M${points.join('L')}` : '';
  const colour = seriesColour(0);
  return (
    <ChartFrame
      kind="line"
      direction="columns"
      height={props.height}
      axis={axis}
      categories={categories}
      valueLabel={props.valueLabel}
      categoryLabel={props.categoryLabel}
      formatTick={props.formatTick}
    >
      {props.area && points.length > 0 && (
        <path
          d={`M${bandCentre(0, count)} 100L${points.join('L')}L${bandCentre(count - 1, count)} 100Z`}
          fill={colour}
          fillOpacity={0.18}
          data-chart-area=""
        />
      )}
      <path
        d={line}
        fill="none"
        stroke={colour}
        strokeWidth={2}
        strokeLinejoin="round"
        strokeLinecap="round"
        vectorEffect="non-scaling-stroke"
        data-chart-line=""
        data-values={categories.map((_, i) => values[i] ?? 0).join(',')}
      />
    </ChartFrame>
  );
}
