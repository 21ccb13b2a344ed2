import type { Price, Product, Subscription, SubscriptionStatusResponse, UserSubscriptionsResponse } from '../../contract/billing';

/** Billing documents as the server sends them (contract/billing.ts), for screen and rule tests. */

/** Unix seconds at noon UTC, so the day is the same in every test time zone. */
export const at = (isoDate: string): number => Date.parse(`${isoDate}T12:00:00Z`) / 1000;

export function price(id: string, overrides: Partial<Price> = {}): Price {
  return { id, active: true, unit_amount: 999, currency: 'usd', recurring: { interval: 'month', interval_count: 1 }, ...overrides };
}

export const monthly = (id: string, unit_amount: number, currency = 'usd') => price(id, { unit_amount, currency });
export const yearly = (id: string, unit_amount: number, currency = 'usd') =>
  price(id, { unit_amount, currency, recurring: { interval: 'year', interval_count: 1 } });
export const oneTime = (id: string, unit_amount: number, currency = 'usd') => price(id, { unit_amount, currency, recurring: null });

export function product(id: string, prices: Price[], overrides: Partial<Product> = {}): Product {
  return { id, name: `Product ${id}`, description: null, images: [], active: true, metadata: {}, prices, ...overrides };
}

interface SubscriptionOverrides extends Partial<Omit<Subscription, 'items'>> {
  name?: string;
  description?: string | null;
  unit_amount?: number | null;
  currency?: string;
  interval?: 'day' | 'week' | 'month' | 'year';
  interval_count?: number;
}

export function subscription(id: string, overrides: SubscriptionOverrides = {}): Subscription {
  const {
    name = 'Sage Pro',
    description = 'Unlimited help in the editor',
    unit_amount = 1999,
    currency = 'usd',
    interval = 'month',
    interval_count = 1,
    ...fields
  } = overrides;
  return {
    id,
    status: 'active',
    cancel_at: null,
    cancel_at_period_end: false,
    trial_end: null,
    current_period_end: at('2025-04-15'),
    default_payment_method: 'pm_card',
    created: at('2025-01-01'),
    items: {
      data: [
        {
          id: `si_${id}`,
          price: {
            id: `price_${id}`,
            unit_amount,
            currency,
            recurring: { interval, interval_count },
            product: { id: `prod_${id}`, name, description },
          },
        },
      ],
    },
    ...fields,
  };
}

export const userSubscriptions = (subscriptions: Subscription[]): UserSubscriptionsResponse => ({
  ok: true,
  hasSubscription: subscriptions.some((s) => s.status !== 'canceled' && s.status !== 'incomplete_expired'),
  has_default_payment_method: subscriptions.some((s) => s.default_payment_method !== null),
  subscriptions,
});

export const subscriptionStatus = (
  hasSubscription: boolean,
  subscriptions: Subscription[] = [],
  trialEligible = !hasSubscription,
): SubscriptionStatusResponse => ({
  ok: true,
  hasSubscription,
  trialEligible,
  subscriptions,
});
