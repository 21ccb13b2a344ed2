import type { Price, Product, RecurringInterval } from '../../contract/billing';
import type { CheckoutResponse } from '../api/billing';
import { queriesOf } from '../../contract/usage';
import { formatMoney } from '../ui/format';

/**
 * §9 Plan rules, free of React: what the products page offers and how it words it. Outside
 * src/portal because the admin console's account details word prices the same way.
 */

/** A price that can be bought: Stripe leaves `unit_amount` empty only for custom pricing. */
export type PlanPrice = Price & { unit_amount: number };

export type PlanKind = 'subscription' | 'credits';

export interface Plan {
  product: Product;
  /** A subscription plan has a recurring price; anything else is a credit pack. */
  kind: PlanKind;
  /** The prices offered, in §9 order (only recurring ones for a subscription plan). */
  prices: PlanPrice[];
}

const INTERVAL_ORDER: Record<RecurringInterval, number> = { day: 0, week: 1, month: 2, year: 3 };

const isOffered = (price: Price): price is PlanPrice => price.active && price.unit_amount !== null;

/** Recurring prices by interval (week, month, year) then count; one-time ones by amount. */
function comparePrices(a: PlanPrice, b: PlanPrice): number {
  if (a.recurring && b.recurring) {
    return (
      INTERVAL_ORDER[a.recurring.interval] - INTERVAL_ORDER[b.recurring.interval] || a.recurring.interval_count - b.recurring.interval_count
    );
  }
  if (a.recurring) return -1;
  if (b.recurring) return 1;
  return a.unit_amount - b.unit_amount;
}

/** The product as a plan, or null when none of its prices can be bought. */
export function toPlan(product: Product): Plan | null {
  const offered = product.prices.filter(isOffered);
  const recurring = offered.filter((p) => p.recurring);
  const kind: PlanKind = recurring.length > 0 ? 'subscription' : 'credits';
  const prices = (kind === 'subscription' ? recurring : offered).sort(comparePrices);
  return prices.length > 0 ? { product, kind, prices } : null;
}

const lowestAmount = (plan: Plan) => Math.min(...plan.prices.map((p) => p.unit_amount));

/** The products page's two sections, each ordered by the plan's lowest price. */
export function groupPlans(products: readonly Product[]): { subscriptions: Plan[]; credits: Plan[] } {
  const plans = products
    .map(toPlan)
    .filter((plan): plan is Plan => plan !== null)
    .sort((a, b) => lowestAmount(a) - lowestAmount(b));
  return {
    subscriptions: plans.filter((p) => p.kind === 'subscription'),
    credits: plans.filter((p) => p.kind === 'credits'),
  };
}

export const isYearly = (price: Price): boolean => price.recurring?.interval === 'year' && price.recurring.interval_count === 1;
const isMonthly = (price: Price): boolean => price.recurring?.interval === 'month' && price.recurring.interval_count === 1;

/** The price selected at first: the yearly one, else the first. */
export function defaultPrice<T extends Price>(prices: readonly T[]): T | undefined {
  return prices.find(isYearly) ?? prices[0];
}

/** `month`, or `3 months` when the count is above one. */
export function intervalLabel(recurring: { interval: string; interval_count: number }): string {
  return recurring.interval_count > 1 ? `${recurring.interval_count} ${recurring.interval}s` : recurring.interval;
}

/**
 * §9: how much a year saves over twelve months, in whole percent, comparing the 1-month and 1-year
 * prices in the first recurring price's currency; null when either is missing or nothing is saved.
 */
export function yearlyDiscountPercent(prices: readonly Price[]): number | null {
  const currency = prices.find((p) => p.recurring)?.currency;
  if (!currency) return null;
  const inCurrency = prices.filter((p) => p.currency === currency && p.unit_amount !== null);
  const monthly = inCurrency.find(isMonthly)?.unit_amount;
  const yearly = inCurrency.find(isYearly)?.unit_amount;
  if (monthly == null || yearly == null || monthly <= 0) return null;
  const percent = Math.round(((12 * monthly - yearly) / (12 * monthly)) * 100);
  return percent > 0 ? percent : null;
}

/** `$9.99/month` for a recurring price, `$4.99` for a one-time one. */
export function priceText(price: Pick<Price, 'currency' | 'recurring'> & { unit_amount: number }): string {
  const amount = formatMoney(price.unit_amount, price.currency);
  return price.recurring ? `${amount}/${intervalLabel(price.recurring)}` : amount;
}

/** What a price's toggle button says: the interval, or the amount for one-time prices. */
export const priceOptionLabel = (price: PlanPrice): string =>
  price.recurring ? intervalLabel(price.recurring) : formatMoney(price.unit_amount, price.currency);

export const isPopular = (product: Product): boolean => product.metadata.popular === 'true';

/** §9: `{n} queries per month` (a credit pack: `{n} queries`), or `Unlimited` without an amount. */
export function queriesText(product: Product, kind: PlanKind): string {
  const amount = queriesOf(product.metadata.credits_amount);
  if (amount === null) return 'Unlimited';
  return kind === 'subscription' ? `${amount} queries per month` : `${amount} queries`;
}

/** §9: one-time → Purchase Now; recurring → Switch Plan for a subscriber, else Start Free Trial. */
/** A returning subscriber gets no second trial (decision 006): their button does not promise one. */
export function checkoutButtonLabel(price: Price, hasSubscription: boolean, trialEligible = true): string {
  if (!price.recurring) return 'Purchase Now';
  if (hasSubscription) return 'Switch Plan';
  return trialEligible ? 'Start Free Trial' : 'Subscribe Now';
}

export const CHECKOUT_FAILED = 'Failed to start checkout';
export const NO_CHECKOUT_URL = 'No checkout URL received';

/** §8: where a checkout answer leads: the Stripe page, or the text of a `Checkout Error` toast. */
export function checkoutOutcome(answer: CheckoutResponse): { url: string } | { error: string } {
  if (!answer.ok) return { error: answer.message || CHECKOUT_FAILED };
  return answer.url ? { url: answer.url } : { error: NO_CHECKOUT_URL };
}

/** §8: the `Checkout Error` text of a checkout call that failed. */
export const checkoutFailure = (error: Error): string => error.message || CHECKOUT_FAILED;
