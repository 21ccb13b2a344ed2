/** A studio's page (issue 38): billing details, a plan bought for N seats, seats and limits given, the seat meter, the usage by member. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrgBilling } from '../../contract/orgBilling';
import type { Org, OrgMember } from '../../contract/orgs';
import type { OrgUsage } from '../../contract/orgUsage';
import type { TopUp } from '../../contract/topUp';
import { DashboardPage } from '../../src/portal/dashboard/DashboardPage';
import { bodyOf, expectToast, json, renderScreen, stubFetch } from './render';

const ada = { id: 'u1', username: 'ada', email: 'ada@studio.example', status: 'Active', isAdmin: false };
const studio: Org = {
  id: 'o1',
  name: 'Grove Studio',
  role: 'owner',
  members: 2,
  seats: { bought: 3, assigned: 1 },
  createdAt: '2026-11-01T00:00:00.000Z',
};
const person = (userId: string, name: string, role: OrgMember['role'], extra: Partial<OrgMember> = {}): OrgMember => ({
  userId,
  name,
  email: `${name.toLowerCase()}@studio.example`,
  role,
  joinedAt: '2026-11-02T00:00:00.000Z',
  seat: false,
  monthlyLimit: null,
  usage: 0,
  poolUsage: 0,
  lastActiveAt: null,
  suspended: false,
  ...extra,
});
const MEMBERS = [
  person('u1', 'Ada', 'owner'),
  person('u2', 'Brin', 'member', { seat: true, usage: 120, poolUsage: 20, monthlyLimit: 50, lastActiveAt: '2026-11-20T10:00:00.000Z' }),
];
const DETAILS = {
  companyName: 'Grove GmbH',
  addressLine1: 'Torstraße 1',
  addressLine2: null,
  city: 'Berlin',
  postalCode: '10119',
  region: null,
  country: 'DE',
  taxId: 'DE123456789',
};
const PLAN: OrgBilling['subscription'] = {
  id: 'sub_1',
  status: 'active',
  plan: 'Sage Pro',
  seats: 3,
  unitAmount: 1999,
  currency: 'usd',
  allowancePerSeat: 1000,
  currentPeriodEnd: '2026-12-01T00:00:00.000Z',
  cancelAtPeriodEnd: false,
};
const USAGE: OrgUsage = {
  period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
  days: ['2026-11-28', '2026-11-29'],
  units: [100, 20],
  byMember: [{ userId: 'u2', name: 'Brin', uses: 40, units: 120 }],
  byProject: [],
  byEngineVersion: [{ engineVersion: '5.6', uses: 40, units: 120 }],
};
const PRODUCTS = [
  {
    id: 'prod_pro',
    name: 'Sage Pro',
    description: null,
    images: [],
    active: true,
    metadata: { credits_amount: '1000' },
    prices: [{ id: 'price_month', active: true, unit_amount: 1999, currency: 'usd', recurring: { interval: 'month', interval_count: 1 } }],
  },
  {
    id: 'prod_pack',
    name: 'Pack',
    description: null,
    images: [],
    active: true,
    metadata: { credits_amount: '500' },
    prices: [{ id: 'price_pack', active: true, unit_amount: 999, currency: 'usd', recurring: null }],
  },
];

const TOP_UP: TopUp = {
  settings: null,
  paused: null,
  thisMonth: null,
  last: null,
  savedCard: true,
  packs: [{ priceId: 'price_pack', name: 'Credit pack', credits: 500, amount: 999, currency: 'usd' }],
};

function stubStudio(billing: OrgBilling, extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /api/user': () => json(ada),
    'GET /api/orgs': () => json({ orgs: [studio] }),
    'GET /api/orgs/o1/members': () => json({ members: MEMBERS }),
    'GET /api/orgs/o1/invitations': () => json({ invitations: [] }),
    'GET /api/orgs/o1/audit': () => json({ entries: [] }),
    'GET /api/orgs/o1/billing': () => json(billing),
    'GET /api/orgs/o1/invoices': () => json({ invoices: [], hasMore: false }),
    'GET /api/orgs/o1/top-up': () => json(TOP_UP),
    'GET /api/orgs/o1/usage': () => json(USAGE),
    'GET /api/stripe/products': () => json({ ok: true, products: PRODUCTS }),
    ...extra,
  });
}

afterEach(() => vi.unstubAllGlobals());

describe("a studio's plan and seats", () => {
  it('asks for the company first, then buys a plan for the seats chosen at Stripe', async () => {
    const sent: unknown[] = [];
    const assign = vi.fn();
    vi.stubGlobal('location', {
      ...window.location,
      assign,
      origin: window.location.origin,
      search: '',
      pathname: '/dashboard',
      hash: '#organisations',
    });
    stubStudio(
      { details: null, subscription: null, seats: { bought: 0, assigned: 0 }, pool: 0 },
      {
        'PUT /api/orgs/o1/billing-details': (init) => {
          sent.push(bodyOf(init));
          return json({ details: DETAILS, subscription: null, seats: { bought: 0, assigned: 0 }, pool: 0 });
        },
        'POST /api/orgs/o1/checkout': (init) => {
          sent.push(bodyOf(init));
          return json({ ok: true, url: 'https://checkout.example/c/1' });
        },
      },
    );
    const user = userEvent.setup();
    renderScreen(<DashboardPage />, '/dashboard#organisations');
    const buy = await screen.findByRole('button', { name: 'Buy 3 seats' });
    expect(buy).toBeDisabled();

    const form = await screen.findByRole('form', { name: 'Billing details of Grove Studio' });
    const inside = within(form);
    await user.type(inside.getByLabelText(/Company name/), 'Grove GmbH');
    await user.type(inside.getByRole('textbox', { name: 'Address' }), 'Torstraße 1');
    await user.type(inside.getByLabelText(/Postal code/), '10119');
    await user.type(inside.getByLabelText(/City/), 'Berlin');
    await user.type(inside.getByLabelText(/Country/), 'de');
    await user.type(inside.getByLabelText(/VAT or tax ID/), 'DE 123 456 789');
    await user.click(inside.getByRole('button', { name: 'Save billing details' }));
    await expectToast('Billing details saved');
    expect(sent[0]).toMatchObject({ companyName: 'Grove GmbH', country: 'DE', taxId: 'DE123456789' });

    await user.clear(screen.getByRole('textbox', { name: 'Seats' }));
    await user.type(screen.getByRole('textbox', { name: 'Seats' }), '5');
    await user.click(await screen.findByRole('button', { name: 'Buy 5 seats' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/c/1'));
    expect(sent[1]).toMatchObject({ priceId: 'price_month', seats: 5 });
  });

  it('shows the seat meter, changes the seat count, gives a seat and sets a limit', async () => {
    const patches: { url: string; body: unknown }[] = [];
    const billing: OrgBilling = { details: DETAILS, subscription: PLAN, seats: { bought: 3, assigned: 1 }, pool: 400 };
    stubStudio(billing, {
      'PATCH /api/orgs/o1/subscription': (init) => {
        patches.push({ url: 'subscription', body: bodyOf(init) });
        return json({ ...billing, seats: { bought: 4, assigned: 1 } });
      },
      'PATCH /api/orgs/o1/members/u1': (init) => {
        patches.push({ url: 'u1', body: bodyOf(init) });
        return json({ ...MEMBERS[0], seat: true });
      },
      'PATCH /api/orgs/o1/members/u2': (init) => {
        patches.push({ url: 'u2', body: bodyOf(init) });
        return json({ ...MEMBERS[1], monthlyLimit: 80 });
      },
    });
    const user = userEvent.setup();
    renderScreen(<DashboardPage />, '/dashboard#organisations');
    expect(await screen.findByRole('progressbar', { name: 'Seats given' })).toHaveAttribute('aria-valuetext', '1 of 3 seats given');
    expect(screen.getByText('400 shared credits')).toBeInTheDocument();
    expect(screen.getByText(/Seat · 120 queries this period \(20 of 50 shared credits\) · last active/)).toBeInTheDocument();

    const seats = screen.getByRole('textbox', { name: 'Seats' });
    await user.clear(seats);
    await user.type(seats, '4');
    await user.click(screen.getByRole('button', { name: 'Change seats' }));
    await expectToast('Seats changed');

    await user.click(screen.getByRole('switch', { name: 'Seat for Ada' }));
    await expectToast('Seat changed');
    const limit = screen.getByRole('textbox', { name: 'Monthly limit of Brin, in shared credits' });
    await user.clear(limit);
    await user.type(limit, '80');
    await user.click(screen.getByRole('button', { name: 'Save limit for Brin' }));
    await expectToast('Limit saved', 'Brin may use 80 shared credits a month.');
    expect(patches).toEqual([
      { url: 'subscription', body: { seats: 4 } },
      { url: 'u1', body: { seat: true } },
      { url: 'u2', body: { monthlyLimit: 80 } },
    ]);

    const byMember = await screen.findByRole('table', { name: 'By member' });
    expect(within(byMember).getByRole('rowheader', { name: 'Brin' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Download this period's uses (CSV)" })).toHaveAttribute(
      'href',
      '/api/orgs/o1/usage/period.csv',
    );
  });

  it("turns on automatic top-up of the shared pool with the Usage section's form, and says when it is paused", async () => {
    const billing: OrgBilling = { details: DETAILS, subscription: PLAN, seats: { bought: 3, assigned: 1 }, pool: 400 };
    const sent: unknown[] = [];
    const paused: TopUp = {
      ...TOP_UP,
      settings: { enabled: true, threshold: 200, priceId: 'price_pack', monthlyCap: 3000 },
      paused: { at: '2026-11-20T12:00:00.000Z', reason: 'authentication_required' },
    };
    stubStudio(billing, {
      'PUT /api/orgs/o1/top-up': (init) => {
        sent.push(bodyOf(init));
        return json(paused);
      },
    });
    const user = userEvent.setup();
    renderScreen(<DashboardPage />, '/dashboard#organisations');
    const region = await screen.findByRole('region', { name: 'Automatic top-up of the shared pool' });
    const form = await within(region).findByRole('form', { name: 'Automatic top-up settings' });
    await user.click(within(form).getByRole('switch', { name: 'Top up the shared pool automatically when it runs low' }));
    const threshold = within(form).getByLabelText(/When credits fall below/);
    await user.clear(threshold);
    await user.type(threshold, '200');
    const cap = within(form).getByLabelText(/Monthly cap \(USD\)/);
    await user.clear(cap);
    await user.type(cap, '30');
    await user.click(within(form).getByRole('button', { name: 'Save top-up settings' }));
    await waitFor(() => expect(sent).toEqual([{ enabled: true, threshold: 200, priceId: 'price_pack', monthlyCap: 3000 }]));
    await expectToast('Automatic top-up saved');
    expect(await within(region).findByText(/The studio's card needs its holder to confirm the payment/)).toBeInTheDocument();
  });
});
