/** One series of figures, a value per category. */
export interface ChartSeries {
  label: string;
  values: readonly number[];
}

/** One slice of a donut. */
export interface ChartSlice {
  label: string;
  value: number;
}

/** What the charts with a value axis and a category axis share. */
export interface CartesianChartProps {
  /** The whole chart's height in pixels, legend and axis titles included. */
  height: number;
  categories: readonly string[];
  series: readonly ChartSeries[];
  /** The value axis's title. */
  valueLabel: string;
  /** The category axis's title. */
  categoryLabel?: string;
  /** A tick's text: `40K` rather than `40,000`. */
  formatTick: (value: number) => string;
}
