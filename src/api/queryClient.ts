import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import type { BootData } from '../../contract/boot';
import { USER_QUERY_KEY } from './auth';
import { CURRENT_BUILD_QUERY_KEY, RELEASES_QUERY_KEY } from './builds';
import { GROVE_METRICS_QUERY_KEY, insightsQueryKey } from './consoleHomeKeys';
import { errorFromResponse, request } from './client';

/** §7: the default data query is a GET of the query key as the path. */
export const getQueryKeyPath: QueryFunction = async ({ queryKey }) => {
  const res = await request(String(queryKey[0]));
  if (!res.ok) throw await errorFromResponse(res);
  return res.json();
};

/** §9 defaults: no retries, no refetch on focus or interval, never stale, 5-minute cache. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryKeyPath,
        retry: false,
        // An errored query is not fetched again just because another screen starts using it.
        retryOnMount: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
        gcTime: 5 * 60_000,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * A query client holding what the page was served with (contract/boot.ts), so the first render
 * in the browser matches the server's and asks nothing the page already knows.
 */
export function seededQueryClient({ currentBuild, releases, currentUser, signedOut, consoleHome }: BootData): QueryClient {
  const queryClient = createQueryClient();
  if (currentBuild) queryClient.setQueryData(CURRENT_BUILD_QUERY_KEY, currentBuild);
  if (releases) queryClient.setQueryData(RELEASES_QUERY_KEY, releases);
  if (consoleHome) {
    queryClient.setQueryData(GROVE_METRICS_QUERY_KEY, consoleHome.groveMetrics);
    queryClient.setQueryData(insightsQueryKey(consoleHome.range), consoleHome.insights);
  }
  if (currentUser) queryClient.setQueryData(USER_QUERY_KEY, currentUser);
  else if (signedOut) queryClient.setQueryData(USER_QUERY_KEY, null);
  return queryClient;
}
