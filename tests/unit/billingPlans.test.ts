import { describe, expect, it } from 'vitest';
import type { Price } from '../../contract/billing';
import { HttpError } from '../../src/api/client';
import type { CheckoutResponse } from '../../src/api/billing';
import {
  checkoutButtonLabel,
  checkoutFailure,
  checkoutOutcome,
  defaultPrice,
  groupPlans,
  intervalLabel,
  isPopular,
  priceText,
  queriesText,
  toPlan,
  yearlyDiscountPercent,
  type PlanPrice,
} from '../../src/billing/plans';
import { monthly, oneTime, price, product, yearly } from '../portal/billingData';

const every = (interval: 'day' | 'week' | 'month' | 'year', interval_count = 1, id = `${interval}${interval_count}`) =>
  price(id, { recurring: { interval, interval_count } });
const ids = (prices: readonly Price[]) => prices.map((p) => p.id);

describe('plan prices (§9 ordering, only active prices)', () => {
  it('orders recurring prices by week, month, year, then by count', () => {
    const plan = toPlan(product('p', [every('year'), every('month', 3), every('week'), every('month'), every('year', 2)]));
    expect(ids(plan!.prices)).toEqual(['week1', 'month1', 'month3', 'year1', 'year2']);
  });

  it('orders one-time prices by amount, cheapest first', () => {
    const plan = toPlan(product('p', [oneTime('big', 4999), oneTime('small', 499), oneTime('mid', 1999)]));
    expect(ids(plan!.prices)).toEqual(['small', 'mid', 'big']);
  });

  it.each<[string, Price[], string[]]>([
    ['inactive prices', [monthly('m', 999), { ...yearly('y', 9999), active: false }], ['m']],
    ['prices without an amount', [monthly('m', 999), { ...yearly('y', 9999), unit_amount: null }], ['m']],
  ])('leaves out %s', (_name, prices, expected) => {
    expect(ids(toPlan(product('p', prices))!.prices)).toEqual(expected);
  });

  it.each<[string, Price[], 'subscription' | 'credits']>([
    ['a recurring price', [monthly('m', 999)], 'subscription'],
    ['recurring and one-time prices', [oneTime('o', 500), monthly('m', 999)], 'subscription'],
    ['only one-time prices', [oneTime('o', 500)], 'credits'],
    ['a recurring price that is inactive', [{ ...monthly('m', 999), active: false }, oneTime('o', 500)], 'credits'],
  ])('a product with %s is a %s plan', (_name, prices, kind) => {
    expect(toPlan(product('p', prices))?.kind).toBe(kind);
  });

  it('a subscription plan offers only its recurring prices', () => {
    expect(ids(toPlan(product('p', [oneTime('o', 500), yearly('y', 9999), monthly('m', 999)]))!.prices)).toEqual(['m', 'y']);
  });

  it('a product with nothing to buy is no plan', () => {
    expect(toPlan(product('p', []))).toBeNull();
    expect(toPlan(product('p', [{ ...monthly('m', 999), active: false }]))).toBeNull();
  });
});

describe('groupPlans', () => {
  it('splits subscriptions from credit packs, each ordered by its lowest price', () => {
    const { subscriptions, credits } = groupPlans([
      product('team', [monthly('tm', 4999), yearly('ty', 49999)]),
      product('pack-l', [oneTime('l', 2999)]),
      product('pro', [yearly('py', 9999), monthly('pm', 999)]),
      product('empty', []),
      product('pack-s', [oneTime('s', 499)]),
      product('basic', [monthly('bm', 1999)]),
    ]);
    expect(subscriptions.map((p) => p.product.id)).toEqual(['pro', 'basic', 'team']);
    expect(credits.map((p) => p.product.id)).toEqual(['pack-s', 'pack-l']);
  });
});

describe('defaultPrice', () => {
  it.each<[string, Price[], string | undefined]>([
    ['the yearly price', [every('month'), every('year'), every('week')], 'year1'],
    ['the first price without a yearly one', [every('week'), every('month')], 'week1'],
    ['the first price when only a 2-year price exists', [every('month'), every('year', 2)], 'month1'],
    ['nothing for no prices', [], undefined],
  ])('is %s', (_name, prices, expected) => {
    expect(defaultPrice(prices)?.id).toBe(expected);
  });
});

describe('intervalLabel', () => {
  it.each<[string, number, string]>([
    ['month', 1, 'month'],
    ['year', 1, 'year'],
    ['week', 1, 'week'],
    ['month', 3, '3 months'],
    ['week', 2, '2 weeks'],
  ])('%s × %i → %s', (interval, interval_count, expected) => {
    expect(intervalLabel({ interval, interval_count })).toBe(expected);
  });
});

describe('yearlyDiscountPercent (§9)', () => {
  it.each<[string, Price[], number | null]>([
    ['$9.99/month against $99.99/year', [monthly('m', 999), yearly('y', 9999)], 17],
    ['$10/month against $96/year', [monthly('m', 1000), yearly('y', 9600)], 20],
    ['no monthly price', [yearly('y', 9999)], null],
    ['no yearly price', [monthly('m', 999)], null],
    ['a yearly price dearer than twelve months', [monthly('m', 999), yearly('y', 12999)], null],
    ['a yearly price equal to twelve months', [monthly('m', 1000), yearly('y', 12000)], null],
    ['a free month', [monthly('m', 0), yearly('y', 9999)], null],
    ['only a 3-month price beside the year', [every('month', 3), yearly('y', 9999)], null],
    ['only a 2-year price beside the month', [monthly('m', 999), every('year', 2)], null],
    ['no recurring prices', [oneTime('o', 500)], null],
    ['the year in another currency than the first recurring price', [monthly('m', 999, 'usd'), yearly('y', 8999, 'eur')], null],
    [
      'prices in two currencies: those of the first recurring price',
      [monthly('me', 900, 'eur'), monthly('mu', 1000, 'usd'), yearly('yu', 6000, 'usd'), yearly('ye', 9000, 'eur')],
      17,
    ],
  ])('%s → %s', (_name, prices, expected) => {
    expect(yearlyDiscountPercent(prices)).toBe(expected);
  });
});

describe('price text', () => {
  it.each<[PlanPrice, string]>([
    [monthly('m', 999) as PlanPrice, '$9.99/month'],
    [yearly('y', 9999) as PlanPrice, '$99.99/year'],
    [price('q', { unit_amount: 2500, recurring: { interval: 'month', interval_count: 3 } }) as PlanPrice, '$25.00/3 months'],
    [oneTime('o', 499) as PlanPrice, '$4.99'],
    [oneTime('j', 1500, 'jpy') as PlanPrice, '¥1,500'],
  ])('%j → %s', (p, expected) => {
    expect(priceText(p)).toBe(expected);
  });
});

describe('plan wording (§9)', () => {
  it.each<[Record<string, string>, boolean]>([
    [{ popular: 'true' }, true],
    [{ popular: 'false' }, false],
    [{ popular: 'TRUE' }, false],
    [{ popular: 'yes' }, false],
    [{}, false],
  ])('popular %j → %s', (metadata, expected) => {
    expect(isPopular(product('p', [], { metadata }))).toBe(expected);
  });

  it.each<[Record<string, string>, 'subscription' | 'credits', string]>([
    [{ credits_amount: '500' }, 'subscription', '500 queries per month'],
    [{ credits_amount: '100' }, 'credits', '100 queries'],
    [{}, 'subscription', 'Unlimited'],
    [{}, 'credits', 'Unlimited'],
    [{ credits_amount: '' }, 'subscription', 'Unlimited'],
    [{ credits_amount: 'lots' }, 'subscription', 'Unlimited'],
  ])('credits %j on a %s plan → %s', (metadata, kind, expected) => {
    expect(queriesText(product('p', [], { metadata }), kind)).toBe(expected);
  });

  it.each<[string, Price, boolean, boolean, string]>([
    ['one-time, no subscription', oneTime('o', 500), false, true, 'Purchase Now'],
    ['one-time, subscribed', oneTime('o', 500), true, false, 'Purchase Now'],
    ['recurring, no subscription', monthly('m', 999), false, true, 'Start Free Trial'],
    ['recurring, subscribed', yearly('y', 9999), true, false, 'Switch Plan'],
    ['recurring, subscribed before (no second trial)', monthly('m', 999), false, false, 'Subscribe Now'],
  ])('button for %s → %s', (_name, p, hasSubscription, trialEligible, expected) => {
    expect(checkoutButtonLabel(p, hasSubscription, trialEligible)).toBe(expected);
  });
});

describe('checkoutOutcome (§8 Checkout Error)', () => {
  it.each<[string, CheckoutResponse, { url: string } | { error: string }]>([
    ['a URL', { ok: true, url: 'https://checkout.stripe.test/c/1' }, { url: 'https://checkout.stripe.test/c/1' }],
    ['an answer that is not ok', { ok: false, message: 'Nope' }, { error: 'Nope' }],
    ['an answer that is not ok, without a message', { ok: false }, { error: 'Failed to start checkout' }],
    ['an ok answer without a URL', { ok: true }, { error: 'No checkout URL received' }],
    ['an ok answer with an empty URL', { ok: true, url: '' }, { error: 'No checkout URL received' }],
    ['an ok answer with a null URL', { ok: true, url: null }, { error: 'No checkout URL received' }],
  ])('%s', (_name, answer, expected) => {
    expect(checkoutOutcome(answer)).toEqual(expected);
  });

  it.each<[string, Error, string]>([
    [
      'a failed call with a message',
      new HttpError({ status: 400, message: 'This plan is no longer available.' }),
      'This plan is no longer available.',
    ],
    ['a failed call without a message', new HttpError({ status: 400, message: '' }), 'Failed to start checkout'],
  ])('%s', (_name, error, text) => {
    expect(checkoutFailure(error)).toBe(text);
  });
});
