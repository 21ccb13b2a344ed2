import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../contract/billing';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { monthly, oneTime, price, product, subscription, subscriptionStatus, yearly } from './billingData';
import { bodyOf, currentLocation, deferred, expectToast, json, renderPortal, stubFetch } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

beforeEach(() => vi.mocked(assignLocation).mockReset());

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };
const CHECKOUT = '/api/stripe/create-checkout-session';
const STRIPE_URL = 'https://checkout.stripe.test/c/pay_1';

const CATALOGUE: Product[] = [
  product('prod_team', [monthly('price_team_m', 4999), yearly('price_team_y', 49999)], { name: 'Team' }),
  product('prod_pack_l', [oneTime('price_pack_l', 2999)], { name: 'Large Pack', metadata: { credits_amount: '1000' } }),
  product(
    'prod_pro',
    [
      yearly('price_pro_y', 9999),
      monthly('price_pro_m', 999),
      price('price_pro_w', { unit_amount: 299, recurring: { interval: 'week', interval_count: 1 } }),
    ],
    { name: 'Pro', description: 'For daily work in the editor', metadata: { popular: 'true', credits_amount: '500' } },
  ),
  product('prod_pack_s', [oneTime('price_pack_s', 499)], { name: 'Small Pack', metadata: { credits_amount: '100' } }),
  product('prod_basic', [monthly('price_basic_m', 1999), { ...yearly('price_basic_y', 1), active: false }], { name: 'Basic' }),
];

type Respond = (init: RequestInit | undefined) => Response | Promise<Response>;

function stubShop({
  products = () => json({ ok: true, products: CATALOGUE }),
  hasSubscription = false,
  checkout = () => json({ ok: true, url: STRIPE_URL }),
}: { products?: Respond; hasSubscription?: boolean; checkout?: Respond } = {}) {
  return stubFetch({
    'GET /api/user': () => json(user),
    'GET /api/stripe/products': products,
    'GET /api/stripe/subscription-status': () => json(subscriptionStatus(hasSubscription, hasSubscription ? [subscription('sub_1')] : [])),
    [`POST ${CHECKOUT}`]: checkout,
  });
}

const section = (name: string) => screen.getByRole('region', { name });
const card = (name: string) => screen.getByRole('article', { name });
const cardNames = (region: HTMLElement) =>
  within(region)
    .getAllByRole('article')
    .map((a) => within(a).getAllByRole('heading')[0]?.textContent);
const loaded = () => screen.findByRole('article', { name: 'Pro' });

describe('ProductsCheckoutPage plans (§2 Products, §9)', () => {
  it('lists subscriptions and credit packs in their sections, each ordered by its lowest price', async () => {
    stubShop();
    renderPortal('/products-checkout?client=web');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeInTheDocument();
    await loaded();
    expect(cardNames(section('Subscriptions'))).toEqual(['Pro', 'Basic', 'Team']);
    expect(cardNames(section('Credits & Add-ons'))).toEqual(['Small Pack', 'Large Pack']);
    expect(screen.getByText('All subscriptions include a 14-day free trial. Cancel anytime during the trial.')).toBeInTheDocument();
    expect(screen.queryByText('You have an active subscription')).not.toBeInTheDocument();
  });

  it('selects the yearly price first, shows the discount, and switches price with the toggles', async () => {
    stubShop();
    renderPortal('/products-checkout');
    const pro = await loaded();
    const options = within(pro).getByRole('group', { name: 'Price options for Pro' });
    expect(
      within(options)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['week', 'month', 'year Save 17%']);
    expect(within(options).getByRole('button', { name: /^year/ })).toHaveAttribute('aria-pressed', 'true');
    expect(within(pro).getByText('$99.99/year')).toBeInTheDocument();

    await userEvent.setup().click(within(options).getByRole('button', { name: 'month' }));
    expect(within(options).getByRole('button', { name: 'month' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(pro).getByText('$9.99/month')).toBeInTheDocument();
    expect(within(pro).queryByText('$99.99/year')).not.toBeInTheDocument();
  });

  it('gives each plan its own discount; a single price needs no selector', async () => {
    stubShop();
    renderPortal('/products-checkout');
    await loaded();
    const team = card('Team');
    expect(within(team).getByRole('button', { name: 'year Save 17%' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(team).getByText('$499.99/year')).toBeInTheDocument();
    const basic = card('Basic');
    expect(within(basic).queryByRole('group')).not.toBeInTheDocument();
    expect(within(basic).getByText('$19.99/month')).toBeInTheDocument();
    expect(within(basic).queryByText(/Save/)).not.toBeInTheDocument();
  });

  it('a plan without a yearly price starts on its first price and shows no discount', async () => {
    const weekly = product(
      'prod_w',
      [monthly('price_w_m', 999), price('price_w_w', { unit_amount: 299, recurring: { interval: 'week', interval_count: 1 } })],
      {
        name: 'Flexible',
      },
    );
    stubShop({ products: () => json({ ok: true, products: [weekly] }) });
    renderPortal('/products-checkout');
    const flexible = await screen.findByRole('article', { name: 'Flexible' });
    expect(within(flexible).getByRole('button', { name: 'week' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(flexible).getByRole('button', { name: 'month' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(flexible).getByText('$2.99/week')).toBeInTheDocument();
    expect(within(flexible).queryByText(/Save/)).not.toBeInTheDocument();
  });

  it('marks the popular plan and says how many queries each includes', async () => {
    stubShop();
    renderPortal('/products-checkout');
    const pro = await loaded();
    expect(within(pro).getByText('Most popular')).toBeInTheDocument();
    expect(within(pro).getByText('For daily work in the editor')).toBeInTheDocument();
    expect(within(pro).getByText('500 queries per month')).toBeInTheDocument();
    expect(screen.getAllByText('Most popular')).toHaveLength(1);
    expect(within(card('Basic')).getByText('Unlimited')).toBeInTheDocument();
    expect(within(card('Small Pack')).getByText('100 queries')).toBeInTheDocument();
    expect(within(card('Small Pack')).getByText('$4.99')).toBeInTheDocument();
  });

  it.each<[boolean, string]>([
    [false, 'Start Free Trial'],
    [true, 'Switch Plan'],
  ])('with a subscription %s the plans say %s; credit packs say Purchase Now', async (hasSubscription, label) => {
    stubShop({ hasSubscription });
    renderPortal('/products-checkout');
    await loaded();
    await waitFor(() => expect(within(card('Pro')).getByRole('button', { name: label })).toBeInTheDocument());
    for (const name of ['Basic', 'Team']) expect(within(card(name)).getByRole('button', { name: label })).toBeInTheDocument();
    for (const name of ['Small Pack', 'Large Pack'])
      expect(within(card(name)).getByRole('button', { name: 'Purchase Now' })).toBeInTheDocument();
    if (hasSubscription) expect(screen.getByText('You have an active subscription')).toBeInTheDocument();
  });
});

describe('ProductsCheckoutPage checkout (§4 Checkout)', () => {
  it('shows Processing... on the clicked button only, disables every button, then goes to Stripe (web URLs)', async () => {
    const answer = deferred<Response>();
    const spy = stubShop({ checkout: () => answer.promise });
    renderPortal('/products-checkout?client=web');
    const pro = await loaded();
    await userEvent.setup().click(within(pro).getByRole('button', { name: 'Start Free Trial' }));

    expect(within(pro).getByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(screen.getAllByRole('button', { name: 'Processing...' })).toHaveLength(1);
    expect(within(card('Basic')).getByRole('button', { name: 'Start Free Trial' })).toBeDisabled();
    expect(within(card('Small Pack')).getByRole('button', { name: 'Purchase Now' })).toBeDisabled();
    expect(within(pro).getByRole('button', { name: 'month' })).toBeDisabled();

    const call = spy.mock.calls.find(([input]) => String(input) === CHECKOUT);
    const origin = window.location.origin;
    expect(bodyOf(call?.[1])).toEqual({
      priceId: 'price_pro_y',
      productId: 'prod_pro',
      successUrl: `${origin}/api/stripe/subscription-update-success?client=web`,
      cancelUrl: `${origin}/products-checkout?client=web`,
    });
    expect(assignLocation).not.toHaveBeenCalled();
    answer.resolve(json({ ok: true, url: STRIPE_URL }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith(STRIPE_URL));
  });

  it('without client=web sends neither URL, so the server uses the plugin defaults', async () => {
    const spy = stubShop();
    renderPortal('/products-checkout');
    await loaded();
    const u = userEvent.setup();
    await u.click(within(card('Pro')).getByRole('button', { name: 'month' }));
    await u.click(within(card('Pro')).getByRole('button', { name: 'Start Free Trial' }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith(STRIPE_URL));
    const call = spy.mock.calls.find(([input]) => String(input) === CHECKOUT);
    expect(bodyOf(call?.[1])).toEqual({ priceId: 'price_pro_m', productId: 'prod_pro' });
  });

  it('buys a credit pack with its one-time price', async () => {
    const spy = stubShop();
    renderPortal('/products-checkout?client=ue');
    await loaded();
    await userEvent.setup().click(within(card('Large Pack')).getByRole('button', { name: 'Purchase Now' }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith(STRIPE_URL));
    const call = spy.mock.calls.find(([input]) => String(input) === CHECKOUT);
    expect(bodyOf(call?.[1])).toEqual({ priceId: 'price_pack_l', productId: 'prod_pack_l' });
  });

  it.each<[string, Respond, string]>([
    [
      'a refused checkout shows the server message',
      () => json({ error: 'same_plan', message: 'You are already subscribed to this plan.' }, 409),
      'You are already subscribed to this plan.',
    ],
    ['a refusal without a message says Failed to start checkout', () => json({ ok: false }), 'Failed to start checkout'],
    ['an answer without a URL says so', () => json({ ok: true }), 'No checkout URL received'],
  ])('%s', async (_name, checkout, message) => {
    stubShop({ checkout });
    renderPortal('/products-checkout?client=web');
    const pro = await loaded();
    await userEvent.setup().click(within(pro).getByRole('button', { name: 'Start Free Trial' }));
    await expectToast('Checkout Error', message);
    expect(within(pro).getByRole('button', { name: 'Start Free Trial' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Processing...' })).not.toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });
});

describe('ProductsCheckoutPage states', () => {
  it('shows a skeleton of three cards while the products load', async () => {
    stubShop({ products: () => new Promise<Response>(() => {}) });
    renderPortal('/products-checkout');
    const loading = await screen.findByRole('status', { name: 'Loading products' });
    expect(loading.querySelectorAll('.MuiCard-root')).toHaveLength(3);
  });

  it.each<[string, Product[]]>([
    ['no products', []],
    ['products with nothing to buy', [product('prod_x', [{ ...monthly('p', 999), active: false }])]],
  ])('says No Products Available for %s', async (_name, products) => {
    stubShop({ products: () => json({ ok: true, products }) });
    renderPortal('/products-checkout');
    expect(await screen.findByRole('heading', { name: 'No Products Available' })).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(screen.queryByText(/14-day free trial/)).not.toBeInTheDocument();
  });

  it('says Error Loading Products with the reason', async () => {
    stubShop({ products: () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    renderPortal('/products-checkout');
    expect(await screen.findByText('Error Loading Products')).toBeInTheDocument();
    expect(screen.getByText('500: Internal Server Error')).toBeInTheDocument();
  });

  it('is for signed-in users only', async () => {
    stubFetch({
      'GET /api/user': () => json({ error: 'unauthorized', message: 'Authentication required' }, 401),
      'GET /api/current-sage-build': () => json({}, 404),
      'GET /api/plugin/releases': () => json({ releases: [] }),
    });
    renderPortal('/products-checkout?client=web');
    await waitFor(() => expect(currentLocation()).toBe('/download'));
  });
});
