import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription } from '../../contract/billing';
import { SubscriptionCard } from '../../src/portal/billing/SubscriptionCard';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { at, subscription } from './billingData';
import { bodyOf, deferred, expectToast, json, renderScreen, stubFetch } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

beforeEach(() => vi.mocked(assignLocation).mockReset());

const STRIPE_URL = 'https://billing.stripe.test/session/1';
const returnUrl = (client: 'web' | 'ue') => `${window.location.origin}/api/stripe/subscription-update-success?client=${client}`;

function renderCard(sub: Subscription, client: 'web' | 'ue' = 'web') {
  renderScreen(<SubscriptionCard subscription={sub} client={client} />, '/dashboard#subscriptions');
  return screen.getByRole('article', { name: sub.items.data[0]?.price.product.name });
}

const chipOf = (card: HTMLElement, label: string) => within(card).getByText(label).closest('.MuiChip-root');
const buttonNames = (card: HTMLElement) =>
  within(card)
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('SubscriptionCard contents (§2 Subscription card)', () => {
  it('shows the product, the price per interval, the next billing date and a green Active badge', () => {
    const card = renderCard(subscription('sub_1', { current_period_end: at('2025-04-15') }));
    expect(within(card).getByRole('heading', { name: 'Sage Pro' })).toBeInTheDocument();
    expect(within(card).getByText('Unlimited help in the editor')).toBeInTheDocument();
    expect(within(card).getByText('$19.99/month')).toBeInTheDocument();
    expect(within(card).getByText('Next Billing: Apr 15, 2025')).toBeInTheDocument();
    expect(chipOf(card, 'Active')).toHaveClass('MuiChip-colorSuccess');
    expect(buttonNames(card)).toEqual(['Manage']);
    expect(within(card).queryByRole('note')).not.toBeInTheDocument();
  });

  it('shows a yearly price in euros', () => {
    const card = renderCard(subscription('sub_1', { unit_amount: 9900, currency: 'eur', interval: 'year' }));
    expect(within(card).getByText('€99.00/year')).toBeInTheDocument();
  });

  it.each<[string, string, string]>([
    ['trialing', 'Trial', 'MuiChip-colorInfo'],
    ['past_due', 'Past Due', 'MuiChip-colorError'],
    ['canceled', 'Canceled', 'MuiChip-colorDefault'],
    ['unpaid', 'Unpaid', 'MuiChip-colorError'],
    ['incomplete', 'Incomplete', 'MuiChip-colorWarning'],
    ['paused', 'Paused', 'MuiChip-colorWarning'],
    ['incomplete_expired', 'incomplete_expired', 'MuiChip-colorDefault'],
  ])('status %s shows the badge %s', (status, label, colorClass) => {
    const card = renderCard(subscription('sub_1', { status }));
    expect(chipOf(card, label)).toHaveClass(colorClass);
  });

  it('a trial shows when it ends, that it starts by itself, and asks for a payment method', () => {
    const card = renderCard(
      subscription('sub_1', {
        status: 'trialing',
        trial_end: at('2025-03-05'),
        current_period_end: at('2025-03-05'),
        default_payment_method: null,
      }),
    );
    expect(within(card).getByText('Trial Ends: Mar 05, 2025')).toBeInTheDocument();
    expect(within(card).getByRole('note')).toHaveTextContent('Your subscription will start automatically on Mar 05, 2025.');
    expect(buttonNames(card)).toEqual(['Manage', 'Add Payment Method']);
  });

  it('a trial with a card on file has no Add Payment Method', () => {
    const card = renderCard(subscription('sub_1', { status: 'trialing', trial_end: at('2025-03-05') }));
    expect(buttonNames(card)).toEqual(['Manage']);
  });

  it.each(['past_due', 'incomplete'])('%s without a card offers Add Payment Method', (status) => {
    const card = renderCard(subscription('sub_1', { status, default_payment_method: null }));
    expect(buttonNames(card)).toEqual(['Manage', 'Add Payment Method']);
  });

  it('an active subscription without a card has no Add Payment Method', () => {
    expect(buttonNames(renderCard(subscription('sub_1', { default_payment_method: null })))).toEqual(['Manage']);
  });

  it('a subscription set to cancel offers Re-Activate and says it runs until the end of the period', () => {
    const card = renderCard(subscription('sub_1', { cancel_at: at('2025-05-01') }));
    expect(buttonNames(card)).toEqual(['Re-Activate']);
    expect(within(card).getByRole('note')).toHaveTextContent(/end at the end of the current billing period.*until May 01, 2025/);
  });

  it('a canceled subscription has no button and says a new checkout is needed', () => {
    const card = renderCard(subscription('sub_1', { status: 'canceled', cancel_at: at('2025-03-01') }));
    expect(buttonNames(card)).toEqual([]);
    expect(within(card).getByRole('note')).toHaveTextContent(/cannot be renewed.*new checkout/);
  });

  it('a paused subscription offers Resume Subscription', () => {
    expect(buttonNames(renderCard(subscription('sub_1', { status: 'paused' })))).toEqual(['Resume Subscription']);
  });

  it.each(['past_due', 'unpaid'])('%s says the payment is overdue', (status) => {
    const card = renderCard(subscription('sub_1', { status }));
    expect(within(card).getByRole('note')).toHaveTextContent(/payment is overdue.*update your payment method/);
  });
});

describe('SubscriptionCard buttons open Stripe', () => {
  it.each<[string, Subscription, string, string, Record<string, string>]>([
    ['Manage', subscription('sub_1'), 'Manage', '/api/stripe/create-portal-session', {}],
    ['Re-Activate', subscription('sub_1', { cancel_at_period_end: true }), 'Re-Activate', '/api/stripe/create-portal-session', {}],
    [
      'Resume Subscription',
      subscription('sub_1', { status: 'paused' }),
      'Resume Subscription',
      '/api/stripe/resume-subscription',
      { subscriptionId: 'sub_1' },
    ],
    [
      'Add Payment Method',
      subscription('sub_1', { status: 'past_due', default_payment_method: null }),
      'Add Payment Method',
      '/api/stripe/create-payment-method-session',
      {},
    ],
  ])('%s says Opening..., disables both buttons, then goes to the returned URL', async (_name, sub, label, path, extra) => {
    const answer = deferred<Response>();
    const spy = stubFetch({ [`POST ${path}`]: () => answer.promise });
    const card = renderCard(sub);
    await userEvent.setup().click(within(card).getByRole('button', { name: label }));

    const opening = within(card).getByRole('button', { name: 'Opening...' });
    expect(opening).toBeDisabled();
    for (const button of within(card).getAllByRole('button')) expect(button).toBeDisabled();
    expect(bodyOf(spy.mock.calls[0]?.[1])).toEqual({ ...extra, returnUrl: returnUrl('web') });
    expect(assignLocation).not.toHaveBeenCalled();

    answer.resolve(json({ ok: true, url: STRIPE_URL }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith(STRIPE_URL));
    expect(assignLocation).toHaveBeenCalledTimes(1);
  });

  it("the plugin's browser comes back to the plugin's update page", async () => {
    const spy = stubFetch({ 'POST /api/stripe/create-payment-method-session': () => json({ ok: true, url: STRIPE_URL }) });
    const card = renderCard(subscription('sub_1', { status: 'trialing', default_payment_method: null }), 'ue');
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Add Payment Method' }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith(STRIPE_URL));
    expect(bodyOf(spy.mock.calls[0]?.[1])).toEqual({ returnUrl: returnUrl('ue') });
  });

  it.each<[string, Subscription, string, string, () => Response | Promise<Response>, string]>([
    [
      'portal',
      subscription('sub_1'),
      'Manage',
      '/api/stripe/create-portal-session',
      () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
      'Internal Server Error',
    ],
    [
      'resume',
      subscription('sub_1', { status: 'paused' }),
      'Resume Subscription',
      '/api/stripe/resume-subscription',
      () => json({ error: 'not_paused', message: 'Only a paused subscription can be resumed.' }, 409),
      'Only a paused subscription can be resumed.',
    ],
    [
      'payment method',
      subscription('sub_1', { status: 'incomplete', default_payment_method: null }),
      'Add Payment Method',
      '/api/stripe/create-payment-method-session',
      () => Promise.reject(new TypeError('Failed to fetch')),
      'Failed to fetch',
    ],
  ])('a failed %s session shows a destructive toast and the buttons again', async (what, sub, label, path, respond, message) => {
    stubFetch({ [`POST ${path}`]: respond });
    const card = renderCard(sub);
    await userEvent.setup().click(within(card).getByRole('button', { name: label }));
    await expectToast(`Failed to create ${what} session`, message);
    expect(within(card).getByRole('button', { name: label })).toBeEnabled();
    expect(within(card).queryByRole('button', { name: 'Opening...' })).not.toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });
});
