// The Home's charts, drawn whole by the server's render: HTML and CSS lay them out at any width,
// SVG draws the marks; nothing measures, nothing runs after the markup.
export { BarChart } from './BarChart';
export { DonutChart } from './DonutChart';
export { HorizontalBarChart } from './HorizontalBarChart';
export { LineChart } from './LineChart';
export { SERIES_COLOURS } from './palette';
export type { CartesianChartProps, ChartSeries, ChartSlice } from './types';
