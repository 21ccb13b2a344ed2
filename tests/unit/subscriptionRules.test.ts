import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../contract/billing';
import {
  actionRequired,
  billingDate,
  cardAction,
  cardMessages,
  isLive,
  needsPaymentMethod,
  statusBadge,
  subscriptionBanners,
  type BannerKind,
  type CardAction,
  type CardMessageKind,
  type StatusBadge,
} from '../../src/billing/subscriptionRules';
import { at, subscription } from '../portal/billingData';

const sub = (overrides: Parameters<typeof subscription>[1] = {}) => subscription('sub_1', overrides);

describe('statusBadge (§2 Subscription card)', () => {
  it.each<[string, StatusBadge]>([
    ['active', { label: 'Active', color: 'success' }],
    ['trialing', { label: 'Trial', color: 'info' }],
    ['past_due', { label: 'Past Due', color: 'error' }],
    ['canceled', { label: 'Canceled', color: 'default' }],
    ['unpaid', { label: 'Unpaid', color: 'error' }],
    ['incomplete', { label: 'Incomplete', color: 'warning' }],
    ['paused', { label: 'Paused', color: 'warning' }],
    ['incomplete_expired', { label: 'incomplete_expired', color: 'default' }],
    ['toString', { label: 'toString', color: 'default' }],
  ])('%s', (status, expected) => {
    expect(statusBadge(status)).toEqual(expected);
  });
});

describe('billingDate', () => {
  it.each<[string, Subscription, ReturnType<typeof billingDate>]>([
    ['trialing: the trial end', sub({ status: 'trialing', trial_end: at('2025-03-05') }), { label: 'Trial Ends', date: 'Mar 05, 2025' }],
    ['active: the period end', sub({ current_period_end: at('2025-04-15') }), { label: 'Next Billing', date: 'Apr 15, 2025' }],
    [
      'a trial end wins over the period end',
      sub({ status: 'past_due', trial_end: at('2025-03-05') }),
      { label: 'Next Billing', date: 'Mar 05, 2025' },
    ],
    [
      'trialing without a trial end',
      sub({ status: 'trialing', current_period_end: at('2025-12-31') }),
      { label: 'Trial Ends', date: 'Dec 31, 2025' },
    ],
    ['no dates at all', sub({ current_period_end: null }), null],
  ])('%s', (_name, subscription, expected) => {
    expect(billingDate(subscription)).toEqual(expected);
  });
});

describe('cardAction', () => {
  it.each<[string, Subscription, CardAction]>([
    ['canceled', sub({ status: 'canceled' }), 'none'],
    ['canceled with a cancel date', sub({ status: 'canceled', cancel_at: at('2025-03-01') }), 'none'],
    ['active with a cancel date', sub({ cancel_at: at('2025-05-01') }), 'reactivate'],
    ['active, canceling at period end', sub({ cancel_at_period_end: true }), 'reactivate'],
    ['trialing with a cancel date', sub({ status: 'trialing', cancel_at: at('2025-05-01') }), 'reactivate'],
    ['paused with a cancel date', sub({ status: 'paused', cancel_at: at('2025-05-01') }), 'reactivate'],
    ['paused', sub({ status: 'paused' }), 'resume'],
    ['active', sub(), 'manage'],
    ['trialing', sub({ status: 'trialing' }), 'manage'],
    ['past_due', sub({ status: 'past_due' }), 'manage'],
    ['unpaid', sub({ status: 'unpaid' }), 'manage'],
  ])('%s → %s', (_name, subscription, expected) => {
    expect(cardAction(subscription)).toBe(expected);
  });
});

describe('needsPaymentMethod (Add Payment Method)', () => {
  it.each<[string, boolean, boolean]>([
    ['trialing', false, true],
    ['past_due', false, true],
    ['incomplete', false, true],
    ['trialing', true, false],
    ['past_due', true, false],
    ['active', false, false],
    ['unpaid', false, false],
    ['paused', false, false],
    ['canceled', false, false],
  ])('%s, card on file %s → %s', (status, hasCard, expected) => {
    expect(needsPaymentMethod(sub({ status, default_payment_method: hasCard ? 'pm_1' : null }))).toBe(expected);
  });
});

describe('cardMessages', () => {
  const kinds = (s: Subscription) => cardMessages(s).map((m) => m.kind);

  it.each<[string, Subscription, CardMessageKind[]]>([
    ['active', sub(), []],
    ['trialing with a trial end', sub({ status: 'trialing', trial_end: at('2025-03-05') }), ['trial']],
    ['trialing without a trial end', sub({ status: 'trialing' }), []],
    ['set to cancel', sub({ cancel_at: at('2025-05-01') }), ['ending']],
    ['canceling at period end', sub({ cancel_at_period_end: true }), ['ending']],
    [
      'trialing and set to cancel',
      sub({ status: 'trialing', trial_end: at('2025-03-05'), cancel_at: at('2025-03-05') }),
      ['trial', 'ending'],
    ],
    ['canceled', sub({ status: 'canceled', cancel_at: at('2025-03-01') }), ['canceled']],
    ['past_due', sub({ status: 'past_due' }), ['overdue']],
    ['unpaid', sub({ status: 'unpaid' }), ['overdue']],
    ['paused', sub({ status: 'paused' }), []],
  ])('%s → %j', (_name, subscription, expected) => {
    expect(kinds(subscription)).toEqual(expected);
  });

  it('words each message', () => {
    expect(cardMessages(sub({ status: 'trialing', trial_end: at('2025-03-05') }))[0]?.text).toBe(
      'Your subscription will start automatically on Mar 05, 2025.',
    );
    expect(cardMessages(sub({ cancel_at: at('2025-05-01') }))[0]?.text).toMatch(
      /end at the end of the current billing period\. You can keep using it until May 01, 2025\./,
    );
    expect(cardMessages(sub({ cancel_at_period_end: true, current_period_end: at('2025-04-15') }))[0]?.text).toMatch(/until Apr 15, 2025/);
    expect(cardMessages(sub({ status: 'canceled' }))[0]?.text).toMatch(/cannot be renewed.*new checkout/);
    expect(cardMessages(sub({ status: 'past_due' }))[0]?.text).toMatch(/payment is overdue.*update your payment method/);
  });
});

describe('isLive', () => {
  it.each([
    ['active', true],
    ['trialing', true],
    ['past_due', true],
    ['paused', true],
    ['canceled', false],
    ['incomplete_expired', false],
  ])('%s → %s', (status, expected) => {
    expect(isLive(sub({ status }))).toBe(expected);
  });
});

describe('subscriptionBanners (§2 Dashboard)', () => {
  const kinds = (subs: Subscription[]) => subscriptionBanners(subs).map((b) => b.kind);
  const noCard = { default_payment_method: null };

  it.each<[string, Subscription[], BannerKind[]]>([
    ['nothing', [], []],
    ['an active subscription with a card', [sub()], []],
    ['trialing with a card', [sub({ status: 'trialing', trial_end: at('2025-03-05') })], ['trial']],
    ['trialing without a card', [sub({ status: 'trialing', trial_end: at('2025-03-05'), ...noCard })], ['trial']],
    ['trialing without a trial end or card', [sub({ status: 'trialing', ...noCard })], []],
    ['past_due with a card', [sub({ status: 'past_due' })], ['billing-issue']],
    ['incomplete with a card', [sub({ status: 'incomplete' })], ['billing-issue']],
    ['past_due without a card', [sub({ status: 'past_due', ...noCard })], ['billing-issue', 'payment-method-required']],
    ['active without a card', [sub(noCard)], ['payment-method-required']],
    ['one with a card, one without', [sub(noCard), subscription('sub_2')], []],
    [
      'a trial and an active one, no cards',
      [sub({ status: 'trialing', trial_end: at('2025-03-05'), ...noCard }), subscription('sub_2', noCard)],
      ['trial'],
    ],
    ['only canceled ones without cards', [sub({ status: 'canceled', ...noCard })], []],
    ['a canceled past_due leftover', [sub({ status: 'incomplete_expired', ...noCard }), subscription('sub_2')], []],
    [
      'a canceled one with a card beside an active one without',
      [sub({ status: 'canceled' }), subscription('sub_2', noCard)],
      ['payment-method-required'],
    ],
  ])('%s → %j', (_name, subs, expected) => {
    expect(kinds(subs)).toEqual(expected);
  });

  it('says when the trial ends, and asks for a card only when there is none', () => {
    const [withCard] = subscriptionBanners([sub({ status: 'trialing', trial_end: at('2025-03-05') })]);
    expect(withCard).toMatchObject({ title: 'Trial Active', severity: 'info' });
    expect(withCard?.text).toBe('Your free trial ends on March 05, 2025.');
    const [withoutCard] = subscriptionBanners([sub({ status: 'trialing', trial_end: at('2025-03-05'), ...noCard })]);
    expect(withoutCard?.text).toMatch(/^Your free trial ends on March 05, 2025\. .*add a payment method/);
  });

  it('titles and colours each banner', () => {
    const banners = subscriptionBanners([sub({ status: 'past_due', ...noCard })]);
    expect(banners.map((b) => [b.title, b.severity])).toEqual([
      ['Billing Issue', 'error'],
      ['Payment Method Required', 'warning'],
    ]);
  });
});

describe('actionRequired (§2 Subscription update)', () => {
  it.each<[string, Subscription[], string | null, RegExp | null]>([
    ['none', [], null, null],
    ['all fine', [sub(), subscription('sub_2', { status: 'trialing' })], null, null],
    ['past_due', [sub(), subscription('sub_2', { status: 'past_due' })], 'sub_2', /payment failed.*update your payment method/],
    ['unpaid', [subscription('sub_2', { status: 'unpaid' })], 'sub_2', /unpaid/],
    ['paused', [subscription('sub_2', { status: 'paused' })], 'sub_2', /trial ended without a payment method.*Resume/],
    ['the first of several', [subscription('a', { status: 'paused' }), subscription('b', { status: 'past_due' })], 'a', /paused/],
    ['canceled is not actionable', [sub({ status: 'canceled' })], null, null],
  ])('%s', (_name, subs, id, text) => {
    const result = actionRequired(subs);
    expect(result?.subscription.id ?? null).toBe(id);
    if (text) expect(result?.text).toMatch(text);
  });
});
