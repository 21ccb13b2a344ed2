import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, TRIAL_DAYS } from '../../contract/billing';
import {
  creditBalance,
  seedCatalogue,
  sessionIdOf,
  signedInUser,
  startCheckout,
  subscribe,
  useBillingServer,
  userSubscriptions,
  WEB_CANCEL_URL,
  WEB_SUCCESS_URL,
} from './billingFlow';
import { location, pkcePair, pluginLoginUrl, signUpWithEpic, uniqueDisplayName } from './epicFlow';
import { buildExtraApp, databases, errorBody, PUBLIC_URL, TestClient, uniqueEmail } from './harness';

const DAY = 86_400;

describe.each(databases)('billing on $label', (database) => {
  const { server, stripe } = useBillingServer(database);

  it('offers active products with their active prices only', async () => {
    const catalogue = await seedCatalogue(stripe());
    const retired = await stripe().addPrice(
      { product: catalogue.plan.id, unit_amount: 999, recurring: { interval: 'week' }, active: false },
      { emit: true },
    );
    const hidden = await stripe().addProduct({ name: 'Hidden', active: false }, { emit: true });
    await stripe().addPrice({ product: hidden.id, unit_amount: 100, recurring: null }, { emit: true });

    const response = await server().client().get('/api/stripe/products');
    expect(response.statusCode).toBe(200);
    const { products } = response.json<{
      products: { id: string; metadata: Record<string, string>; prices: { id: string; recurring: unknown }[] }[];
    }>();
    const plan = products.find((p) => p.id === catalogue.plan.id);
    expect(plan?.metadata).toEqual({ popular: 'true', credits_amount: '1000' });
    expect(plan?.prices.map((p) => p.id).sort()).toEqual([catalogue.plan.monthly, catalogue.plan.yearly].sort());
    expect(plan?.prices.map((p) => p.id)).not.toContain(retired.id);
    expect(products.find((p) => p.id === catalogue.pack.id)?.prices).toEqual([
      { id: catalogue.pack.price, active: true, unit_amount: 999, currency: 'usd', recurring: null },
    ]);
    expect(products.map((p) => p.id)).not.toContain(hidden.id);
  });

  it(`starts a first subscription with the ${TRIAL_DAYS}-day trial and shows it once the webhooks arrive`, async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    expect((await userSubscriptions(buyer)).status).toBe(404);

    const url = await startCheckout(buyer, catalogue.plan.yearly, catalogue.plan.id);
    expect(url.startsWith(`${stripe().url}/checkout/`)).toBe(true);
    const session = stripe().checkoutSessions.get(sessionIdOf(url))!;
    expect(session.mode).toBe('subscription');
    expect(session.success_url).toBe(`${WEB_SUCCESS_URL}&session_id={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(WEB_CANCEL_URL);

    const { subscription } = await stripe().completeCheckoutSession(sessionIdOf(url));
    const { status, body } = await userSubscriptions(buyer);
    expect(status).toBe(200);
    expect(body.hasSubscription).toBe(true);
    expect(body.has_default_payment_method).toBe(false);
    const [shown] = body.subscriptions;
    expect(shown?.id).toBe(subscription?.id);
    expect(shown?.status).toBe('trialing');
    const now = Math.floor(Date.now() / 1000);
    expect(shown?.trial_end).toBeGreaterThan(now + (TRIAL_DAYS - 1) * DAY);
    expect(shown?.trial_end).toBeLessThanOrEqual(now + TRIAL_DAYS * DAY + 5);
    expect(shown?.items.data[0]?.price).toMatchObject({
      id: catalogue.plan.yearly,
      unit_amount: 19999,
      product: { name: expect.stringMatching(/^Sage Pro/) },
    });

    const status2 = await buyer.client.get('/api/stripe/subscription-status');
    expect(status2.json()).toMatchObject({ ok: true, hasSubscription: true, subscriptions: [{ id: subscription?.id }] });
  });

  it('gives no second trial to a user whose first subscription ended', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const first = await subscribe(stripe(), buyer, catalogue);
    await stripe().updateSubscription(first, { status: 'canceled' });
    await startCheckout(buyer, catalogue.plan.monthly, catalogue.plan.id);

    // What the app asked Stripe for: the session object does not show its subscription_data.
    const trials = stripe()
      .requests.filter(
        (r) =>
          r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.params.customer === stripe().subscriptions.get(first)!.customer,
      )
      .map((r) => (r.params.subscription_data as Record<string, unknown>).trial_period_days);
    expect(trials).toEqual([String(TRIAL_DAYS), undefined]);
  });

  it('sends a subscriber who picks another plan to the portal to confirm the switch, and refuses the same plan', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const subscriptionId = await subscribe(stripe(), buyer, catalogue, { price: catalogue.plan.monthly });
    const sessionsBefore = stripe().checkoutSessions.size;

    const url = await startCheckout(buyer, catalogue.plan.yearly, catalogue.plan.id);
    expect(url.startsWith(`${stripe().url}/portal/`)).toBe(true);
    expect(stripe().checkoutSessions.size).toBe(sessionsBefore);
    const portal = [...stripe().portalSessions.values()].at(-1)!;
    expect(portal.flow?.type).toBe('subscription_update_confirm');
    expect(portal.flow?.subscription_update_confirm?.subscription).toBe(subscriptionId);
    expect(portal.flow?.subscription_update_confirm?.items[0]?.price).toBe(catalogue.plan.yearly);
    expect(portal.flow?.after_completion.redirect?.return_url).toBe(WEB_SUCCESS_URL);

    const same = await buyer.client.post('/api/stripe/create-checkout-session', {
      priceId: catalogue.plan.monthly,
      productId: catalogue.plan.id,
    });
    expect(same.statusCode).toBe(409);
    expect(errorBody(same)).toEqual({ error: 'same_plan', message: BILLING_MESSAGES.samePlan });

    // A paused subscription is resumed before its plan can change.
    await stripe().updateSubscription(subscriptionId, { status: 'paused' });
    const fromPaused = await buyer.client.post('/api/stripe/create-checkout-session', {
      priceId: catalogue.plan.yearly,
      productId: catalogue.plan.id,
    });
    expect(fromPaused.statusCode).toBe(409);
    expect(errorBody(fromPaused)).toEqual({ error: 'subscription_needs_attention', message: BILLING_MESSAGES.needsAttention });
  });

  it('sells a credit pack in payment mode and credits it exactly once', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const url = await startCheckout(buyer, catalogue.pack.price, catalogue.pack.id);
    expect(stripe().checkoutSessions.get(sessionIdOf(url))!.mode).toBe('payment');

    const { events } = await stripe().completeCheckoutSession(sessionIdOf(url));
    expect(await creditBalance(server().db, buyer.userId)).toBe(catalogue.pack.credits);
    const completed = events.find((e) => e.type === 'checkout.session.completed');
    expect(await stripe().redeliver(completed!)).toBe(200);
    // The return page applies the same session again.
    await buyer.client.get(`/api/stripe/subscription-update-success?client=web&session_id=${sessionIdOf(url)}`);
    expect(await creditBalance(server().db, buyer.userId)).toBe(catalogue.pack.credits);
  });

  it('makes one Stripe customer for concurrent first checkouts, even across two servers', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const other = await buildExtraApp(server().db, { ...stripe().env, PUBLIC_URL });
    try {
      const second = new TestClient(other);
      for (const [name, value] of buyer.client.cookies) second.cookies.set(name, value);
      const body = { priceId: catalogue.pack.price, productId: catalogue.pack.id };
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, () => buyer.client.post('/api/stripe/create-checkout-session', body)),
        ...Array.from({ length: 2 }, () => second.post('/api/stripe/create-checkout-session', body)),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    } finally {
      await other.close();
    }
    const customers = [...stripe().customers.values()].filter((c) => c.metadata.user_id === buyer.userId);
    expect(customers).toHaveLength(1);
    const rows = await server().db.selectFrom('billing_customers').selectAll().where('user_id', '=', buyer.userId).execute();
    expect(rows.map((r) => r.customer_id)).toEqual([customers[0]!.id]);
  });

  it('refuses return addresses off this site (no open redirects)', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    for (const [field, value] of [
      ['successUrl', 'https://evil.example/steal'],
      ['cancelUrl', 'https://evil.example/'],
      ['successUrl', 'javascript:alert(1)'],
      ['successUrl', '//evil.example/x'],
      ['successUrl', 'http://sage.test.evil.example/'],
    ] as const) {
      const response = await buyer.client.post('/api/stripe/create-checkout-session', {
        priceId: catalogue.plan.monthly,
        productId: catalogue.plan.id,
        [field]: value,
      });
      expect(response.statusCode, `${field}=${value}`).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_return_url', message: BILLING_MESSAGES.badReturnUrl });
    }
    // The other Stripe pages too, for a subscriber (who has a customer, so the address is what is refused).
    const subscriptionId = await subscribe(stripe(), buyer, catalogue);
    await stripe().updateSubscription(subscriptionId, { status: 'paused' });
    for (const [url, body] of [
      ['/api/stripe/create-portal-session', {}],
      ['/api/stripe/create-payment-method-session', {}],
      ['/api/stripe/resume-subscription', { subscriptionId }],
    ] as const) {
      const response = await buyer.client.post(url, { ...body, returnUrl: 'https://evil.example/' });
      expect(response.statusCode, url).toBe(400);
      expect(errorBody(response).error).toBe('invalid_return_url');
    }
  });

  it("uses the plugin's return addresses when the caller names none", async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const response = await buyer.client.post('/api/stripe/create-checkout-session', {
      priceId: catalogue.plan.monthly,
      productId: catalogue.plan.id,
    });
    const session = stripe().checkoutSessions.get(sessionIdOf(response.json<{ url: string }>().url))!;
    expect(session.success_url).toBe(`${PUBLIC_URL}/api/stripe/subscription-update-success?client=ue&session_id={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(`${PUBLIC_URL}/products-checkout`);
  });

  it('refuses unknown prices, a price of another product and malformed bodies', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    for (const body of [
      { priceId: 'price_nope', productId: catalogue.plan.id },
      { priceId: catalogue.pack.price, productId: catalogue.plan.id },
    ]) {
      const response = await buyer.client.post('/api/stripe/create-checkout-session', body);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).error).toBe('unknown_price');
    }
    for (const body of [
      {},
      { priceId: '', productId: 'x' },
      { priceId: 'a b', productId: 'x' },
      { priceId: 'p', productId: 'x', successUrl: 5 },
    ]) {
      const response = await buyer.client.post('/api/stripe/create-checkout-session', body);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).error).toBe('invalid_request');
    }
  });

  it('asks for a session on every account endpoint (401 Authentication required)', async () => {
    const anonymous = server().client();
    for (const [method, url] of [
      ['GET', '/api/stripe/user-subscriptions'],
      ['GET', '/api/stripe/subscription-status'],
      ['POST', '/api/stripe/verify-subscription'],
      ['POST', '/api/stripe/create-checkout-session'],
      ['POST', '/api/stripe/create-portal-session'],
      ['POST', '/api/stripe/create-payment-method-session'],
      ['POST', '/api/stripe/resume-subscription'],
    ] as const) {
      const body = { priceId: 'price_1', productId: 'prod_1', subscriptionId: 'sub_1' };
      const response = method === 'GET' ? await anonymous.get(url) : await anonymous.post(url, body);
      expect(response.statusCode, url).toBe(401);
      expect(errorBody(response)).toEqual({ error: 'unauthorized', message: 'Authentication required' });
    }
  });

  it('keeps each user to their own subscription', async () => {
    const catalogue = await seedCatalogue(stripe());
    const owner = await signedInUser(server(), 'owner');
    const subscriptionId = await subscribe(stripe(), owner, catalogue);
    await stripe().updateSubscription(subscriptionId, { status: 'paused' });
    const stranger = await signedInUser(server(), 'stranger');
    const strangersOwn = await subscribe(stripe(), stranger, catalogue);
    const ownersSession = [...stripe().checkoutSessions.values()].find((s) => s.subscription === subscriptionId)!;

    // Coming back with the owner's Checkout session applies nothing to the stranger.
    await stranger.client.get(`/api/stripe/subscription-update-success?client=web&session_id=${ownersSession.id}`);
    expect((await userSubscriptions(stranger)).body.subscriptions.map((s) => s.id)).toEqual([strangersOwn]);
    const resume = await stranger.client.post('/api/stripe/resume-subscription', { subscriptionId, returnUrl: `${PUBLIC_URL}/dashboard` });
    expect(resume.statusCode).toBe(404);
    expect(errorBody(resume).message).toBe(BILLING_MESSAGES.notYours);
    // The portal a stranger opens is their own customer's.
    expect((await stranger.client.post('/api/stripe/create-portal-session', {})).statusCode).toBe(200);
    const portal = [...stripe().portalSessions.values()].at(-1)!;
    expect(portal.customer).toBe(stripe().subscriptions.get(strangersOwn)!.customer);
    expect(portal.customer).not.toBe(stripe().subscriptions.get(subscriptionId)!.customer);
    expect(stripe().subscriptions.get(subscriptionId)!.status).toBe('paused');
  });

  it('opens the customer portal for a subscriber, back to the given address', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    await subscribe(stripe(), buyer, catalogue);
    const response = await buyer.client.post('/api/stripe/create-portal-session', { returnUrl: `${PUBLIC_URL}/dashboard#subscriptions` });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ url: string }>().url.startsWith(`${stripe().url}/portal/`)).toBe(true);
    const portal = [...stripe().portalSessions.values()].at(-1)!;
    expect(portal.return_url).toBe(`${PUBLIC_URL}/dashboard#subscriptions`);
  });

  it('saves a card through Checkout in setup mode and makes it the default', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    await subscribe(stripe(), buyer, catalogue);
    const response = await buyer.client.post('/api/stripe/create-payment-method-session', {
      returnUrl: `${PUBLIC_URL}/dashboard#subscriptions`,
    });
    expect(response.statusCode).toBe(200);
    const id = sessionIdOf(response.json<{ url: string }>().url);
    expect(stripe().checkoutSessions.get(id)!.mode).toBe('setup');
    await stripe().completeCheckoutSession(id);

    const { body } = await userSubscriptions(buyer);
    expect(body.has_default_payment_method).toBe(true);
    expect(body.subscriptions[0]?.default_payment_method).toMatch(/^pm_/);
  });

  it('resumes a paused subscription: at once with a card on file, through a card form without one', async () => {
    const catalogue = await seedCatalogue(stripe());
    const withoutCard = await signedInUser(server(), 'nocard');
    const paused = await subscribe(stripe(), withoutCard, catalogue);
    await stripe().updateSubscription(paused, { status: 'paused' });
    const viaForm = await withoutCard.client.post('/api/stripe/resume-subscription', {
      subscriptionId: paused,
      returnUrl: `${PUBLIC_URL}/dashboard`,
    });
    expect(viaForm.statusCode).toBe(200);
    const setup = sessionIdOf(viaForm.json<{ url: string }>().url);
    await stripe().completeCheckoutSession(setup);
    expect((await userSubscriptions(withoutCard)).body.subscriptions[0]?.status).toBe('active');

    const withCard = await signedInUser(server(), 'card');
    const other = await subscribe(stripe(), withCard, catalogue, { withPaymentMethod: true });
    const notPaused = await withCard.client.post('/api/stripe/resume-subscription', { subscriptionId: other });
    expect(notPaused.statusCode).toBe(409);
    await stripe().updateSubscription(other, { status: 'paused' });
    const direct = await withCard.client.post('/api/stripe/resume-subscription', {
      subscriptionId: other,
      returnUrl: `${PUBLIC_URL}/dashboard`,
    });
    expect(direct.json()).toEqual({ ok: true, url: `${PUBLIC_URL}/dashboard` });
    expect((await userSubscriptions(withCard)).body.subscriptions[0]?.status).toBe('active');
  });

  it('re-reads the subscription from Stripe on verify and on the return from Checkout, before any webhook', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    stripe().deliverTo(async () => 503); // Webhooks are late.
    const url = await startCheckout(buyer, catalogue.plan.monthly, catalogue.plan.id);
    await stripe().completeCheckoutSession(sessionIdOf(url));
    expect((await userSubscriptions(buyer)).status).toBe(404);

    const back = await buyer.client.get(`/api/stripe/subscription-update-success?client=web&session_id=${sessionIdOf(url)}`);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/dashboard?refresh=true#subscriptions');
    expect((await userSubscriptions(buyer)).body.hasSubscription).toBe(true);

    const late = await signedInUser(server(), 'late');
    await stripe().completeCheckoutSession(sessionIdOf(await startCheckout(late, catalogue.plan.monthly, catalogue.plan.id)));
    const verify = await late.client.post('/api/stripe/verify-subscription');
    expect(verify.json()).toEqual({ ok: true, hasSubscription: true });
  });

  it('tells the plugin, at sign-in, about the subscription and the credits bought', async () => {
    const catalogue = await seedCatalogue(stripe());
    const pkce = pkcePair();
    const browser = server().client();
    const email = uniqueEmail('plugin');
    const loginUrl = pluginLoginUrl({ code_challenge: pkce.challenge, state: 'billing-state' });
    const completed = await signUpWithEpic(server(), browser, { displayName: uniqueDisplayName('Payer'), email, loginUrl });
    expect(location(completed)).toBe('/login_completed?client=ue');
    const buyer = { client: browser, email, userId: (await browser.get('/api/user')).json<{ id: string }>().id };
    await subscribe(stripe(), buyer, catalogue);
    await stripe().completeCheckoutSession(sessionIdOf(await startCheckout(buyer, catalogue.pack.price, catalogue.pack.id)));

    const { code } = (await browser.post('/api/auth/ue-store-payload')).json<{ code: string }>();
    const payload = await server().client().get(`/api/auth/ue-payload?code=${code}&code_verifier=${pkce.verifier}`);
    const [shown] = (await userSubscriptions(buyer)).body.subscriptions;
    expect(payload.json()).toMatchObject({
      user: { email },
      subscription: {
        status: 'trialing',
        productName: expect.stringMatching(/^Sage Pro/),
        trialEnd: shown?.trial_end,
        currentPeriodEnd: shown?.current_period_end,
      },
      credits: catalogue.pack.credits,
    });
  });

  it('sends the plugin user back to a page telling them to return to Unreal', async () => {
    const response = await server().client().get('/api/stripe/subscription-update-success?client=ue');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/subscription-update?client=ue&updated=true');
  });
});

describe.each(databases)('billing switched off on $label', (database) => {
  it('offers no products and answers every billing write with 503 billing_not_configured', async () => {
    const opened = await database.open();
    const app = await buildExtraApp(opened.db);
    try {
      const client = new TestClient(app);
      expect((await client.get('/api/stripe/products')).json()).toEqual({ ok: true, products: [] });
      await client.register(uniqueEmail('off'));
      for (const url of [
        '/api/stripe/create-checkout-session',
        '/api/stripe/create-portal-session',
        '/api/stripe/create-payment-method-session',
        '/api/stripe/resume-subscription',
      ]) {
        const response = await client.post(url, { priceId: 'price_1', productId: 'prod_1', subscriptionId: 'sub_1' });
        expect(response.statusCode, url).toBe(503);
        expect(errorBody(response)).toEqual({ error: 'billing_not_configured', message: 'Billing is not set up on this server' });
      }
      expect((await client.get('/api/stripe/user-subscriptions')).statusCode).toBe(404);
      expect((await client.post('/api/stripe/verify-subscription')).json()).toEqual({ ok: true, hasSubscription: false });
      const webhook = await client.request('POST', '/api/stripe/webhook', {
        payload: '{}',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      });
      expect(webhook.statusCode).toBe(503);
      expect(errorBody(webhook).error).toBe('billing_not_configured');
    } finally {
      await app.close();
      await opened.dispose();
    }
  });
});
