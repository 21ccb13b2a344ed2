import { allowanceState, type OrgRemaining, type UsageHistory, type UsageSummary } from '../../../contract/usage';
import { formatCount, formatDay } from '../../ui/format';

/** What the Usage section says about usage (issue 26), apart from how it is drawn. */

const queries = (n: number): string => `${formatCount(n)} ${n === 1 ? 'query' : 'queries'}`;

/** A plan's name, or Free for the free allowance. */
export const planName = (plan: string | null): string => plan ?? 'Free';

/** A project or engine version the plugin did not say. */
export const NOT_GIVEN = 'Not given';
export const givenOrNot = (value: string): string => value || NOT_GIVEN;

/** This period's allowance as the section shows it: a bar only when there is a number to fill. */
export type AllowanceView =
  { kind: 'unlimited'; text: string } | { kind: 'none'; text: string } | { kind: 'metered'; used: number; allowance: number; text: string };

export function allowanceView(summary: Pick<UsageSummary, 'allowance' | 'allowanceUsed'>): AllowanceView {
  const state = allowanceState(summary);
  switch (state.kind) {
    case 'unlimited':
      return { kind: 'unlimited', text: `Unlimited queries: ${formatCount(state.used)} used this period` };
    case 'none':
      return { kind: 'none', text: 'You have no monthly allowance: each query is paid with a pack credit.' };
    case 'metered':
      return {
        kind: 'metered',
        used: state.filled,
        allowance: state.allowance,
        text: `${formatCount(state.used)} of ${queries(state.allowance)} used this period`,
      };
  }
}

/** The text alternative of the per-day chart: the total, and the busiest day when there was one. */
export function historySummary(history: Pick<UsageHistory, 'days' | 'units'>): string {
  const range = `the last ${history.days.length} days`;
  const total = history.units.reduce((sum, n) => sum + n, 0);
  if (total === 0) return `No queries in ${range}.`;
  const busiest = history.units.reduce((best, n, i) => (n > (history.units[best] ?? 0) ? i : best), 0);
  const day = history.days[busiest] ?? '';
  return `${queries(total)} in ${range}; the most on ${formatDay(day)} (${formatCount(history.units[busiest] ?? 0)}).`;
}

/** Queries the AI service holds while they run (issue 39): counted as used until settled. */
export function inProgressText(held: number): string {
  return `${queries(held)} in progress: counted as used until the AI service settles ${held === 1 ? 'it' : 'them'}.`;
}

/** Who pays first for a seat holder's queries, and what it has left for them (issue 38). */
export function orgPaysText(org: OrgRemaining): string {
  const seat =
    org.seat === null
      ? 'Unlimited queries on your seat'
      : `${formatCount(org.seat)} ${org.seat === 1 ? 'query' : 'queries'} left on your seat`;
  const limit = org.limit === null ? '' : ', within the monthly limit it set for you';
  return `${org.name} pays first: ${seat} this period, then ${formatCount(org.pool)} shared ${org.pool === 1 ? 'credit' : 'credits'}${limit}.`;
}
