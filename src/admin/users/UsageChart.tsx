import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslate } from 'react-admin';
import type { UsageHistory } from '../../../contract/usage';
import { ChartFigure } from '../home/ChartFigure';
import { formatCount, formatDay, formatTick } from '../../ui/format';
import { total } from '../home/insightFormat';

/** A user's queries per UTC day (issue 26), drawn as the Home draws its series, with the same text alternative. */
export default function UsageChart({ history }: { history: UsageHistory }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.usage.history.${key}`, options);
  const days = history.days.length;
  const queries = total(history.units);
  return (
    <ChartFigure
      title={t('queries')}
      summary={t('summary', { total: formatCount(queries), days })}
      empty={queries === 0 ? t('empty', { days }) : null}
      table={{
        columns: [t('dayColumn'), t('queriesAxis')],
        rows: history.days.map((day, i) => [day, formatCount(history.units[i] ?? 0)]),
      }}
      height={220}
    >
      <BarChart
        height={220}
        margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
        xAxis={[{ scaleType: 'band', data: history.days.map(formatDay), label: t('dayAxis'), tickLabelMinGap: 8 }]}
        yAxis={[{ label: t('queriesAxis'), tickMinStep: 1, valueFormatter: formatTick }]}
        series={[{ data: history.units, label: t('queriesAxis') }]}
        hideLegend
      />
    </ChartFigure>
  );
}
