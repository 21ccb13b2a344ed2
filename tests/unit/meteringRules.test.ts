import { describe, expect, it } from 'vitest';
import { queriesOf } from '../../contract/usage';
import {
  allowanceLeft,
  billingPeriod,
  charge,
  governingSubscription,
  keepsAllowance,
  noticesDue,
  periodAllowance,
  spend,
  useTime,
  utcMonth,
  type NoticeState,
  type PlanSubscription,
  type UsageNotice,
} from '../../server/services/metering/rules';

const plan = (status: string, creditsAmount: string | undefined, period?: [number, number]): PlanSubscription => ({
  status,
  creditsAmount,
  currentPeriodStart: period?.[0] ?? null,
  currentPeriodEnd: period?.[1] ?? null,
});

describe('a credits_amount in queries', () => {
  it.each([
    ['500', 500],
    [' 42 ', 42],
    ['0', 0],
    ['', null],
    [undefined, null],
    ['unlimited', null],
    ['12.5', null],
    ['-3', null],
  ])('%j grants %j', (amount, queries) => expect(queriesOf(amount)).toBe(queries));
});

describe('which statuses keep their plan', () => {
  it.each([
    ['active', true],
    ['trialing', true],
    // Stripe is still retrying the card; the customer is inside a period they were billed for.
    ['past_due', true],
    ['unpaid', false],
    ['paused', false],
    ['canceled', false],
    ['incomplete', false],
    ['incomplete_expired', false],
  ])('%s: %s', (status, keeps) => expect(keepsAllowance(status)).toBe(keeps));
});

describe('the subscription that sets the allowance', () => {
  it.each([
    ['none', [], null],
    ['one live plan', [plan('active', '100')], 0],
    ['a live plan beside a canceled bigger one', [plan('canceled', '900'), plan('active', '100')], 1],
    ['the larger of two live plans', [plan('active', '100'), plan('trialing', '300')], 1],
    ['Unlimited above any number', [plan('active', '100000'), plan('past_due', undefined)], 1],
    ['only plans that no longer keep one', [plan('unpaid', '100'), plan('paused', '50')], null],
  ])('%s', (_name, subscriptions: PlanSubscription[], index: number | null) => {
    expect(governingSubscription(subscriptions)).toBe(index === null ? null : subscriptions[index]);
  });
});

describe("a period's allowance", () => {
  it.each([
    ['a plan of 500', plan('active', '500'), 0, 500],
    ['an Unlimited plan', plan('trialing', undefined), 0, null],
    ['no plan, no free allowance', null, 0, 0],
    ['no plan, FREE_QUERIES_PER_MONTH=25', null, 25, 25],
  ])('%s', (_name, subscription, free, allowance) => expect(periodAllowance(subscription, free)).toBe(allowance));
});

describe('the billing period of a use', () => {
  const now = Date.UTC(2026, 10, 25, 12);
  const s = (iso: string) => Date.parse(iso) / 1000;
  it.each([
    ['no subscription: the UTC month', null, [Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1)]],
    [
      "the subscription's current period",
      plan('active', '100', [s('2026-11-10T08:00:00Z'), s('2026-12-10T08:00:00Z')]),
      [Date.parse('2026-11-10T08:00:00Z'), Date.parse('2026-12-10T08:00:00Z')],
    ],
    [
      'a period the mirror has not renewed yet: the UTC month',
      plan('active', '100', [s('2026-10-10T08:00:00Z'), s('2026-11-10T08:00:00Z')]),
      [Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1)],
    ],
    ['a period the mirror does not know: the UTC month', plan('active', '100'), [Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1)]],
  ])('%s', (_name, subscription, [start, end]) => expect(billingPeriod(subscription, now)).toEqual({ start, end }));

  it('takes December into January', () => {
    expect(utcMonth(Date.UTC(2026, 11, 31, 23, 59))).toEqual({ start: Date.UTC(2026, 11, 1), end: Date.UTC(2027, 0, 1) });
  });
});

describe('paying for a use', () => {
  it.each([
    ['from the allowance', 1, { allowanceLeft: 10, credits: 5 }, { allowance: 1, credits: 0 }],
    ['the allowance first, then credits', 4, { allowanceLeft: 1, credits: 5 }, { allowance: 1, credits: 3 }],
    ['credits once the allowance is spent', 2, { allowanceLeft: 0, credits: 5 }, { allowance: 0, credits: 2 }],
    ['an overspent allowance counts as none', 2, { allowanceLeft: -3, credits: 2 }, { allowance: 0, credits: 2 }],
    ['Unlimited never touches credits', 50, { allowanceLeft: null, credits: 0 }, { allowance: 50, credits: 0 }],
    ['refused when both together fall short', 7, { allowanceLeft: 2, credits: 4 }, null],
    ['refused with nothing left', 1, { allowanceLeft: 0, credits: 0 }, null],
    ['exactly what is left', 6, { allowanceLeft: 2, credits: 4 }, { allowance: 2, credits: 4 }],
  ])('%s', (_name, units, balance, paid) => expect(charge(units, balance)).toEqual(paid));

  it('leaves the balance less what was paid', () => {
    expect(spend({ allowanceLeft: 1, credits: 5 }, { allowance: 1, credits: 3 })).toEqual({ allowanceLeft: 0, credits: 2 });
    expect(spend({ allowanceLeft: null, credits: 5 }, { allowance: 9, credits: 0 })).toEqual({ allowanceLeft: null, credits: 5 });
  });
});

describe('the notices a use sets off', () => {
  const state = (overrides: Partial<NoticeState>): NoticeState => ({
    allowance: 100,
    usedBefore: 0,
    usedAfter: 1,
    sent80: false,
    sent100: false,
    creditsBefore: 0,
    creditsAfter: 0,
    ...overrides,
  });
  it.each<[string, Partial<NoticeState>, UsageNotice[]]>([
    ['below 80 %', { usedBefore: 10, usedAfter: 79 }, []],
    ['reaching 80 % exactly', { usedBefore: 79, usedAfter: 80 }, ['allowance_80']],
    ['already past 80 %', { usedBefore: 80, usedAfter: 81 }, []],
    ['80 % already sent', { usedBefore: 79, usedAfter: 85, sent80: true }, []],
    ['reaching 100 %', { usedBefore: 99, usedAfter: 100 }, ['allowance_100']],
    ['past 80 % and 100 % in one use: only 100 %', { usedBefore: 50, usedAfter: 100 }, ['allowance_100']],
    ['100 % already sent', { usedBefore: 99, usedAfter: 100, sent80: true, sent100: true }, []],
    ['Unlimited never notifies', { allowance: null, usedBefore: 0, usedAfter: 1_000_000 }, []],
    ['no allowance (0): nothing to use up', { allowance: 0, usedBefore: 0, usedAfter: 0 }, []],
    ['the last credit taken', { allowance: 0, usedBefore: 0, usedAfter: 0, creditsBefore: 2, creditsAfter: 0 }, ['credits_exhausted']],
    ['credits left', { creditsBefore: 3, creditsAfter: 2 }, []],
    ['no credits before', { creditsBefore: 0, creditsAfter: 0 }, []],
    [
      'allowance and credits at once',
      { usedBefore: 99, usedAfter: 100, creditsBefore: 1, creditsAfter: 0 },
      ['allowance_100', 'credits_exhausted'],
    ],
    ['small allowance: 4 of 5 is 80 %', { allowance: 5, usedBefore: 3, usedAfter: 4 }, ['allowance_80']],
  ])('%s', (_name, overrides, expected) => {
    expect(noticesDue(state(overrides))).toEqual(expected);
  });
});

describe('what is left of an allowance', () => {
  it.each<[number | null, number, number | null]>([
    [null, 10, null],
    [10, 3, 7],
    [10, 10, 0],
    // A plan changed to a smaller one mid-period: nothing left, never a negative figure.
    [10, 12, 0],
    [0, 0, 0],
  ])('allowance %s, used %s: %s', (allowance, used, left) => {
    expect(allowanceLeft(allowance, used)).toBe(left);
  });
});

describe('when a use happened (its occurredAt, issue 36)', () => {
  const DAY = 86_400_000;
  const arrival = Date.UTC(2026, 10, 27, 12);
  it.each([
    ['none: the arrival', undefined, { at: arrival }],
    ['a minute before', arrival - 60_000, { at: arrival - 60_000 }],
    ['exactly the window (400 days) before', arrival - 400 * DAY, { at: arrival - 400 * DAY }],
    ['a millisecond older than the window', arrival - 400 * DAY - 1, { refused: 'too_old' }],
    ['1970', 0, { refused: 'too_old' }],
    ['an hour after (another clock): the arrival', arrival + 3_600_000, { at: arrival }],
    ['exactly a day after: the arrival', arrival + DAY, { at: arrival }],
    ['a millisecond more than a day after', arrival + DAY + 1, { refused: 'in_future' }],
    ['year 9999', Date.UTC(9999, 0, 1), { refused: 'in_future' }],
  ])('%s', (_name, occurredAt, expected) => expect(useTime(occurredAt, arrival, 400)).toEqual(expected));
});
