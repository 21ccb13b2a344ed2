import { Box } from '@mui/material';
import type { ReactNode } from 'react';
import { CategoryLabels, Gridlines, ValueTicks, type Direction } from './Axes';
import type { ValueAxis } from './axis';
import { chartSx } from './chartStyles';
import { Legend, type LegendEntry } from './Legend';

/**
 * A chart with a value axis and a category axis: its legend, the axes' titles and labels (HTML),
 * and the plot, whose marks (`children`) draw in a 100 × 100 SVG stretched over it. The whole is
 * exactly `height` pixels tall; the plot takes what the text leaves.
 */
export function ChartFrame(props: {
  kind: string;
  direction: Direction;
  height: number;
  axis: ValueAxis;
  categories: readonly string[];
  valueLabel: string;
  categoryLabel?: string | undefined;
  formatTick: (value: number) => string;
  legend?: readonly LegendEntry[] | undefined;
  children: ReactNode;
}) {
  const { axis, direction } = props;
  const ticks = <ValueTicks axis={axis} formatTick={props.formatTick} direction={direction} />;
  const categories = <CategoryLabels categories={props.categories} direction={direction} height={props.height} />;
  return (
    <Box className={`sage-chart sage-chart-${props.kind}`} sx={chartSx} style={{ height: props.height }}>
      {props.legend && <Legend entries={props.legend} />}
      <div className={`sage-chart-body sage-chart-body-${direction}`}>
        {direction === 'columns' ? (
          <>
            <div className="sage-chart-value-title">{props.valueLabel}</div>
            {ticks}
          </>
        ) : (
          categories
        )}
        <div className="sage-chart-plot">
          <svg viewBox="0 0 100 100" preserveAspectRatio="none">
            <Gridlines axis={axis} direction={direction} />
            {props.children}
          </svg>
        </div>
        {direction === 'columns' ? categories : ticks}
        {direction === 'columns' ? (
          props.categoryLabel && <div className="sage-chart-axis-title">{props.categoryLabel}</div>
        ) : (
          <div className="sage-chart-axis-title">{props.valueLabel}</div>
        )}
      </div>
    </Box>
  );
}
