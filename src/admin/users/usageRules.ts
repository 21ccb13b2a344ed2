import type { UsageSummary } from '../../../contract/usage';

/** What the console's Usage panel says about a user's usage (issue 26), apart from how it is drawn. */

/** This period's allowance: a bar only when there is a number to fill. */
export type AllowanceState =
  | { kind: 'unlimited'; used: number }
  | { kind: 'none'; used: number }
  | { kind: 'metered'; used: number; allowance: number; filled: number };

export function allowanceState({ allowance, allowanceUsed }: Pick<UsageSummary, 'allowance' | 'allowanceUsed'>): AllowanceState {
  if (allowance === null) return { kind: 'unlimited', used: allowanceUsed };
  if (allowance === 0) return { kind: 'none', used: allowanceUsed };
  // A plan changed to a smaller one mid-period can leave more used than it allows: the bar stops full.
  return { kind: 'metered', used: allowanceUsed, allowance, filled: Math.min(allowanceUsed, allowance) };
}
