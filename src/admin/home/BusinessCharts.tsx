import { Box } from '@mui/material';
import { consoleTranslate as translate } from '../i18n';
import type { Insights } from '../../../contract/insights';
import { ChartFigure } from './ChartFigure';
import { formatCount, formatDay, formatMoney, formatTick, toMajorUnits } from '../../ui/format';
import { conversionRate, statusLabel, total } from './insightFormat';

import { BarChart, DonutChart, HorizontalBarChart, LineChart } from './charts';

const HEIGHT = 240;
/** A legend above the chart: one line of labels. */
const WITH_LEGEND = HEIGHT + 29;

/**
 * The Home's charts of the business (issue 14): each figure's title, summary, drawing and table,
 * all in the server's markup (./charts draws without measuring or running anything, decision 035).
 */
export function BusinessCharts({ insights, days }: { insights: Insights; days: number }) {
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.home.insights.${key}`, options);
  const labels = insights.days.map(formatDay);
  const dayAxis = { categories: labels, categoryLabel: t('dayAxis'), formatTick };
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
          {...dayAxis}
          height={WITH_LEGEND}
          valueLabel={t('signUpsAxis')}
          stacked
          legend
          series={[
            { values: insights.signUps.epic, label: t('epic') },
            { values: insights.signUps.email, label: t('email') },
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
          {...dayAxis}
          height={HEIGHT}
          valueLabel={t('queriesAxis')}
          series={[{ values: insights.queriesPerDay, label: t('queriesAxis') }]}
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
          {...dayAxis}
          height={HEIGHT}
          area
          valueLabel={t('pluginSignInsAxis')}
          series={[{ values: insights.pluginSignIns, label: t('pluginSignInsAxis') }]}
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
          {...dayAxis}
          height={HEIGHT}
          valueLabel={t('messagesAxis')}
          series={[{ values: insights.messagesStored, label: t('messagesAxis') }]}
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
        <HorizontalBarChart
          height={HEIGHT}
          categories={insights.subscriptionsByStatus.map((row) => statusLabel(row.status))}
          valueLabel={t('subscriptionsAxis')}
          formatTick={formatTick}
          series={[{ values: insights.subscriptionsByStatus.map((row) => row.count), label: t('subscriptionsAxis') }]}
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
          categories={insights.monthlyRecurringRevenue.map((row) => row.currency.toUpperCase())}
          categoryLabel={t('currencyColumn')}
          valueLabel={t('revenueAxis')}
          formatTick={formatTick}
          // Each currency in its own major units (dollars, euros, yen): bars are never converted.
          series={[
            { values: insights.monthlyRecurringRevenue.map((row) => toMajorUnits(row.amount, row.currency)), label: t('revenueAxis') },
          ]}
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
        <DonutChart
          height={HEIGHT}
          slices={[
            { value: converted, label: t('converted') },
            { value: ended - converted, label: t('notConverted') },
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
          {...dayAxis}
          height={HEIGHT}
          valueLabel={t('creditsAxis')}
          series={[{ values: insights.creditsSold, label: t('creditsAxis') }]}
        />
      </ChartFigure>
    </Box>
  );
}
