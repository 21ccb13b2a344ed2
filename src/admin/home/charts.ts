// MUI X Charts, the Home's only use of it: one chunk, loaded when the first chart comes into view.
export { BarChart } from '@mui/x-charts/BarChart';
export { LineChart } from '@mui/x-charts/LineChart';
export { PieChart } from '@mui/x-charts/PieChart';
