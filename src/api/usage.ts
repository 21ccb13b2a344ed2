import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { usageHistorySchema, usageSummarySchema, type UsageHistory, type UsageRange, type UsageSummary } from '../../contract/usage';
import { getJson } from './client';

/** The signed-in user's usage (issue 26): what this period used and has left, and where queries went. */

export const USAGE_QUERY_KEY = ['usage'] as const;
/** This period's uses as a CSV download (the server names the file). */
export const USAGE_PERIOD_CSV_PATH = '/api/usage/period.csv';
/** The plugin keeps spending while the dashboard is open: a section opened again reads afresh after this. */
export const USAGE_STALE_MS = 30_000;

/** `GET /api/usage`: this period's plan, allowance, what was used and what is left. */
export const fetchUsageSummary = (): Promise<UsageSummary> => getJson('/api/usage', usageSummarySchema);

/** `GET /api/usage/history?days=`: queries per UTC day, by Unreal project and by engine version. */
export const fetchUsageHistory = (days: UsageRange): Promise<UsageHistory> =>
  getJson(`/api/usage/history?days=${days}`, usageHistorySchema);

export const usageSummaryQuery = queryOptions({
  queryKey: [...USAGE_QUERY_KEY, 'summary'],
  queryFn: fetchUsageSummary,
  staleTime: USAGE_STALE_MS,
});

export const usageHistoryQuery = (days: UsageRange) =>
  queryOptions({
    queryKey: [...USAGE_QUERY_KEY, 'history', days],
    queryFn: () => fetchUsageHistory(days),
    staleTime: USAGE_STALE_MS,
    // Another range keeps the figures on screen until its own arrive, rather than a skeleton.
    placeholderData: keepPreviousData,
  });

export const useUsageSummary = () => useQuery(usageSummaryQuery);
export const useUsageHistory = (days: UsageRange) => useQuery(usageHistoryQuery(days));
