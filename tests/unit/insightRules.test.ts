import { describe, expect, it } from 'vitest';
import {
  byCountDescending,
  dailySeries,
  dayLabel,
  monthlyAmount,
  monthlyRecurringRevenue,
  rangeDays,
  trialConversions,
  utcDay,
} from '../../server/services/insightRules';

describe('UTC days', () => {
  it.each<[string, string, string]>([
    ['midnight UTC starts the day', '2026-11-23T00:00:00.000Z', '2026-11-23'],
    ['the last millisecond ends it', '2026-11-23T23:59:59.999Z', '2026-11-23'],
    ['late evening in New York is the next UTC day', '2026-11-23T20:30:00-05:00', '2026-11-24'],
    ['early morning in Tokyo is the previous UTC day', '2026-11-24T06:00:00+09:00', '2026-11-23'],
    ['before 1970', '1969-12-31T12:00:00.000Z', '1969-12-31'],
  ])('%s', (_name, instant, day) => {
    expect(dayLabel(utcDay(Date.parse(instant)))).toBe(day);
  });

  it.each<[number, string, string]>([
    [7, '2026-11-17', '2026-11-23'],
    [30, '2026-10-25', '2026-11-23'],
    [90, '2026-08-26', '2026-11-23'],
  ])('the last %i days end with today', (length, first, last) => {
    const range = rangeDays(Date.parse('2026-11-23T15:00:00Z'), length);
    expect([dayLabel(range.first), dayLabel(range.last)]).toEqual([first, last]);
    expect(range.last - range.first + 1).toBe(length);
  });
});

describe('daily series', () => {
  it.each<[string, { day: number; amount: number }[], number[]]>([
    ['an empty range is all zeros', [], [0, 0, 0]],
    ['days without rows are zero', [{ day: 11, amount: 4 }], [0, 4, 0]],
    [
      'rows outside the range are left out',
      [
        { day: 9, amount: 1 },
        { day: 13, amount: 1 },
        { day: 12, amount: 2 },
      ],
      [0, 0, 2],
    ],
    [
      'amounts of one day add up',
      [
        { day: 10, amount: 1 },
        { day: 10, amount: 2 },
      ],
      [3, 0, 0],
    ],
  ])('%s', (_name, rows, series) => {
    expect(dailySeries(rows, 10, 12)).toEqual(series);
  });
});

describe('monthly recurring revenue', () => {
  it.each<[string, number | null, string | null, number | null, number | null]>([
    ['a monthly price is itself', 2000, 'month', 1, 2000],
    ['a yearly price counts a twelfth', 24_000, 'year', 1, 2000],
    ['every 3 months counts a third', 6000, 'month', 3, 2000],
    ['a weekly price counts 52/12 of itself', 1200, 'week', 1, 5200],
    ['every 2 weeks counts 26/12', 1200, 'week', 2, 2600],
    ['a daily price counts 365/12', 100, 'day', 1, 3041.6666666666665],
    ['a one-time price does not recur', 2000, null, null, null],
    ['a price Stripe computes has no amount', null, 'month', 1, null],
    ['an unknown interval counts nothing', 2000, 'fortnight', 1, null],
    ['a missing interval count is one', 2000, 'month', null, 2000],
  ])('%s', (_name, unitAmount, interval, count, expected) => {
    const amount = monthlyAmount(unitAmount, interval, count);
    if (expected === null) expect(amount).toBeNull();
    else expect(amount).toBeCloseTo(expected, 6);
  });

  it('adds up per currency, rounds once, largest first', () => {
    expect(
      monthlyRecurringRevenue([
        { currency: 'usd', unitAmount: 1000, interval: 'year', intervalCount: 1, subscriptions: 3 }, // 3 × 83.33…
        { currency: 'USD', unitAmount: 2000, interval: 'month', intervalCount: 1, subscriptions: 2 },
        { currency: 'eur', unitAmount: 4900, interval: 'month', intervalCount: 1, subscriptions: 1 },
        { currency: 'gbp', unitAmount: null, interval: 'month', intervalCount: 1, subscriptions: 5 },
        { currency: 'jpy', unitAmount: 500, interval: 'month', intervalCount: 1, subscriptions: 0 },
      ]),
    ).toEqual([
      { currency: 'eur', amount: 4900, subscriptions: 1 },
      { currency: 'usd', amount: 4250, subscriptions: 5 },
    ]);
  });

  it('is empty without paying subscriptions', () => {
    expect(monthlyRecurringRevenue([])).toEqual([]);
  });
});

describe('trial conversions', () => {
  it.each<[string, { status: string; count: number }[], { ended: number; converted: number }]>([
    ['no trial ended', [], { ended: 0, converted: 0 }],
    ['active ones converted', [{ status: 'active', count: 3 }], { ended: 3, converted: 3 }],
    [
      'past due ones went on to billing',
      [
        { status: 'past_due', count: 1 },
        { status: 'active', count: 1 },
      ],
      { ended: 2, converted: 2 },
    ],
    [
      'canceled, paused, unpaid and incomplete ones did not',
      [
        { status: 'canceled', count: 2 },
        { status: 'paused', count: 1 },
        { status: 'unpaid', count: 1 },
        { status: 'incomplete_expired', count: 1 },
        { status: 'active', count: 5 },
      ],
      { ended: 10, converted: 5 },
    ],
    [
      'one still trialing has not ended',
      [
        { status: 'trialing', count: 4 },
        { status: 'active', count: 1 },
      ],
      { ended: 1, converted: 1 },
    ],
  ])('%s', (_name, rows, expected) => {
    expect(trialConversions(rows)).toEqual(expected);
  });
});

describe('subscriptions by status', () => {
  it('reads from the largest, ties by name', () => {
    expect(
      byCountDescending([
        { status: 'canceled', count: 2 },
        { status: 'active', count: 9 },
        { status: 'trialing', count: 2 },
      ]).map((row) => row.status),
    ).toEqual(['active', 'canceled', 'trialing']);
  });
});
