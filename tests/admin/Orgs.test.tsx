import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminOrg, AdminOrgRow } from '../../contract/adminOrgs';
import type { StaffRole } from '../../contract/staffRoles';
import { OrgList } from '../../src/admin/orgs/OrgList';
import { OrgShow } from '../../src/admin/orgs/OrgShow';
import { formatDateTime } from '../../src/ui/format';
import { bodyOf, currentLocation, json, stubFetch } from '../portal/render';
import { admin, expectNotification, listPage, renderConsolePage, setUpAdminTests, signedInAdmin } from './render';

setUpAdminTests({ wholeConsole: false });

type Routes = Parameters<typeof stubFetch>[0];

const grove: AdminOrgRow = {
  id: 'o1',
  name: 'Grove Games',
  ownerId: 'u1',
  ownerEmail: 'ada@example.com',
  memberCount: 3,
  seats: { bought: 5, assigned: 2 },
  plan: { name: 'Sage Studio', status: 'active' },
  pool: 1200,
  createdAt: '2026-10-01T09:00:00.000Z',
};
const solo: AdminOrgRow = {
  ...grove,
  id: 'o2',
  name: 'Solo Studio',
  ownerId: 'u9',
  ownerEmail: 'solo@example.com',
  memberCount: 1,
  seats: { bought: 0, assigned: 0 },
  plan: null,
  pool: 0,
};

const groveWhole: AdminOrg = {
  ...grove,
  details: {
    companyName: 'Grove Games GmbH',
    addressLine1: '1 Road',
    addressLine2: null,
    city: 'Berlin',
    postalCode: '10115',
    region: null,
    country: 'DE',
    taxId: 'DE123456789',
  },
  customerId: 'cus_grove',
  subscription: {
    id: 'sub_1',
    status: 'active',
    plan: 'Sage Studio',
    seats: 5,
    unitAmount: 2500,
    currency: 'eur',
    allowancePerSeat: 500,
    currentPeriodEnd: '2026-12-05T10:00:00.000Z',
    cancelAtPeriodEnd: false,
  },
  period: { start: '2026-11-05T10:00:00.000Z', end: '2026-12-05T10:00:00.000Z' },
  usage: { seat: 140, pool: 22 },
  members: [
    {
      userId: 'u1',
      name: 'AdaL',
      email: 'ada@example.com',
      role: 'owner',
      joinedAt: '2026-10-01T09:00:00.000Z',
      seat: true,
      monthlyLimit: null,
      usage: 100,
      poolUsage: 0,
      lastActiveAt: '2026-11-20T08:00:00.000Z',
      suspended: false,
    },
    {
      userId: 'u2',
      name: 'grace',
      email: 'grace@example.com',
      role: 'member',
      joinedAt: '2026-10-02T09:00:00.000Z',
      seat: true,
      monthlyLimit: 500,
      usage: 62,
      poolUsage: 22,
      lastActiveAt: '2026-11-21T08:00:00.000Z',
      suspended: false,
    },
    {
      userId: 'u3',
      name: 'idle',
      email: null,
      role: 'billing',
      joinedAt: '2026-10-03T09:00:00.000Z',
      seat: false,
      monthlyLimit: null,
      usage: 0,
      poolUsage: 0,
      lastActiveAt: null,
      suspended: true,
    },
  ],
  audit: [
    {
      id: 'a1',
      action: 'org.seat.assign',
      actor: 'ada@example.com',
      at: '2026-11-06T10:00:00.000Z',
      text: 'Gave grace@example.com a seat',
    },
  ],
};

const listQueries = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls
    .map(([url]) => new URL(String(url), 'http://localhost'))
    .filter((url) => url.pathname === '/api/admin/orgs')
    .map((url) => Object.fromEntries(url.searchParams));

const calls = (fetch: ReturnType<typeof stubFetch>, method: string, path: string) =>
  fetch.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === method && String(url).split('?')[0] === path);

describe('Organisations, the list (issue 38)', () => {
  const renderList = () => renderConsolePage(<OrgList />, { path: '/admin/orgs', resource: 'orgs' });

  it('asks for the first page by name and shows each organisation’s owner, members, seats, plan, pool and creation', async () => {
    const fetch = stubFetch({ ...signedInAdmin, 'GET /api/admin/orgs': () => listPage('orgs', [grove, solo], 2) });
    renderList();
    const row = (await screen.findByText('Grove Games')).closest('tr')!;
    expect(listQueries(fetch)[0]).toEqual({ sort: '["name","ASC"]', range: '[0,24]', filter: '{}' });
    expect(
      screen
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent)
        .filter(Boolean),
    ).toEqual(['Name', 'Owner', 'Members', 'Seats given / bought', 'Plan', 'Pool credits', 'Created']);
    expect(within(row).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(row).getByText('2 / 5')).toBeInTheDocument();
    expect(within(row).getByText('Sage Studio (active)')).toBeInTheDocument();
    expect(within(row).getByText('1,200')).toBeInTheDocument();
    const soloRow = screen.getByText('Solo Studio').closest('tr')!;
    expect(within(soloRow).getByText('None')).toBeInTheDocument();
  });

  it('searches and sorts on the server, and opens an organisation’s page from its row', async () => {
    const fetch = stubFetch({ ...signedInAdmin, 'GET /api/admin/orgs': () => listPage('orgs', [grove], 1) });
    renderList();
    await screen.findByText('Grove Games');

    await userEvent.click(screen.getByRole('button', { name: 'Sort by created ascending' }));
    await waitFor(() => expect(listQueries(fetch).at(-1)).toMatchObject({ sort: '["createdAt","ASC"]' }));

    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'ada@');
    await waitFor(() => expect(listQueries(fetch).at(-1)).toMatchObject({ filter: '{"q":"ada@"}', range: '[0,24]' }), { timeout: 15_000 });
    // The search is kept by the console, not in the address (issue 37).
    expect(currentLocation()).toBe('/admin/orgs');

    await userEvent.click(screen.getByText('Grove Games'));
    await waitFor(() => expect(currentLocation()).toBe('/admin/orgs/o1/show'));
  });

  it('says when the organisations cannot be read', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/orgs': () => json({ error: 'internal_error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    renderList();
    await expectNotification('Failed to fetch organisations', 'boom');
  });
});

describe('An organisation’s page (issue 38)', () => {
  function stubOrg(role: StaffRole = 'admin', routes: Routes = {}) {
    return stubFetch({
      'GET /api/user': () => json({ ...admin, staffRole: role }),
      'GET /api/admin/orgs/o1': () => json(groveWhole),
      ...routes,
    });
  }
  const renderOrgPage = () => renderConsolePage(<OrgShow />, { path: '/admin/orgs/o1/show', route: '/orgs/:id/show', resource: 'orgs' });

  /** The value a section's description list gives for `label`. */
  const figure = (section: HTMLElement, label: string) => within(section).getByText(label).nextElementSibling?.textContent;

  it('shows the plan and company, the seats and pool, the members, this period’s usage by member and the audit log', async () => {
    stubOrg();
    renderOrgPage();
    const billing = await screen.findByRole('region', { name: 'Subscription and company' });
    expect(figure(billing, 'Plan')).toBe('Sage Studio');
    expect(figure(billing, 'Seats bought')).toBe('5');
    expect(figure(billing, 'Price per seat')).toBe('€25.00');
    expect(figure(billing, 'Queries per seat and period')).toBe('500');
    expect(figure(billing, 'Current period ends')).toBe(formatDateTime('2026-12-05T10:00:00.000Z'));
    expect(figure(billing, 'Renewal')).toBe('Renews');
    expect(figure(billing, 'Company')).toBe('Grove Games GmbH');
    expect(figure(billing, 'Address')).toBe('1 Road, 10115 Berlin, DE');
    expect(figure(billing, 'Tax ID')).toBe('DE123456789');
    expect(figure(billing, 'Stripe customer')).toBe('cus_grove');

    const pool = screen.getByRole('region', { name: 'Seats and pool' });
    const meter = within(pool).getByRole('progressbar', { name: 'Seats given' });
    expect(meter).toHaveAttribute('aria-valuenow', '40');
    expect(meter).toHaveAttribute('aria-valuetext', '2 of 5 seats given');
    expect(figure(pool, 'Shared pool')).toBe('1,200 credits');

    const members = within(screen.getByRole('region', { name: 'Members' })).getByRole('table', { name: 'Members' });
    expect(
      within(members)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'E-mail', 'Role', 'Seat', 'Monthly pool limit', 'Joined']);
    expect(within(members).getByRole('row', { name: /^AdaL ada@example.com Owner Yes None/ })).toBeInTheDocument();
    expect(within(members).getByRole('row', { name: /^grace grace@example.com Member Yes 500/ })).toBeInTheDocument();
    expect(within(members).getByRole('row', { name: /^idle \(suspended\) — Billing No None/ })).toBeInTheDocument();
    expect(within(members).getByRole('link', { name: 'grace' })).toHaveAttribute('href', '/admin/users/u2/show');

    const usage = screen.getByRole('region', { name: 'Usage this period' });
    expect(
      within(usage).getByText(
        `From ${formatDateTime('2026-11-05T10:00:00.000Z')} to ${formatDateTime('2026-12-05T10:00:00.000Z')}: 140 queries from seats, 22 from the shared pool.`,
      ),
    ).toBeInTheDocument();
    const byMember = within(usage).getByRole('table', { name: 'Usage this period' });
    expect(within(byMember).getByRole('row', { name: `grace 40 22 62 ${formatDateTime('2026-11-21T08:00:00.000Z')}` })).toBeInTheDocument();
    expect(within(byMember).getByRole('row', { name: 'idle (suspended) 0 0 0 Never' })).toBeInTheDocument();

    const audit = within(screen.getByRole('region', { name: 'Audit log' })).getByRole('table', { name: 'Audit log' });
    expect(
      within(audit).getByRole('row', {
        name: `${formatDateTime('2026-11-06T10:00:00.000Z')} ada@example.com Gave grace@example.com a seat`,
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ada@example.com' })).toHaveAttribute('href', '/admin/users/u1/show');
  });

  it('says when there is no plan, no company details yet and nothing in the log', async () => {
    stubOrg('admin', {
      'GET /api/admin/orgs/o1': () =>
        json({
          ...groveWhole,
          plan: null,
          subscription: null,
          details: null,
          customerId: null,
          seats: { bought: 0, assigned: 0 },
          audit: [],
        }),
    });
    renderOrgPage();
    const billing = await screen.findByRole('region', { name: 'Subscription and company' });
    expect(figure(billing, 'Plan')).toBe('No plan');
    expect(figure(billing, 'Company')).toBe('No company details yet');
    expect(within(billing).queryByText('Status')).not.toBeInTheDocument();
    expect(figure(screen.getByRole('region', { name: 'Seats and pool' }), 'Seats')).toBe('No seats bought');
    expect(within(screen.getByRole('region', { name: 'Audit log' })).getByText('Nothing recorded yet.')).toBeInTheDocument();
  });

  it('support: Grant credits is switched off, with the reason read with it', async () => {
    stubOrg('support');
    renderOrgPage();
    const pool = await screen.findByRole('region', { name: 'Seats and pool' });
    const grant = within(pool).getByRole('button', { name: 'Grant credits' });
    await waitFor(() => expect(grant).toBeDisabled());
    expect(grant).toHaveAccessibleDescription("Only admins can grant credits to an organisation's pool");
    expect(within(pool).getByText("Only admins can grant credits to an organisation's pool")).toBeVisible();
  });
});

describe('Granting credits to an organisation’s pool (issue 38)', () => {
  const renderOrgPage = () => renderConsolePage(<OrgShow />, { path: '/admin/orgs/o1/show', route: '/orgs/:id/show', resource: 'orgs' });

  async function openDialog() {
    const pool = await screen.findByRole('region', { name: 'Seats and pool' });
    const grant = within(pool).getByRole('button', { name: 'Grant credits' });
    await waitFor(() => expect(grant).toBeEnabled());
    await userEvent.click(grant);
    return screen.findByRole('dialog', { name: 'Grant credits to Grove Games' });
  }

  it('refuses to send without a reason or a whole, positive amount, and says why under each field', async () => {
    const fetch = stubFetch({ ...signedInAdmin, 'GET /api/admin/orgs/o1': () => json(groveWhole) });
    renderOrgPage();
    const dialog = await openDialog();
    expect(within(dialog).getByText(/The shared pool holds 1,200 credits now/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await within(dialog).findByText('Enter a whole number of credits')).toBeInTheDocument();
    expect(within(dialog).getByText('A reason is required')).toBeInTheDocument();

    await userEvent.type(within(dialog).getByRole('spinbutton', { name: 'Credits' }), '100');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await within(dialog).findByText('A reason is required')).toBeInTheDocument();
    expect(calls(fetch, 'POST', '/api/admin/orgs/o1/credits')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('grants the credits with the reason, says the pool after it and reads the page again', async () => {
    let pool = 1200;
    const fetch = stubFetch({
      ...signedInAdmin,
      'GET /api/admin/orgs/o1': () => json({ ...groveWhole, pool }),
      'POST /api/admin/orgs/o1/credits': (init) => {
        pool += (bodyOf(init) as { amount: number }).amount;
        return json({ pool });
      },
    });
    renderOrgPage();
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: 'Credits' }), '300');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), '  Goodwill after the outage ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));

    await expectNotification('Granted 300 credits. The pool now holds 1,500.');
    const [post] = calls(fetch, 'POST', '/api/admin/orgs/o1/credits');
    expect(bodyOf(post![1])).toEqual({ amount: 300, reason: 'Goodwill after the outage' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const section = screen.getByRole('region', { name: 'Seats and pool' });
    await waitFor(() => expect(within(section).getByText('1,500 credits')).toBeInTheDocument());
  });

  it('says in the dialog why the server refused, and keeps what was typed', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/orgs/o1': () => json(groveWhole),
      'POST /api/admin/orgs/o1/credits': () => json({ error: 'not_found', message: 'No such organisation' }, 404, 'Not Found'),
    });
    renderOrgPage();
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: 'Credits' }), '5');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Goodwill');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to grant credits');
    expect(alert).toHaveTextContent('No such organisation');
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).toHaveValue('Goodwill');
  });
});
