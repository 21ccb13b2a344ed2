import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription } from '../../contract/billing';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { subscription, userSubscriptions } from './billingData';
import { bodyOf, currentLocation, json, renderPortal, stubFetch } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

beforeEach(() => vi.mocked(assignLocation).mockReset());

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };

type Respond = () => Response | Promise<Response>;

function stubUpdate(list: Respond, extra: Record<string, Respond> = {}) {
  return stubFetch({
    'GET /api/user': () => json(user),
    'GET /api/stripe/user-subscriptions': list,
    ...extra,
  });
}

const listOf =
  (subs: Subscription[]): Respond =>
  () =>
    json(userSubscriptions(subs));
const title = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('SubscriptionUpdatePage: a subscription that needs action (§2 Subscription update)', () => {
  it.each<[string, RegExp]>([
    ['past_due', /Your last payment failed\. Please update your payment method/],
    ['unpaid', /unpaid.*update your payment method/],
    ['paused', /trial ended without a payment method.*Resume your subscription to continue/],
  ])('%s: Action Required with its own text and only that subscription', async (status, text) => {
    stubUpdate(listOf([subscription('sub_ok', { name: 'Sage Basic' }), subscription('sub_bad', { name: 'Sage Pro', status })]));
    renderPortal('/subscription-update?client=ue');
    expect(await title('Action Required')).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'Sage Pro' })).toBeInTheDocument();
  });

  it("the card's Stripe page returns to the plugin's update page", async () => {
    const spy = stubUpdate(listOf([subscription('sub_1', { status: 'paused' })]), {
      'POST /api/stripe/resume-subscription': () => json({ ok: true, url: 'https://billing.stripe.test/resume' }),
    });
    renderPortal('/subscription-update?client=ue');
    const card = await screen.findByRole('article', { name: 'Sage Pro' });
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Resume Subscription' }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('https://billing.stripe.test/resume'));
    const call = spy.mock.calls.find(([input]) => String(input) === '/api/stripe/resume-subscription');
    expect(bodyOf(call?.[1])).toEqual({
      subscriptionId: 'sub_1',
      returnUrl: `${window.location.origin}/api/stripe/subscription-update-success?client=ue`,
    });
  });

  it('Cancel Login ends the plugin sign-in as canceled', async () => {
    stubUpdate(listOf([subscription('sub_1', { status: 'past_due' })]));
    renderPortal('/subscription-update?client=ue');
    await title('Action Required');
    expect(screen.queryByRole('link', { name: 'Go to Dashboard' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel Login' }));
    expect(await title('Login Canceled')).toBeInTheDocument();
    expect(currentLocation()).toBe('/authentication_failed?reason=canceled');
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('on the web offers the dashboard instead of Cancel Login', async () => {
    stubUpdate(listOf([subscription('sub_1', { status: 'unpaid' })]));
    renderPortal('/subscription-update?client=web');
    await title('Action Required');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard#subscriptions');
    expect(screen.queryByRole('button', { name: 'Cancel Login' })).not.toBeInTheDocument();
  });
});

describe('SubscriptionUpdatePage other states', () => {
  it('shows the subscriptions when nothing needs action', async () => {
    stubUpdate(listOf([subscription('sub_1'), subscription('sub_2', { name: 'Sage Team', status: 'trialing' })]));
    renderPortal('/subscription-update?client=web');
    expect(await title('Your Subscription')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Sage Pro' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Sage Team' })).toBeInTheDocument();
  });

  it.each<[string, Respond]>([
    ['none at all (404)', () => json({ error: 'no_subscription', message: 'No subscription found' }, 404)],
    ['an empty list', listOf([])],
  ])('says No Subscription to Update for %s', async (_name, list) => {
    stubUpdate(list);
    renderPortal('/subscription-update?client=ue');
    expect(await title('No Subscription to Update')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel Login' })).toBeInTheDocument();
  });

  it('says Error Loading Subscription with the reason', async () => {
    stubUpdate(() => json({ error: 'unauthorized', message: 'Authentication required' }, 401));
    renderPortal('/subscription-update?client=ue');
    expect(await title('Error Loading Subscription')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Authentication required');
    expect(screen.getByRole('button', { name: 'Cancel Login' })).toBeInTheDocument();
  });

  it('shows Loading... while the subscriptions load', async () => {
    stubUpdate(() => new Promise<Response>(() => {}));
    renderPortal('/subscription-update?client=web');
    expect(await title('Loading Subscription')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });
});

describe('SubscriptionUpdatePage after Stripe (updated=true)', () => {
  it('tells the plugin user the update is done and the tab can be closed', async () => {
    stubUpdate(listOf([subscription('sub_1')]));
    renderPortal('/subscription-update?client=ue&updated=true');
    expect(await title('Subscription Updated')).toBeInTheDocument();
    expect(screen.getByText('Your subscription settings have been updated successfully.')).toBeInTheDocument();
    expect(screen.getByText(/close this tab and return to Unreal Engine/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Login' })).not.toBeInTheDocument();
  });

  it('offers the web user the dashboard', async () => {
    stubUpdate(listOf([subscription('sub_1')]));
    renderPortal('/subscription-update?client=web&updated=true');
    expect(await title('Subscription Updated')).toBeInTheDocument();
    expect(screen.queryByText(/Unreal Engine/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard#subscriptions');
  });
});
