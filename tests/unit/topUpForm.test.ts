import { describe, expect, it } from 'vitest';
import type { TopUp, TopUpPack } from '../../contract/topUp';
import { capText, formValuesOf, packLabel, topUpFormSchema, type TopUpFormValues } from '../../src/portal/dashboard/topUp/topUpForm';
import { lastTopUpText, monthText, ruleText } from '../../src/portal/dashboard/topUp/topUpStatus';

const PACK: TopUpPack = { priceId: 'price_500', name: '500 queries', credits: 500, amount: 999, currency: 'usd' };
const BIG: TopUpPack = { priceId: 'price_2000', name: '2,000 queries', credits: 2000, amount: 2999, currency: 'usd' };
const YEN: TopUpPack = { priceId: 'price_yen', name: 'Pack', credits: 100, amount: 1500, currency: 'jpy' };

function view(overrides: Partial<TopUp> = {}): TopUp {
  return { settings: null, paused: null, thisMonth: null, last: null, savedCard: true, packs: [PACK, BIG], ...overrides };
}

const values = (overrides: Partial<TopUpFormValues> = {}): TopUpFormValues => ({
  enabled: true,
  threshold: '100',
  priceId: PACK.priceId,
  monthlyCap: '30',
  ...overrides,
});

describe('the top-up form (issue 39)', () => {
  it('starts from the saved settings, else a threshold of 100, the cheapest pack and a cap of three', () => {
    expect(formValuesOf(view())).toEqual({ enabled: false, threshold: '100', priceId: 'price_500', monthlyCap: '29.97' });
    const saved = { enabled: true, threshold: 250, priceId: BIG.priceId, monthlyCap: 9000 };
    expect(formValuesOf(view({ settings: saved }))).toEqual({
      enabled: true,
      threshold: '250',
      priceId: 'price_2000',
      monthlyCap: '90.00',
    });
    expect(formValuesOf(view({ packs: [YEN] }))).toEqual({ enabled: false, threshold: '100', priceId: 'price_yen', monthlyCap: '4500' });
  });

  it.each([
    [9999, 'usd', '99.99'],
    [1500, 'jpy', '1500'],
    [1500, 'kwd', '1.500'],
  ])('writes %i %s in the cap field as %s', (minor, currency, text) => expect(capText(minor, currency)).toBe(text));

  it('names a pack by what it adds and costs', () => {
    expect(packLabel(BIG)).toBe('2,000 queries: 2,000 credits for $29.99');
  });

  it.each<[string, Partial<TopUpFormValues>, object]>([
    ['a cap in dollars', {}, { enabled: true, threshold: 100, priceId: 'price_500', monthlyCap: 3000 }],
    ['a cap with cents', { monthlyCap: ' 29.99 ' }, { monthlyCap: 2999 }],
    ['exactly one pack', { monthlyCap: '9.99' }, { monthlyCap: 999 }],
    ['off, still checked', { enabled: false }, { enabled: false }],
    ['a threshold with spaces', { threshold: ' 450 ' }, { threshold: 450 }],
  ])('accepts %s', (_case, changes, parsed) => {
    const result = topUpFormSchema([PACK, BIG]).safeParse(values(changes));
    expect(result.success && result.data).toMatchObject(parsed);
  });

  it.each<[string, Partial<TopUpFormValues>, string, string]>([
    ['a cap under one pack', { monthlyCap: '9.98' }, 'monthlyCap', 'The monthly cap must be at least $9.99, the price of one pack'],
    [
      'a cap of the bigger pack under its price',
      { priceId: 'price_2000', monthlyCap: '20' },
      'monthlyCap',
      'The monthly cap must be at least $29.99, the price of one pack',
    ],
    ['a cap that is no amount', { monthlyCap: 'thirty' }, 'monthlyCap', 'Enter the monthly cap as an amount of money, such as 30 or 29.99'],
    [
      'a cap with a third decimal',
      { monthlyCap: '29.999' },
      'monthlyCap',
      'Enter the monthly cap as an amount of money, such as 30 or 29.99',
    ],
    ['a cap far too large', { monthlyCap: '10000000' }, 'monthlyCap', 'The monthly cap can be at most $1,000,000.00'],
    ['a threshold of none', { threshold: '' }, 'threshold', 'Enter the credits as a whole number'],
    ['a fractional threshold', { threshold: '2.5' }, 'threshold', 'Enter the credits as a whole number'],
    ['a threshold of 0', { threshold: '0' }, 'threshold', 'Top up when credits fall below 1 or more'],
    ['a pack not on sale', { priceId: 'price_gone' }, 'priceId', 'Choose a credit pack'],
  ])('refuses %s', (_case, changes, field, message) => {
    const result = topUpFormSchema([PACK, BIG]).safeParse(values(changes));
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((issue) => issue.path[0] === field)?.message).toBe(message);
  });

  it('takes whole yen only', () => {
    const schema = topUpFormSchema([YEN]);
    expect(schema.safeParse(values({ priceId: 'price_yen', monthlyCap: '4500' }))).toMatchObject({
      success: true,
      data: { monthlyCap: 4500 },
    });
    expect(schema.safeParse(values({ priceId: 'price_yen', monthlyCap: '4500.5' })).success).toBe(false);
  });
});

describe('what the Usage section says of top-up (issue 39)', () => {
  const settings = { enabled: true, threshold: 1200, priceId: PACK.priceId, monthlyCap: 3000 };
  const month = { spent: 999, currency: 'usd' };
  const at = '2026-11-20T12:00:00.000Z';
  const last = (status: NonNullable<TopUp['last']>['status']) => ({ at, status, credits: 500, amount: 999, currency: 'usd' });

  it.each<[string, TopUp, string]>([
    ['never set', view(), 'Automatic top-up is off.'],
    ['off', view({ settings: { ...settings, enabled: false }, thisMonth: month }), 'Automatic top-up is off.'],
    [
      'on',
      view({ settings, thisMonth: month }),
      'When your credits fall below 1,200, Sage buys 500 credits for $9.99 with your saved card, at most $30.00 a month.',
    ],
  ])('states the rule when %s', (_case, shown, text) => expect(ruleText(shown)).toBe(text));

  it('counts this month against the cap', () => {
    expect(monthText(view({ settings, thisMonth: month }))).toBe('This month: $9.99 of $30.00');
    expect(monthText(view())).toBeNull();
  });

  it.each<[NonNullable<TopUp['last']>['status'], string]>([
    ['pending', 'Buying 500 credits for $9.99 now.'],
    ['paid', 'Buying 500 credits for $9.99 now.'],
    ['credited', 'Last top-up: 500 credits for $9.99 on November 20, 2026.'],
    ['capped', 'The monthly cap stopped a top-up of 500 credits for $9.99 on November 20, 2026. Raise the cap, or buy credits by hand.'],
    ['declined', 'Your card was declined for a top-up of 500 credits for $9.99 on November 20, 2026.'],
    ['authentication_required', 'Your bank asked you to confirm a top-up of 500 credits for $9.99 on November 20, 2026.'],
    ['failed', 'A top-up of 500 credits on November 20, 2026 could not be bought. The next one will be tried as usual.'],
  ])('tells the last top-up when %s', (status, text) => expect(lastTopUpText(view({ last: last(status) }))).toBe(text));
});
