import { Box } from '@mui/material';
import { lazy, memo } from 'react';
import { useTranslate } from 'react-admin';
import type { Insights } from '../../../contract/insights';
import { ChartFigure } from './ChartFigure';
import { formatCount, formatDay, formatMoney, formatTick, toMajorUnits } from '../../ui/format';
import { conversionRate, statusLabel, total } from './insightFormat';

// The charts library is a chunk of its own (./charts), loaded when the first chart comes into view.
const BarChart = lazy(() => import('./charts').then((m) => ({ default: m.BarChart })));
const LineChart = lazy(() => import('./charts').then((m) => ({ default: m.LineChart })));
const PieChart = lazy(() => import('./charts').then((m) => ({ default: m.PieChart })));

// Every chart is drawn at once (skipAnimation): its bars and lines growing in kept a phone's main
// thread busy for frame after frame while the admin waited to read the figures.
const HEIGHT = 240;
/** A legend above the chart: one line of 14 px labels (measured: 29 px). */
const WITH_LEGEND = HEIGHT + 29;
const MARGIN = { left: 8, right: 16, top: 16, bottom: 8 };
/** A count axis: whole numbers, compact ticks. */
const countAxis = (label: string) => [{ label, tickMinStep: 1, valueFormatter: formatTick }];

/**
 * The Home's charts of the business (issue 14), drawn with MUI X Charts: each figure's title,
 * summary and table show with the figures, its drawing when it comes into view. The portal never
 * downloads the charts. Memoised: drawn again only for other figures, not whenever the section's
 * query settles (issue 28: once more as the console starts, on a phone, was a long task).
 */
export const BusinessCharts = memo(function BusinessCharts({ insights, days }: { insights: Insights; days: number }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.home.insights.${key}`, options);
  const labels = insights.days.map(formatDay);
  const dayAxis = [{ scaleType: 'band' as const, data: labels, label: t('dayAxis'), tickLabelMinGap: 8 }];
  const perDay = (values: number[]) => insights.days.map((day, i) => [day, formatCount(values[i] ?? 0)]);

  const signUpsEpic = total(insights.signUps.epic);
  const signUpsEmail = total(insights.signUps.email);
  const pluginSignIns = total(insights.pluginSignIns);
  const credits = total(insights.creditsSold);
  const messages = total(insights.messagesStored);
  const queries = total(insights.queriesPerDay);
  const subscriptions = total(insights.subscriptionsByStatus.map((row) => row.count));
  const { ended, converted } = insights.trialConversions;
  const rate = conversionRate(converted, ended);
  const revenue = insights.monthlyRecurringRevenue.map((row) => `${formatMoney(row.amount, row.currency)}`).join(', ');

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <ChartFigure
        wide
        title={t('signUps')}
        height={WITH_LEGEND}
        summary={t('signUpsSummary', {
          total: formatCount(signUpsEpic + signUpsEmail),
          epic: formatCount(signUpsEpic),
          email: formatCount(signUpsEmail),
          days,
        })}
        empty={signUpsEpic + signUpsEmail === 0 ? t('signUpsEmpty', { days }) : null}
        table={{
          columns: [t('dayColumn'), t('epic'), t('email')],
          rows: insights.days.map((day, i) => [
            day,
            formatCount(insights.signUps.epic[i] ?? 0),
            formatCount(insights.signUps.email[i] ?? 0),
          ]),
        }}
      >
        <BarChart
          height={HEIGHT}
          skipAnimation
          margin={MARGIN}
          xAxis={dayAxis}
          yAxis={countAxis(t('signUpsAxis'))}
          series={[
            { data: insights.signUps.epic, label: t('epic'), stack: 'method' },
            { data: insights.signUps.email, label: t('email'), stack: 'method' },
          ]}
        />
      </ChartFigure>

      <ChartFigure
        wide
        title={t('queries')}
        height={HEIGHT}
        summary={t('queriesSummary', { total: formatCount(queries), days })}
        empty={queries === 0 ? t('queriesEmpty', { days }) : null}
        table={{ columns: [t('dayColumn'), t('queriesAxis')], rows: perDay(insights.queriesPerDay) }}
      >
        <BarChart
          height={HEIGHT}
          skipAnimation
          margin={MARGIN}
          xAxis={dayAxis}
          yAxis={countAxis(t('queriesAxis'))}
          series={[{ data: insights.queriesPerDay, label: t('queriesAxis') }]}
          hideLegend
        />
      </ChartFigure>

      <ChartFigure
        title={t('pluginSignIns')}
        height={HEIGHT}
        summary={t('pluginSignInsSummary', { total: formatCount(pluginSignIns), days })}
        empty={pluginSignIns === 0 ? t('pluginSignInsEmpty', { days }) : null}
        table={{ columns: [t('dayColumn'), t('pluginSignInsAxis')], rows: perDay(insights.pluginSignIns) }}
      >
        <LineChart
          height={HEIGHT}
          skipAnimation
          margin={MARGIN}
          xAxis={[{ scaleType: 'point', data: labels, label: t('dayAxis') }]}
          yAxis={countAxis(t('pluginSignInsAxis'))}
          series={[{ data: insights.pluginSignIns, label: t('pluginSignInsAxis'), area: true, showMark: false, curve: 'linear' }]}
          hideLegend
        />
      </ChartFigure>

      <ChartFigure
        title={t('messagesStored')}
        height={HEIGHT}
        summary={t('messagesStoredSummary', { total: formatCount(messages), days })}
        empty={messages === 0 ? t('messagesStoredEmpty', { days }) : null}
        table={{ columns: [t('dayColumn'), t('messagesAxis')], rows: perDay(insights.messagesStored) }}
      >
        <LineChart
          height={HEIGHT}
          skipAnimation
          margin={MARGIN}
          xAxis={[{ scaleType: 'point', data: labels, label: t('dayAxis') }]}
          yAxis={countAxis(t('messagesAxis'))}
          series={[{ data: insights.messagesStored, label: t('messagesAxis'), showMark: false, curve: 'linear' }]}
          hideLegend
        />
      </ChartFigure>

      <ChartFigure
        title={t('subscriptionsByStatus')}
        height={HEIGHT}
        summary={t('subscriptionsSummary', {
          total: formatCount(subscriptions),
          statuses: insights.subscriptionsByStatus
            .map((row) => `${formatCount(row.count)} ${statusLabel(row.status).toLowerCase()}`)
            .join(', '),
        })}
        empty={subscriptions === 0 ? t('subscriptionsEmpty') : null}
        table={{
          columns: [t('statusColumn'), t('subscriptionsAxis')],
          rows: insights.subscriptionsByStatus.map((row) => [statusLabel(row.status), formatCount(row.count)]),
        }}
      >
        <BarChart
          layout="horizontal"
          height={HEIGHT}
          skipAnimation
          margin={MARGIN}
          yAxis={[{ scaleType: 'band', data: insights.subscriptionsByStatus.map((row) => statusLabel(row.status)), width: 140 }]}
          xAxis={countAxis(t('subscriptionsAxis'))}
          series={[{ data: insights.subscriptionsByStatus.map((row) => row.count), label: t('subscriptionsAxis') }]}
          hideLegend
        />
      </ChartFigure>

      <ChartFigure
        title={t('monthlyRecurringRevenue')}
        height={HEIGHT}
        summary={t('revenueSummary', { revenue, smart_count: insights.monthlyRecurringRevenue.length })}
        empty={insights.monthlyRecurringRevenue.length === 0 ? t('revenueEmpty') : null}
        table={{
          columns: [t('currencyColumn'), t('revenueAxis'), t('subscriptionsAxis')],
          rows: insights.monthlyRecurringRevenue.map((row) => [
            row.currency.toUpperCase(),
            formatMoney(row.amount, row.currency),
            formatCount(row.subscriptions),
          ]),
        }}
      >
        <BarChart
          height={HEIGHT}
          skipAnimation
          margin={MARGIN}
          xAxis={[
            {
              scaleType: 'band',
              data: insights.monthlyRecurringRevenue.map((row) => row.currency.toUpperCase()),
              label: t('currencyColumn'),
            },
          ]}
          yAxis={[{ label: t('revenueAxis'), valueFormatter: formatTick }]}
          series={[
            {
              // Each currency in its own major units (dollars, euros, yen): bars are never converted.
              data: insights.monthlyRecurringRevenue.map((row) => toMajorUnits(row.amount, row.currency)),
              label: t('revenueAxis'),
              valueFormatter: (value, { dataIndex }) => {
                const row = insights.monthlyRecurringRevenue[dataIndex];
                return value === null || !row ? '' : formatMoney(row.amount, row.currency);
              },
            },
          ]}
          hideLegend
        />
      </ChartFigure>

      <ChartFigure
        title={t('trialConversions')}
        height={HEIGHT}
        summary={rate === null ? '' : t('trialsSummary', { converted: formatCount(converted), ended: formatCount(ended), rate, days })}
        empty={ended === 0 ? t('trialsEmpty', { days }) : null}
        table={{
          columns: [t('outcomeColumn'), t('trialsAxis')],
          rows: [
            [t('converted'), formatCount(converted)],
            [t('notConverted'), formatCount(ended - converted)],
          ],
        }}
      >
        <PieChart
          height={HEIGHT}
          skipAnimation
          series={[
            {
              innerRadius: 50,
              data: [
                { id: 'converted', value: converted, label: t('converted') },
                { id: 'not-converted', value: ended - converted, label: t('notConverted') },
              ],
            },
          ]}
        />
      </ChartFigure>

      <ChartFigure
        title={t('creditsSold')}
        height={HEIGHT}
        summary={t('creditsSummary', { total: formatCount(credits), days })}
        empty={credits === 0 ? t('creditsEmpty', { days }) : null}
        table={{ columns: [t('dayColumn'), t('creditsAxis')], rows: perDay(insights.creditsSold) }}
      >
        <BarChart
          height={HEIGHT}
          skipAnimation
          margin={MARGIN}
          xAxis={dayAxis}
          yAxis={countAxis(t('creditsAxis'))}
          series={[{ data: insights.creditsSold, label: t('creditsAxis') }]}
          hideLegend
        />
      </ChartFigure>
    </Box>
  );
});
