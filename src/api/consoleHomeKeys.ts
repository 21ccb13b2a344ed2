import type { InsightRange } from '../../contract/insights';

// The console Home's queries, apart from src/api/admin.ts: the page's boot data seeds them
// (src/api/queryClient.ts), and the portal's code must not carry the console's API.

/** §2 Home tab: Grove Users. */
export const GROVE_METRICS_QUERY_KEY = ['admin', 'grove-metrics'] as const;

/** The Home's figures of the business over a range of days (issue 14). */
export const insightsQueryKey = (range: InsightRange) => ['admin', 'insights', range] as const;

/** The Home's installs and queries per plugin version (issue 41). */
export const PLUGIN_ADOPTION_QUERY_KEY = ['admin', 'plugin-versions'] as const;
