import { QueryObserver, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
import { HttpError, UNREADABLE_ANSWER } from '../../src/api/client';
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
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Read twice just inside `minutes`, asking once; at `minutes` the unused answer is gone and the next read asks again. */
  async function expectKeptFor(minutes: number, body: unknown, queryKey: QueryKey, read: (client: QueryClient) => Promise<unknown>) {
    const spy = stubFetchWith(() => jsonResponse(body));
    const client = createQueryClient();
    await read(client);
    await vi.advanceTimersByTimeAsync(minutes * 60_000 - 1);
    await read(client);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(client.getQueryData(queryKey)).toEqual(body);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryData(queryKey)).toBeUndefined();
    await read(client);
    expect(spy).toHaveBeenCalledTimes(2);
  }

  it('the subscription status is read again only after 5 minutes, and forgotten then when no screen uses it', () =>
    expectKeptFor(5, subscriptionStatus(true, [subscription('sub_1')]), subscriptionStatusQuery.queryKey, (client) =>
      client.fetchQuery(subscriptionStatusQuery),
    ));

  it('the user subscriptions are read again only after 2 minutes, and forgotten then when no screen uses them', () =>
    expectKeptFor(2, userSubscriptions([subscription('sub_1')]), userSubscriptionsQuery.queryKey, (client) =>
      client.fetchQuery(userSubscriptionsQuery),
    ));

  it('the products are read once while shown, however long, and a failed read is not tried again', async () => {
    const body = { ok: true, products: [product('prod_1', [monthly('price_1', 999)])] };
    const spy = stubFetchWith(() => jsonResponse(body));
    const client = createQueryClient();
    const first = new QueryObserver(client, productsQuery).subscribe(() => undefined);
    await vi.runAllTimersAsync();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    const second = new QueryObserver(client, productsQuery).subscribe(() => undefined);
    await vi.runAllTimersAsync();
    expect(spy).toHaveBeenCalledTimes(1);
    first();
    second();

    const failing = stubFetchWith(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
    const shown = new QueryObserver(createQueryClient(), productsQuery);
    const leave = shown.subscribe(() => undefined);
    await vi.runAllTimersAsync();
    expect(shown.getCurrentResult()).toMatchObject({ status: 'error', error: { message: '502: Bad Gateway' } });
    expect(failing).toHaveBeenCalledTimes(1);
    leave();
  });

  it('a 401 fails at once; a server error is tried three times in all', async () => {
    const unauthorized = stubFetchWith(() => apiError(401, 'Not signed in'));
    await expect(createQueryClient().fetchQuery(userSubscriptionsQuery)).rejects.toThrow('Authentication required');
    expect(unauthorized).toHaveBeenCalledTimes(1);

    const failing = stubFetchWith(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
    const result = createQueryClient()
      .fetchQuery(subscriptionStatusQuery)
      .catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await result).toMatchObject({ status: 502, message: 'Failed to fetch subscription status' });
    expect(failing).toHaveBeenCalledTimes(3);
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
    await expect(write()).resolves.toEqual({ ok: true, url: 'https://stripe.test/x' });
    const [url, init] = spy.mock.calls[0]!;
    expect(url).toBe(path);
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(JSON.parse(String(init?.body))).toEqual(body);
  });

  it('failures are HttpErrors with the server message and code', async () => {
    stubFetchWith(() => apiError(409, 'You are already subscribed to this plan.'));
    const error: unknown = await createCheckoutSession({ priceId: 'p', productId: 'q' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 409, code: expect.any(String), message: 'You are already subscribed to this plan.' });
    stubFetchWith(() => jsonResponse({ ok: true }));
    await expect(createPortalSession('r')).rejects.toMatchObject({ status: 200, message: UNREADABLE_ANSWER });
  });

  it('verifySubscription asks the server to re-read Stripe', async () => {
    const spy = stubFetchWith(() => jsonResponse({ ok: true, hasSubscription: true }));
    await expect(verifySubscription()).resolves.toMatchObject({ ok: true, hasSubscription: true });
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
