import type { GroveMetrics } from '../../contract/admin';
import type { ConsoleHome } from '../../contract/boot';
import { DEFAULT_INSIGHT_RANGE, type InsightRange, type Insights } from '../../contract/insights';

interface ConsoleHomeDeps {
  adminUsers: { totalUsers(): Promise<number>; subscribersWithoutEpic(): Promise<number> };
  insights: { forRange(days: InsightRange): Promise<Insights> };
}

/**
 * The console Home's figures (§2 Home tab, issue 14): what its API routes answer, and what the
 * server renders /admin with, so the Home shows them before the console's JavaScript has run (issue 28).
 */
export function createConsoleHomeService({ adminUsers, insights }: ConsoleHomeDeps) {
  const groveMetrics = async (): Promise<GroveMetrics> => {
    const [totalUsers, subscribersWithoutEpic] = await Promise.all([adminUsers.totalUsers(), adminUsers.subscribersWithoutEpic()]);
    return { userStats: { totalUsers, subscribersWithoutEpic } };
  };
  return {
    groveMetrics,
    /** The Home's first reads: Grove Users and the default range's insights. */
    async home(): Promise<ConsoleHome> {
      const [metrics, figures] = await Promise.all([groveMetrics(), insights.forRange(DEFAULT_INSIGHT_RANGE)]);
      return { groveMetrics: metrics, range: DEFAULT_INSIGHT_RANGE, insights: figures };
    },
  };
}
