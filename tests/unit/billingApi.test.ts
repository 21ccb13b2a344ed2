import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createCheckoutSession,
  createPaymentMethodSession,
  createPortalSession,
  fetchProducts,
  fetchSubscriptionStatus,
  fetchUserSubscriptions,
  productsQuery,
  resumeSubscription,
  retrySubscriptionRead,
  subscriptionStatusQuery,
  subscriptionUpdateSuccessUrl,
  userSubscriptionsQuery,
  verifySubscription,
  webCheckoutUrls,
} from '../../src/api/billing';
import { HttpError } from '../../src/api/client';
import { createQueryClient } from '../../src/api/queryClient';
import { monthly, product, subscription, subscriptionStatus, userSubscriptions } from '../portal/billingData';
import { jsonResponse, stubFetchWith } from './fetchStub';

const apiError = (status: number, message: string) => jsonResponse({ error: 'x', message }, status, 'Error');

afterEach(() => vi.unstubAllGlobals());

describe('billing reads (§7, §8)', () => {
  it('fetches the products with credentials', async () => {
    const body = { ok: true, products: [product('prod_1', [monthly('price_1', 999)])] };
    const spy = stubFetchWith(() => jsonResponse(body));
    await expect(fetchProducts()).resolves.toEqual(body);
    expect(spy).toHaveBeenCalledWith('/api/stripe/products', expect.objectContaining({ method: 'GET', credentials: 'include' }));
  });

  it('a failed products call raises the §8 text', async () => {
    stubFetchWith(() => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(fetchProducts()).rejects.toThrow('503: Service Unavailable');
  });

  it('reads the user subscriptions; 404 means none', async () => {
    const body = userSubscriptions([subscription('sub_1')]);
    stubFetchWith(() => jsonResponse(body));
    await expect(fetchUserSubscriptions()).resolves.toEqual(body);
    stubFetchWith(() => apiError(404, 'No subscription found'));
    await expect(fetchUserSubscriptions()).resolves.toBeNull();
  });

  it('reads the subscription status', async () => {
    const body = subscriptionStatus(true, [subscription('sub_1')]);
    const spy = stubFetchWith(() => jsonResponse(body));
    await expect(fetchSubscriptionStatus()).resolves.toEqual(body);
    expect(spy).toHaveBeenCalledWith('/api/stripe/subscription-status', expect.objectContaining({ credentials: 'include' }));
  });

  it.each<[string, () => Promise<unknown>, string]>([
    ['user subscriptions', fetchUserSubscriptions, 'Failed to fetch subscription data'],
    ['subscription status', fetchSubscriptionStatus, 'Failed to fetch subscription status'],
  ])('%s: failures carry the §8 message and keep the status', async (_name, read, message) => {
    stubFetchWith(() => apiError(401, 'Not signed in'));
    // §8's words for people; the server's code and body for programs.
    await expect(read()).rejects.toEqual(
      new HttpError({ status: 401, code: 'x', message: 'Authentication required', body: { error: 'x', message: 'Not signed in' } }),
    );
    stubFetchWith(() => new Response('', { status: 500, statusText: 'Internal Server Error' }));
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 500, message });
    stubFetchWith(() => jsonResponse({ ok: true, something: 'else' }));
    await expect(read()).rejects.toThrow(message);
    stubFetchWith(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(read()).rejects.toThrow(message);
  });

  it('a 404 of the subscription status is a failure, not "no subscription"', async () => {
    stubFetchWith(() => apiError(404, 'Not Found'));
    await expect(fetchSubscriptionStatus()).rejects.toMatchObject({ status: 404, message: 'Failed to fetch subscription status' });
  });
});

describe('retrySubscriptionRead (§9: up to 2 retries, none on 401)', () => {
  it.each<[number, Error, boolean]>([
    [0, new HttpError({ status: 500, message: 'x' }), true],
    [1, new HttpError({ status: 500, message: 'x' }), true],
    [2, new HttpError({ status: 500, message: 'x' }), false],
    [0, new Error('network'), true],
    [0, new HttpError({ status: 401, message: 'Authentication required' }), false],
    [0, new HttpError({ status: 403, message: 'x' }), true],
  ])('after %i failures of %s → %s', (failures, error, expected) => {
    expect(retrySubscriptionRead(failures, error)).toBe(expected);
  });
});

describe('billing query caching (§9)', () => {
  it('keeps the subscription status 5 minutes and the user subscriptions 2 minutes, retrying both', () => {
    expect(subscriptionStatusQuery).toMatchObject({ staleTime: 5 * 60_000, gcTime: 5 * 60_000, retry: retrySubscriptionRead });
    expect(userSubscriptionsQuery).toMatchObject({ staleTime: 2 * 60_000, gcTime: 2 * 60_000, retry: retrySubscriptionRead });
  });

  it('leaves the products to the defaults', () => {
    expect(productsQuery).not.toHaveProperty('staleTime');
    expect(productsQuery).not.toHaveProperty('retry');
  });

  it('a 401 fails at once; a server error is tried three times in all', async () => {
    vi.useFakeTimers();
    try {
      const unauthorized = stubFetchWith(() => apiError(401, 'Not signed in'));
      await expect(createQueryClient().fetchQuery(userSubscriptionsQuery)).rejects.toThrow('Authentication required');
      expect(unauthorized).toHaveBeenCalledTimes(1);

      const failing = stubFetchWith(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
      const result = createQueryClient().fetchQuery(subscriptionStatusQuery).catch((e: unknown) => e);
      await vi.runAllTimersAsync();
      expect(await result).toMatchObject({ status: 502, message: 'Failed to fetch subscription status' });
      expect(failing).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('billing writes', () => {
  it.each<[string, () => Promise<unknown>, string, unknown]>([
    [
      'checkout',
      () => createCheckoutSession({ priceId: 'price_1', productId: 'prod_1', successUrl: 's', cancelUrl: 'c' }),
      '/api/stripe/create-checkout-session',
      { priceId: 'price_1', productId: 'prod_1', successUrl: 's', cancelUrl: 'c' },
    ],
    ['portal', () => createPortalSession('r'), '/api/stripe/create-portal-session', { returnUrl: 'r' }],
    ['payment method', () => createPaymentMethodSession('r'), '/api/stripe/create-payment-method-session', { returnUrl: 'r' }],
    ['resume', () => resumeSubscription('sub_1', 'r'), '/api/stripe/resume-subscription', { subscriptionId: 'sub_1', returnUrl: 'r' }],
  ])('%s POSTs its body and answers the URL', async (_name, write, path, body) => {
    const spy = stubFetchWith(() => jsonResponse({ ok: true, url: 'https://stripe.test/x' }));
    await expect(write()).resolves.toEqual({ ok: true, status: 200, data: { ok: true, url: 'https://stripe.test/x' } });
    const [url, init] = spy.mock.calls[0]!;
    expect(url).toBe(path);
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(JSON.parse(String(init?.body))).toEqual(body);
  });

  it('failures are values with the server message', async () => {
    stubFetchWith(() => apiError(409, 'You are already subscribed to this plan.'));
    await expect(createCheckoutSession({ priceId: 'p', productId: 'q' })).resolves.toEqual({
      ok: false,
      status: 409,
      code: expect.any(String),
      message: 'You are already subscribed to this plan.',
    });
    stubFetchWith(() => jsonResponse({ ok: true }));
    await expect(createPortalSession('r')).resolves.toMatchObject({ ok: false });
  });

  it('verifySubscription asks the server to re-read Stripe', async () => {
    const spy = stubFetchWith(() => jsonResponse({ ok: true, hasSubscription: true }));
    await expect(verifySubscription()).resolves.toMatchObject({ ok: true, data: { hasSubscription: true } });
    expect(spy).toHaveBeenCalledWith('/api/stripe/verify-subscription', expect.objectContaining({ method: 'POST' }));
  });
});

describe('return URLs', () => {
  it.each([
    ['web', 'https://sage.test/api/stripe/subscription-update-success?client=web'],
    ['ue', 'https://sage.test/api/stripe/subscription-update-success?client=ue'],
  ] as const)('%s', (client, expected) => {
    expect(subscriptionUpdateSuccessUrl(client, 'https://sage.test')).toBe(expected);
  });

  it('a web checkout returns to the dashboard, or to the plans when abandoned', () => {
    expect(webCheckoutUrls('http://localhost:3000')).toEqual({
      successUrl: 'http://localhost:3000/api/stripe/subscription-update-success?client=web',
      cancelUrl: 'http://localhost:3000/products-checkout?client=web',
    });
  });
});
