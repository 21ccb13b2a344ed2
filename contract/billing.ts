import { z } from 'zod';
import { singleLine } from './text';

/**
 * Billing shapes shared by the server and the browser (product §3 Subscription, Product, Price and the
 * `/api/stripe/*` answers of §7). Field names follow Stripe's, as the product's description does.
 */

/** §9: every new subscriber gets this long to try Sage before the first charge. */
export const TRIAL_DAYS = 14;

export const RECURRING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number];

export const recurringSchema = z.object({
  interval: z.enum(RECURRING_INTERVALS),
  interval_count: z.number().int().positive(),
});

/** §3 Price: minor units; `recurring` null for a one-time price (a credit pack). */
export const priceSchema = z.object({
  id: z.string(),
  active: z.boolean(),
  unit_amount: z.number().int().nullable(),
  currency: z.string(),
  recurring: recurringSchema.nullable(),
});
export type Price = z.infer<typeof priceSchema>;

/** §3 Product with its active prices; metadata `popular` ("true") and `credits_amount`. */
export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  images: z.array(z.string()),
  active: z.boolean(),
  metadata: z.record(z.string(), z.string()),
  prices: z.array(priceSchema),
});
export type Product = z.infer<typeof productSchema>;

/** `GET /api/stripe/products`: active products with their active prices (empty while billing is off). */
export const productsResponseSchema = z.object({ ok: z.literal(true), products: z.array(productSchema) });
export type ProductsResponse = z.infer<typeof productsResponseSchema>;

/** The price inside a subscription item, with its product expanded (§3 `price.product`). */
export const subscriptionPriceSchema = priceSchema.omit({ active: true }).extend({
  product: z.object({ id: z.string(), name: z.string(), description: z.string().nullable() }),
});

/**
 * §3 Subscription. Times are unix seconds. `default_payment_method` is the card the next invoice
 * will be charged to: the subscription's own, else the customer's default, else null.
 */
export const subscriptionSchema = z.object({
  id: z.string(),
  /** Stripe's status: active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused. */
  status: z.string(),
  cancel_at: z.number().nullable(),
  cancel_at_period_end: z.boolean(),
  trial_end: z.number().nullable(),
  current_period_end: z.number().nullable(),
  default_payment_method: z.string().nullable(),
  created: z.number(),
  items: z.object({ data: z.array(z.object({ id: z.string(), price: subscriptionPriceSchema })) }),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** Stripe statuses after which a subscription no longer serves or bills the user. */
const ENDED_STATUSES: readonly string[] = ['canceled', 'incomplete_expired'];

/** A live subscription counts for hasSubscription, Switch Plan and the banners (decision 006). */
export const isLiveStatus = (status: string): boolean => !ENDED_STATUSES.includes(status);

/** `GET /api/stripe/user-subscriptions` (404 when the user has none at all). */
export const userSubscriptionsResponseSchema = z.object({
  ok: z.literal(true),
  /** True when one of them is live (not canceled or expired). */
  hasSubscription: z.boolean(),
  has_default_payment_method: z.boolean(),
  subscriptions: z.array(subscriptionSchema),
});
export type UserSubscriptionsResponse = z.infer<typeof userSubscriptionsResponseSchema>;

/** `GET /api/stripe/subscription-status`: the live subscriptions only. */
export const subscriptionStatusResponseSchema = z.object({
  ok: z.literal(true),
  hasSubscription: z.boolean(),
  /** The free trial is for a user's first subscription (decision 006). */
  trialEligible: z.boolean(),
  subscriptions: z.array(subscriptionSchema),
});
export type SubscriptionStatusResponse = z.infer<typeof subscriptionStatusResponseSchema>;

/** `POST /api/stripe/verify-subscription`: re-reads the caller's subscriptions from Stripe. */
export const verifySubscriptionResponseSchema = z.object({ ok: z.literal(true), hasSubscription: z.boolean() });

const stripeId = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(255, `${what} is too long`)
    .regex(/^[A-Za-z0-9_]+$/, `${what} is not valid`);

/** An address Stripe sends the browser back to: checked against PUBLIC_URL's origin by the server. */
const returnUrl = z.string().check(singleLine('The return URL')).trim().max(2048, 'The return URL is too long');

/** §7 `POST /api/stripe/create-checkout-session`; without URLs the plugin's defaults are used. */
export const checkoutRequestSchema = z.object({
  priceId: stripeId('priceId'),
  productId: stripeId('productId'),
  successUrl: returnUrl.optional(),
  cancelUrl: returnUrl.optional(),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** `create-portal-session` and `create-payment-method-session`. */
export const returnUrlRequestSchema = z.object({ returnUrl: returnUrl.optional() });

export const resumeRequestSchema = z.object({ subscriptionId: stripeId('subscriptionId'), returnUrl: returnUrl.optional() });

/** Every billing write answers the address to send the browser to. */
export const redirectResponseSchema = z.object({ ok: z.literal(true), url: z.string() });
export type RedirectResponse = z.infer<typeof redirectResponseSchema>;

/** `POST /api/stripe/webhook` (Stripe's call): `duplicate` when the event had been handled before. */
export const webhookReceivedSchema = z.object({ received: z.literal(true), duplicate: z.boolean() });

/** `GET /api/stripe/subscription-update-success?client=` (a return URL, not a fetch). */
export const updateSuccessQuerySchema = z.object({ client: z.enum(['web', 'ue']).default('web') });

/** The words of billing's own errors, shown by the screens as the server's message. */
export const BILLING_MESSAGES = {
  /** Billing is off on this server (no Stripe keys): not an outage, nothing to retry. */
  notConfigured: 'Billing is not set up on this server',
  noSubscription: 'No subscription found',
  unknownPrice: 'This plan is no longer available. Please reload and choose again.',
  samePlan: 'You are already subscribed to this plan.',
  badReturnUrl: 'The return URL must be an address of this site.',
  notYours: 'No such subscription on your account',
  notPaused: 'Only a paused subscription can be resumed.',
  needsAttention: 'Your current subscription needs attention before you can switch plans. Please update it from your dashboard.',
} as const;
