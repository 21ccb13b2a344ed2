import { BarChart } from '@mui/x-charts/BarChart';
import type { UsageHistory } from '../../../contract/usage';
import { formatCount, formatDay, formatTick } from '../../ui/format';

const HEIGHT = 240;
const MARGIN = { left: 8, right: 16, top: 16, bottom: 8 };

/**
 * Queries per UTC day, drawn with MUI X Charts. Its own chunk, loaded with the Usage section: the
 * dashboard's other sections never download the charts.
 */
export default function UsageChart({ history }: { history: Pick<UsageHistory, 'days' | 'units'> }) {
  return (
    <BarChart
      height={HEIGHT}
      margin={MARGIN}
      xAxis={[{ scaleType: 'band', data: history.days.map(formatDay), label: 'Day (UTC)', tickLabelMinGap: 8 }]}
      yAxis={[{ label: 'Queries', tickMinStep: 1, valueFormatter: formatTick }]}
      series={[{ data: history.units, label: 'Queries', valueFormatter: (value) => (value === null ? '' : formatCount(value)) }]}
      hideLegend
    />
  );
}
