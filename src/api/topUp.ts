import { queryOptions, useQuery } from '@tanstack/react-query';
import { topUpSchema, type TopUp, type TopUpSettings } from '../../contract/topUp';
import { getJson, put } from './client';
import { USAGE_QUERY_KEY, USAGE_STALE_MS } from './usage';

/** Automatic top-up (issue 39): the user's settings, whether it is paused, and this month's top-ups. */

const TOP_UP_PATH = '/api/usage/top-up';

/** Under the usage key: a top-up changes the credits, and reading usage afresh reads this too. */
export const topUpQuery = queryOptions({
  queryKey: [...USAGE_QUERY_KEY, 'top-up'],
  queryFn: (): Promise<TopUp> => getJson(TOP_UP_PATH, topUpSchema),
  staleTime: USAGE_STALE_MS,
});

export const useTopUp = () => useQuery(topUpQuery);

/** `PUT /api/usage/top-up`: the settings whole; answers them as `GET` does. */
export const saveTopUp = (settings: TopUpSettings): Promise<TopUp> => put(TOP_UP_PATH, topUpSchema, settings);
