import { describe, expect, it } from 'vitest';
import {
  allowanceView,
  givenOrNot,
  historySummary,
  inProgressText,
  orgPaysText,
  planName,
  type AllowanceView,
} from '../../src/portal/dashboard/usageRules';

describe('the Usage section: this period’s allowance (issue 26)', () => {
  it.each<[string, number | null, number, AllowanceView]>([
    ['a plan part used', 500, 120, { kind: 'metered', used: 120, allowance: 500, text: '120 of 500 queries used this period' }],
    ['a plan untouched', 500, 0, { kind: 'metered', used: 0, allowance: 500, text: '0 of 500 queries used this period' }],
    ['a plan used up', 500, 500, { kind: 'metered', used: 500, allowance: 500, text: '500 of 500 queries used this period' }],
    [
      'thousands grouped',
      10_000,
      1_234,
      { kind: 'metered', used: 1_234, allowance: 10_000, text: '1,234 of 10,000 queries used this period' },
    ],
    ['an allowance of one', 1, 0, { kind: 'metered', used: 0, allowance: 1, text: '0 of 1 query used this period' }],
    // A smaller plan mid-period: the words say what was used, the bar stops full.
    [
      'more used than a smaller plan allows',
      100,
      150,
      { kind: 'metered', used: 100, allowance: 100, text: '150 of 100 queries used this period' },
    ],
    ['Unlimited', null, 42, { kind: 'unlimited', text: 'Unlimited queries: 42 used this period' }],
    ['no allowance (free)', 0, 0, { kind: 'none', text: 'You have no monthly allowance: each query is paid with a pack credit.' }],
  ])('%s', (_case, allowance, allowanceUsed, expected) => {
    expect(allowanceView({ allowance, allowanceUsed })).toEqual(expected);
  });
});

describe('the Usage section: words', () => {
  it.each([
    ['Sage Pro', 'Sage Pro'],
    [null, 'Free'],
  ])('plan %j is shown as %j', (plan, shown) => {
    expect(planName(plan)).toBe(shown);
  });

  it.each([
    ['', 'Not given'],
    ['5.4', '5.4'],
  ])('%j is shown as %j', (value, shown) => {
    expect(givenOrNot(value)).toBe(shown);
  });

  it.each([
    [['2026-11-01', '2026-11-02', '2026-11-03'], [0, 0, 0], 'No queries in the last 3 days.'],
    [['2026-11-01', '2026-11-02', '2026-11-03'], [2, 1200, 7], '1,209 queries in the last 3 days; the most on Nov 2 (1,200).'],
    [['2026-11-01', '2026-11-02'], [1, 0], '1 query in the last 2 days; the most on Nov 1 (1).'],
    // A tie goes to the earlier day.
    [['2026-11-01', '2026-11-02'], [3, 3], '6 queries in the last 2 days; the most on Nov 1 (3).'],
  ])('the chart of %j with %j reads %j', (days, units, text) => {
    expect(historySummary({ days, units })).toBe(text);
  });
});

describe('who pays first for a seat holder', () => {
  const org = { orgId: 'o1', name: 'Grove Studio', periodEnd: '2026-12-01T00:00:00.000Z' };
  it.each([
    [{ seat: 12, pool: 300, limit: null }, 'Grove Studio pays first: 12 queries left on your seat this period, then 300 shared credits.'],
    [
      { seat: 1, pool: 1, limit: 1 },
      'Grove Studio pays first: 1 query left on your seat this period, then 1 shared credit, within the monthly limit it set for you.',
    ],
    [{ seat: null, pool: 0, limit: null }, 'Grove Studio pays first: Unlimited queries on your seat this period, then 0 shared credits.'],
  ])('%j', (left, text) => {
    expect(orgPaysText({ ...org, ...left })).toBe(text);
  });
});

describe('the Usage section: queries in progress (issue 39)', () => {
  it.each([
    [1, '1 query in progress: counted as used until the AI service settles it.'],
    [3, '3 queries in progress: counted as used until the AI service settles them.'],
    [1200, '1,200 queries in progress: counted as used until the AI service settles them.'],
  ])('%i held', (held, text) => expect(inProgressText(held)).toBe(text));
});
