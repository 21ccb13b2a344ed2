import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNavigate } from 'react-router-dom';
import type { Subscription } from '../../contract/billing';
import { DashboardPage } from '../../src/portal/dashboard/DashboardPage';
import { at, subscription, subscriptionStatus, userSubscriptions } from './billingData';
import { currentLocation, expectToast, installFakeTimers, json, renderPortal, renderScreen, stubFetch } from './render';

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };
const SUBSCRIPTIONS = '/api/stripe/user-subscriptions';
const STATUS = '/api/stripe/subscription-status';
const PAGE = '/dashboard#subscriptions';

type Respond = () => Response | Promise<Response>;
const none: Respond = () => json({ error: 'no_subscription', message: 'No subscription found' }, 404);
const listOf =
  (subs: Subscription[]): Respond =>
  () =>
    json(userSubscriptions(subs));
const status =
  (hasSubscription: boolean): Respond =>
  () =>
    json(subscriptionStatus(hasSubscription));

function stubBilling({ list = none, state = status(false) }: { list?: Respond; state?: Respond } = {}) {
  const spy = stubFetch({
    'GET /api/user': () => json(user),
    [`GET ${SUBSCRIPTIONS}`]: list,
    [`GET ${STATUS}`]: state,
    'GET /api/stripe/products': () => json({ ok: true, products: [] }),
  });
  const count = (path: string) => spy.mock.calls.filter(([input]) => String(input) === path).length;
  return { spy, lists: () => count(SUBSCRIPTIONS), statuses: () => count(STATUS) };
}

const heading = () => screen.getByRole('heading', { level: 1, name: 'Subscriptions' });
const cards = () => screen.queryAllByRole('article');
const banner = (title: string) => screen.getByText(title).closest('.MuiAlert-root');

afterEach(() => vi.useRealTimers());

describe('Subscriptions section states (§2 Dashboard)', () => {
  it('shows a skeleton of two cards while the subscriptions load', () => {
    stubBilling({ list: () => new Promise<Response>(() => {}) });
    renderScreen(<DashboardPage />, PAGE);
    expect(heading()).toBeInTheDocument();
    const loading = screen.getByRole('status', { name: 'Loading subscriptions' });
    expect(loading.querySelectorAll('.MuiCard-root')).toHaveLength(2);
  });

  it('a 401 shows the error card with Authentication required at once, without retrying', async () => {
    const api = stubBilling({ list: () => json({ error: 'unauthorized', message: 'Authentication required' }, 401) });
    renderScreen(<DashboardPage />, PAGE);
    expect(await screen.findByText('Failed to load subscription data')).toBeInTheDocument();
    expect(screen.getByText('Authentication required')).toBeInTheDocument();
    expect(api.lists()).toBe(1);
  });

  it('retries a failed read twice, then shows Failed to fetch subscription data', async () => {
    installFakeTimers();
    const api = stubBilling({ list: () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    renderScreen(<DashboardPage />, PAGE);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.lists()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(api.lists()).toBe(3);
    expect(screen.getByText('Failed to load subscription data')).toBeInTheDocument();
    expect(screen.getByText('Failed to fetch subscription data')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading subscriptions' })).not.toBeInTheDocument();
  });

  it('with no subscriptions offers the plans, opened for the web', async () => {
    stubBilling();
    renderPortal(PAGE);
    expect(await screen.findByRole('heading', { name: 'No Active Subscriptions' })).toBeInTheDocument();
    expect(cards()).toHaveLength(0);
    await userEvent.setup().click(screen.getByRole('button', { name: 'View Available Plans' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/products-checkout?client=web');
  });

  it('an empty list counts as none too', async () => {
    stubBilling({ list: listOf([]) });
    renderScreen(<DashboardPage />, PAGE);
    expect(await screen.findByRole('heading', { name: 'No Active Subscriptions' })).toBeInTheDocument();
  });

  it('says the details cannot be loaded when the status has a subscription but the list is empty', async () => {
    stubBilling({ state: status(true) });
    renderScreen(<DashboardPage />, PAGE);
    expect(await screen.findByText('Unable to load subscription details at this time')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'No Active Subscriptions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View Available Plans' })).not.toBeInTheDocument();
  });

  it('shows one card per subscription, and no plans button while one is live', async () => {
    stubBilling({
      list: listOf([
        subscription('sub_1', { name: 'Sage Pro' }),
        subscription('', { name: 'Ghost' }),
        subscription('sub_2', { name: 'Sage Team', status: 'canceled' }),
      ]),
      state: status(true),
    });
    renderScreen(<DashboardPage />, PAGE);
    expect(await screen.findByRole('article', { name: 'Sage Pro' })).toBeInTheDocument();
    expect(cards().map((c) => within(c).getByRole('heading').textContent)).toEqual(['Sage Pro', 'Sage Team']);
    expect(within(screen.getByRole('article', { name: 'Sage Pro' })).getByRole('button', { name: 'Manage' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View Available Plans' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers the plans below subscriptions that have all ended', async () => {
    stubBilling({ list: listOf([subscription('sub_1', { status: 'canceled' })]) });
    renderScreen(<DashboardPage />, PAGE);
    expect(await screen.findByRole('article', { name: 'Sage Pro' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View Available Plans' })).toBeInTheDocument();
  });
});

describe('Subscriptions section banners', () => {
  const render = async (subs: Subscription[]) => {
    stubBilling({ list: listOf(subs), state: status(true) });
    renderScreen(<DashboardPage />, PAGE);
    await screen.findAllByRole('article');
  };

  it('a trial with a card: blue Trial Active with the end date, not asking for a card', async () => {
    await render([subscription('sub_1', { status: 'trialing', trial_end: at('2025-03-05') })]);
    expect(banner('Trial Active')).toHaveClass('MuiAlert-colorInfo');
    expect(banner('Trial Active')).toHaveTextContent('Your free trial ends on March 05, 2025.');
    expect(banner('Trial Active')).not.toHaveTextContent(/payment method/);
    expect(screen.queryByText('Payment Method Required')).not.toBeInTheDocument();
  });

  it('a trial without a card asks for one, without the amber banner', async () => {
    await render([subscription('sub_1', { status: 'trialing', trial_end: at('2025-03-05'), default_payment_method: null })]);
    expect(banner('Trial Active')).toHaveTextContent(/March 05, 2025\..*add a payment method/);
    expect(screen.queryByText('Payment Method Required')).not.toBeInTheDocument();
  });

  it.each(['past_due', 'incomplete'])('%s: red Billing Issue', async (state) => {
    await render([subscription('sub_1', { status: state })]);
    expect(banner('Billing Issue')).toHaveClass('MuiAlert-colorError');
    expect(screen.queryByText('Trial Active')).not.toBeInTheDocument();
  });

  it('no card on any live subscription: amber Payment Method Required', async () => {
    await render([subscription('sub_1', { default_payment_method: null })]);
    expect(banner('Payment Method Required')).toHaveClass('MuiAlert-colorWarning');
    expect(screen.queryByText('Billing Issue')).not.toBeInTheDocument();
  });

  it('ended subscriptions raise no banner', async () => {
    await render([subscription('sub_1', { status: 'canceled', default_payment_method: null })]);
    expect(screen.queryByText('Payment Method Required')).not.toBeInTheDocument();
  });
});

/** Stands in for Stripe's return inside a page that is already open. */
function ReturnFromStripe() {
  const navigate = useNavigate();
  return <button onClick={() => navigate('/dashboard?refresh=true#subscriptions')}>Return from Stripe</button>;
}

describe('Subscriptions section after Stripe (?refresh=true)', () => {
  it('a user landing on /dashboard?refresh=true#subscriptions sees the section, the toast and a clean address', async () => {
    stubBilling({ list: listOf([subscription('sub_1')]), state: status(true) });
    renderPortal('/dashboard?refresh=true#subscriptions');
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscriptions' })).toBeInTheDocument();
    await expectToast('Subscription Updated', 'Your subscription settings have been updated successfully.');
    await waitFor(() => expect(currentLocation()).toBe('/dashboard#subscriptions'));
    expect(await screen.findByRole('article', { name: 'Sage Pro' })).toBeInTheDocument();
  });

  it('keeps other query parameters', async () => {
    stubBilling();
    renderScreen(<DashboardPage />, '/dashboard?refresh=true&from=portal#subscriptions');
    await waitFor(() => expect(currentLocation()).toBe('/dashboard?from=portal#subscriptions'));
  });

  it('reads both subscription calls afresh when the parameter arrives', async () => {
    let version = 0;
    const api = stubBilling({
      list: () => {
        version += 1;
        return json(userSubscriptions([subscription('sub_1', { name: `Plan v${version}` })]));
      },
      state: status(true),
    });
    renderScreen(
      <>
        <ReturnFromStripe />
        <DashboardPage />
      </>,
      PAGE,
    );
    expect(await screen.findByRole('article', { name: 'Plan v1' })).toBeInTheDocument();
    expect([api.lists(), api.statuses()]).toEqual([1, 1]);
    expect(screen.queryByText('Subscription Updated')).not.toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Return from Stripe' }));
    expect(await screen.findByRole('article', { name: 'Plan v2' })).toBeInTheDocument();
    expect([api.lists(), api.statuses()]).toEqual([2, 2]);
    await expectToast('Subscription Updated', 'Your subscription settings have been updated successfully.');
    expect(currentLocation()).toBe('/dashboard#subscriptions');
  });
});
