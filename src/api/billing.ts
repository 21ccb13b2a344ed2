import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { z } from 'zod';
import {
  productsResponseSchema,
  redirectResponseSchema,
  subscriptionStatusResponseSchema,
  userSubscriptionsResponseSchema,
  verifySubscriptionResponseSchema,
  type CheckoutRequest,
  type ProductsResponse,
  type SubscriptionStatusResponse,
  type UserSubscriptionsResponse,
} from '../../contract/billing';
import { errorAnswer, getJson, HttpError, post, request } from './client';

/** Where a Stripe page sends the browser back: the web dashboard or the plugin's update page. */
export type BillingClient = 'web' | 'ue';

/** §8 Subscription errors (the words the screens show). */
export const BILLING_ERRORS = {
  authRequired: 'Authentication required',
  status: 'Failed to fetch subscription status',
  subscriptions: 'Failed to fetch subscription data',
  portal: 'Failed to create portal session',
  resume: 'Failed to create resume session',
  paymentMethod: 'Failed to create payment method session',
} as const;

export const PRODUCTS_QUERY_KEY = ['stripe-products'] as const;
export const SUBSCRIPTION_STATUS_QUERY_KEY = ['subscription-status'] as const;
export const USER_SUBSCRIPTIONS_QUERY_KEY = ['user-subscriptions'] as const;

export const SUBSCRIPTION_STATUS_CACHE_MS = 5 * 60_000;
export const USER_SUBSCRIPTIONS_CACHE_MS = 2 * 60_000;
export const SUBSCRIPTION_MAX_RETRIES = 2;

/** §9: subscription reads are retried up to twice, except when the session is gone (401). */
export function retrySubscriptionRead(failureCount: number, error: Error): boolean {
  if (error instanceof HttpError && error.status === 401) return false;
  return failureCount < SUBSCRIPTION_MAX_RETRIES;
}

/**
 * GET a subscription document: 401 → `Authentication required`; any other failure (network,
 * non-OK, an answer that does not parse) → `failure`, keeping the HTTP status when there is one.
 * `allowMissing` turns a 404 into null (§7: the user has no subscription).
 */
async function getSubscriptionJson<T>(path: string, schema: z.ZodType<T>, failure: string): Promise<T>;
async function getSubscriptionJson<T>(path: string, schema: z.ZodType<T>, failure: string, allowMissing: true): Promise<T | null>;
async function getSubscriptionJson<T>(path: string, schema: z.ZodType<T>, failure: string, allowMissing = false): Promise<T | null> {
  let res: Response;
  try {
    res = await request(path);
  } catch {
    throw new Error(failure);
  }
  if (!res.ok) {
    // §8 words the message; the server's code and body go along, as on every HttpError.
    const { code, body } = errorAnswer(await res.text().catch(() => ''));
    if (res.status === 401) throw new HttpError({ status: 401, code, message: BILLING_ERRORS.authRequired, body });
    if (allowMissing && res.status === 404) return null;
    throw new HttpError({ status: res.status, code, message: failure, body });
  }
  const parsed = schema.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw new Error(failure);
  return parsed.data;
}

/** §7 `GET /api/stripe/products`: the products on sale with their active prices. */
export const fetchProducts = (): Promise<ProductsResponse> => getJson('/api/stripe/products', productsResponseSchema);

/** §7 `GET /api/stripe/user-subscriptions`; null when the user has none at all (404). */
export const fetchUserSubscriptions = (): Promise<UserSubscriptionsResponse | null> =>
  getSubscriptionJson('/api/stripe/user-subscriptions', userSubscriptionsResponseSchema, BILLING_ERRORS.subscriptions, true);

/** `GET /api/stripe/subscription-status`: whether the user has a live subscription. */
export const fetchSubscriptionStatus = (): Promise<SubscriptionStatusResponse> =>
  getSubscriptionJson('/api/stripe/subscription-status', subscriptionStatusResponseSchema, BILLING_ERRORS.status);

/** The products query: §9's defaults (fetched once, kept 5 minutes). */
export const productsQuery = queryOptions({ queryKey: PRODUCTS_QUERY_KEY, queryFn: fetchProducts });

/** §9: subscription status is cached 5 minutes and retried up to twice (not on 401). */
export const subscriptionStatusQuery = queryOptions({
  queryKey: SUBSCRIPTION_STATUS_QUERY_KEY,
  queryFn: fetchSubscriptionStatus,
  staleTime: SUBSCRIPTION_STATUS_CACHE_MS,
  gcTime: SUBSCRIPTION_STATUS_CACHE_MS,
  retry: retrySubscriptionRead,
});

/** §9: the user's subscriptions are cached 2 minutes and retried up to twice (not on 401). */
export const userSubscriptionsQuery = queryOptions({
  queryKey: USER_SUBSCRIPTIONS_QUERY_KEY,
  queryFn: fetchUserSubscriptions,
  staleTime: USER_SUBSCRIPTIONS_CACHE_MS,
  gcTime: USER_SUBSCRIPTIONS_CACHE_MS,
  retry: retrySubscriptionRead,
});

export const useProducts = () => useQuery(productsQuery);
export const useSubscriptionStatus = () => useQuery(subscriptionStatusQuery);
export const useUserSubscriptions = () => useQuery(userSubscriptionsQuery);

/** §2: after Stripe sends the browser back, both subscription reads are fetched again. */
export function useRefreshSubscriptions() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_STATUS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_SUBSCRIPTIONS_QUERY_KEY }),
      ]),
    [queryClient],
  );
}

/**
 * The checkout answer as the page reads it (§7: ok, url, message): looser than the other writes so
 * that an answer without a URL can be told apart (`No checkout URL received`).
 */
export const checkoutResponseSchema = z.object({
  ok: z.boolean(),
  url: z.string().nullish(),
  message: z.string().optional(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** §4 Checkout: a Stripe Checkout page for one price. Without URLs the server uses the plugin's. */
export const createCheckoutSession = (body: CheckoutRequest) => post('/api/stripe/create-checkout-session', checkoutResponseSchema, body);

/** The Stripe billing portal (Manage, Re-Activate). */
export const createPortalSession = (returnUrl: string) => post('/api/stripe/create-portal-session', redirectResponseSchema, { returnUrl });

/** A Stripe page that adds a card (Add Payment Method). */
export const createPaymentMethodSession = (returnUrl: string) =>
  post('/api/stripe/create-payment-method-session', redirectResponseSchema, { returnUrl });

/** A Stripe page that resumes a paused subscription. */
export const resumeSubscription = (subscriptionId: string, returnUrl: string) =>
  post('/api/stripe/resume-subscription', redirectResponseSchema, { subscriptionId, returnUrl });

/** §7: the server re-reads the caller's subscriptions from Stripe. */
export const verifySubscription = () => post('/api/stripe/verify-subscription', verifySubscriptionResponseSchema);

const currentOrigin = () => window.location.origin;

/**
 * The return URL of every Stripe page opened from a subscription: the server re-reads the
 * subscription, then sends the web to `/dashboard?refresh=true#subscriptions` and the plugin's
 * browser to `/subscription-update?client=ue&updated=true`.
 */
export const subscriptionUpdateSuccessUrl = (client: BillingClient, origin = currentOrigin()) =>
  `${origin}/api/stripe/subscription-update-success?client=${client}`;

/** Where a checkout started from the web portal returns: updated subscription, or back to the plans. */
export const webCheckoutUrls = (origin = currentOrigin()) => ({
  successUrl: subscriptionUpdateSuccessUrl('web', origin),
  cancelUrl: `${origin}/products-checkout?client=web`,
});
