import { describe, expect, it } from 'vitest';
import { allowanceState } from '../../contract/usage';

describe('the allowance as every screen shows it', () => {
  it.each([
    [
      { allowance: null, allowanceUsed: 42 },
      { kind: 'unlimited', used: 42 },
    ],
    [
      { allowance: 0, allowanceUsed: 0 },
      { kind: 'none', used: 0 },
    ],
    [
      { allowance: 500, allowanceUsed: 120 },
      { kind: 'metered', used: 120, allowance: 500, filled: 120 },
    ],
    [
      { allowance: 500, allowanceUsed: 500 },
      { kind: 'metered', used: 500, allowance: 500, filled: 500 },
    ],
    // A smaller plan mid-period: the text says what was used, the bar stops full.
    [
      { allowance: 100, allowanceUsed: 340 },
      { kind: 'metered', used: 340, allowance: 100, filled: 100 },
    ],
  ] as const)('%o → %o', (summary, state) => {
    expect(allowanceState(summary)).toEqual(state);
  });
});
