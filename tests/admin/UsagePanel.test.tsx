import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CreditPackPurchase, UsageHistory, UsageSummary } from '../../contract/usage';
import { UserShow } from '../../src/admin/users/UserShow';
import { formatDateTime } from '../../src/ui/format';
import { bodyOf, json, stubFetch } from '../portal/render';
import {
  ada,
  emptyUsage,
  expectNotification,
  noAccountDetails,
  noUsageHistory,
  renderConsolePage,
  signedInAdmin,
  setUpAdminTests,
} from './render';

setUpAdminTests({ wholeConsole: false });

/** The user's page (UserShow) at `/admin/users/{id}/show`, without the rest of the console. */
const renderUserPage = (id = 'u1') =>
  renderConsolePage(<UserShow />, { path: `/admin/users/${id}/show`, route: '/users/:id/show', resource: 'users' });

type Routes = Parameters<typeof stubFetch>[0];

const proSummary: UsageSummary = {
  plan: 'Sage Pro',
  period: { start: '2026-11-05T10:00:00.000Z', end: '2026-12-05T10:00:00.000Z' },
  allowance: 500,
  allowanceUsed: 120,
  creditsUsed: 30,
  remaining: { allowance: 380, credits: 1000, periodEnd: '2026-12-05T10:00:00.000Z' },
};

function historyOf(days: number): UsageHistory {
  const history = noUsageHistory(days);
  const units = history.units.map((_, i) => (i === days - 1 ? 100 : i === days - 3 ? 50 : 0));
  return {
    ...history,
    units,
    byProject: [
      { projectId: 'proj-castle', uses: 60, units: 120 },
      { projectId: '', uses: 30, units: 30 },
    ],
    byEngineVersion: [{ engineVersion: '5.6', uses: 90, units: 150 }],
  };
}

const purchases: CreditPackPurchase[] = [
  { id: 'p2', credits: 500, reason: 'Credit pack price_500', createdAt: '2026-11-10T09:30:00.000Z', unspent: 380, refundedAt: null },
  {
    id: 'p1',
    credits: 100,
    reason: 'Credit pack price_100',
    createdAt: '2026-10-02T08:00:00.000Z',
    unspent: 0,
    refundedAt: '2026-10-03T12:00:00.000Z',
  },
];

function stubUser(routes: Routes = {}) {
  return stubFetch({
    ...signedInAdmin,
    'GET /api/admin/users/u1': () => json(ada),
    'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
    'GET /api/admin/users/u1/details': () => json(noAccountDetails),
    ...emptyUsage('u1'),
    'GET /api/admin/users/u1/usage': () => json(proSummary),
    'GET /api/admin/users/u1/usage/history': (_init, url) => json(historyOf(Number(url.searchParams.get('days')))),
    'GET /api/admin/users/u1/credit-packs': () => json({ purchases }),
    ...routes,
  });
}

async function usagePanel() {
  renderUserPage();
  const panel = await screen.findByRole('region', { name: 'Usage' });
  await within(panel).findByText('Plan');
  return panel;
}

/** The value the panel's description list gives for `label`. */
const figure = (panel: HTMLElement, label: string) => within(panel).getByText(label).nextElementSibling?.textContent;
const calls = (fetch: ReturnType<typeof stubFetch>, method: string, path: string) =>
  fetch.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === method && String(url).split('?')[0] === path);

describe('A user’s usage (issue 26)', () => {
  it('shows the plan, the period, the allowance used, and the credits used and left', async () => {
    stubUser();
    const panel = await usagePanel();
    expect(figure(panel, 'Plan')).toBe('Sage Pro');
    expect(figure(panel, 'Period')).toBe(`${formatDateTime('2026-11-05T10:00:00.000Z')} to ${formatDateTime('2026-12-05T10:00:00.000Z')}`);
    expect(figure(panel, 'Allowance')).toBe('120 of 500 queries used');
    const bar = within(panel).getByRole('progressbar', { name: 'Allowance used' });
    expect(bar).toHaveAttribute('aria-valuenow', '24');
    expect(bar).toHaveAttribute('aria-valuetext', '120 of 500 queries used');
    expect(figure(panel, 'Credits used this period')).toBe('30');
    expect(figure(panel, 'Credits left')).toBe('1,000');
    expect(within(panel).getByRole('link', { name: 'Download usage CSV' })).toHaveAttribute('href', '/api/admin/users/u1/usage.csv');
  });

  it('says how many queries the AI service holds in progress (issue 39), and nothing when none are', async () => {
    stubUser({ 'GET /api/admin/users/u1/usage': () => json({ ...proSummary, remaining: { ...proSummary.remaining, held: 5 } }) });
    const panel = await usagePanel();
    expect(figure(panel, 'In progress')).toBe('5 queries in progress, counted as used until the AI service settles them');
  });

  it('shows no queries in progress when none are held', async () => {
    stubUser();
    const panel = await usagePanel();
    expect(within(panel).queryByText('In progress')).not.toBeInTheDocument();
  });

  it('says Free for no plan, and Unlimited as such, without a bar', async () => {
    stubUser({ 'GET /api/admin/users/u1/usage': () => json({ ...proSummary, plan: null, allowance: null, allowanceUsed: 4200 }) });
    const panel = await usagePanel();
    expect(figure(panel, 'Plan')).toBe('Free');
    expect(figure(panel, 'Allowance')).toBe('Unlimited: 4,200 queries used this period');
    // The chart's and the credit packs' loading spinners are progress bars too: once they are gone, none is left.
    await waitFor(() => expect(within(panel).queryByRole('progressbar', { name: 'Please wait' })).not.toBeInTheDocument());
    expect(within(panel).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('charts the queries per day over 30 or 90 days, and tables them by Unreal project and engine version', async () => {
    const fetch = stubUser();
    const panel = await usagePanel();
    const chart = await within(panel).findByRole('figure', { name: 'Queries per day' });
    expect(chart).toHaveAccessibleDescription('150 queries in the last 30 days.');
    expect(calls(fetch, 'GET', '/api/admin/users/u1/usage/history').map(([url]) => String(url))).toEqual([
      '/api/admin/users/u1/usage/history?days=30',
    ]);

    const byProject = within(panel).getByRole('table', { name: 'By Unreal project' });
    expect(
      within(byProject)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Unreal project', 'Uses', 'Queries']);
    expect(within(byProject).getByRole('row', { name: 'proj-castle 60 120' })).toBeInTheDocument();
    expect(within(byProject).getByRole('row', { name: 'Not given 30 30' })).toBeInTheDocument();
    const byVersion = within(panel).getByRole('table', { name: 'By engine version' });
    expect(within(byVersion).getByRole('row', { name: '5.6 90 150' })).toBeInTheDocument();

    await userEvent.click(within(within(panel).getByRole('group', { name: 'Range' })).getByRole('button', { name: '90 days' }));
    await waitFor(() =>
      expect(within(panel).getByRole('figure', { name: 'Queries per day' })).toHaveAccessibleDescription(
        '150 queries in the last 90 days.',
      ),
    );
    expect(calls(fetch, 'GET', '/api/admin/users/u1/usage/history').map(([url]) => String(url))).toContain(
      '/api/admin/users/u1/usage/history?days=90',
    );
  });

  it('says when there were no queries instead of drawing an empty chart', async () => {
    stubUser({ 'GET /api/admin/users/u1/usage/history': () => json(noUsageHistory(30)) });
    const panel = await usagePanel();
    expect(await within(panel).findByRole('figure', { name: 'Queries per day' })).toHaveAccessibleDescription(
      'No queries in the last 30 days.',
    );
    expect(within(panel).queryByRole('table', { name: 'By Unreal project' })).not.toBeInTheDocument();
  });

  it('says when the usage cannot be read', async () => {
    stubUser({
      'GET /api/admin/users/u1/usage': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    renderUserPage();
    const panel = await screen.findByRole('region', { name: 'Usage' });
    expect(await within(panel).findByText('Failed to fetch usage')).toBeInTheDocument();
    await expectNotification('Failed to fetch usage', 'boom');
  });
});

describe('Granting or deducting credits (issue 26)', () => {
  async function openDialog() {
    const panel = await usagePanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Grant or deduct credits' }));
    return screen.findByRole('dialog', { name: 'Grant or deduct credits: ada@example.com' });
  }

  async function fill(
    dialog: HTMLElement,
    { direction, amount, reason }: { direction: 'Grant' | 'Deduct'; amount: string; reason: string },
  ) {
    await userEvent.click(within(dialog).getByRole('radio', { name: direction }));
    const credits = within(dialog).getByRole('spinbutton', { name: 'Credits' });
    await userEvent.clear(credits);
    if (amount) await userEvent.type(credits, amount);
    const why = within(dialog).getByRole('textbox', { name: 'Reason' });
    await userEvent.clear(why);
    if (reason) await userEvent.type(why, reason);
  }

  it('grants credits with a reason, says the new balance and reads the figures again', async () => {
    let credits = 1000;
    const fetch = stubUser({
      'GET /api/admin/users/u1/usage': () => json({ ...proSummary, remaining: { ...proSummary.remaining, credits } }),
      'POST /api/admin/users/u1/credits': (init) => {
        credits += (bodyOf(init) as { amount: number }).amount;
        return json({ credits });
      },
    });
    const dialog = await openDialog();
    expect(within(dialog).getByText('Credits left now: 1,000. A deduction can take at most that many.')).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Grant' })).toBeChecked();
    await fill(dialog, { direction: 'Grant', amount: '250', reason: '  Goodwill after the outage ' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));

    await expectNotification('Granted 250 credits. The balance is now 1,250.');
    const [post] = calls(fetch, 'POST', '/api/admin/users/u1/credits');
    expect(bodyOf(post![1])).toEqual({ amount: 250, reason: 'Goodwill after the outage' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const panel = screen.getByRole('region', { name: 'Usage' });
    await waitFor(() => expect(figure(panel, 'Credits left')).toBe('1,250'));
    expect(calls(fetch, 'GET', '/api/admin/users/u1/details').length).toBeGreaterThanOrEqual(2);
  });

  it('sends a deduction as a negative amount', async () => {
    const fetch = stubUser({ 'POST /api/admin/users/u1/credits': () => json({ credits: 960 }) });
    const dialog = await openDialog();
    await fill(dialog, { direction: 'Deduct', amount: '40', reason: 'Duplicate grant' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await expectNotification('Deducted 40 credits. The balance is now 960.');
    const [post] = calls(fetch, 'POST', '/api/admin/users/u1/credits');
    expect(bodyOf(post![1])).toEqual({ amount: -40, reason: 'Duplicate grant' });
  });

  it('refuses an empty reason and a missing or negative amount, and sends nothing', async () => {
    const fetch = stubUser();
    const dialog = await openDialog();
    await fill(dialog, { direction: 'Grant', amount: '10', reason: '   ' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('A reason is required')).toBeInTheDocument();

    await fill(dialog, { direction: 'Deduct', amount: '', reason: 'Typo' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('Enter a whole number of credits')).toBeInTheDocument();

    await fill(dialog, { direction: 'Deduct', amount: '-5', reason: 'Typo' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('Enter a positive number of credits: choose Deduct to take credits away')).toBeInTheDocument();
    expect(calls(fetch, 'POST', '/api/admin/users/u1/credits')).toEqual([]);
  });

  it('shows in the dialog why a deduction below zero was refused', async () => {
    const message = 'The balance is 1000: a deduction can take at most that many credits';
    stubUser({
      'POST /api/admin/users/u1/credits': () => json({ error: 'insufficient_credits', message }, 409, 'Conflict'),
    });
    const dialog = await openDialog();
    await fill(dialog, { direction: 'Deduct', amount: '5000', reason: 'Chargeback' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(within(dialog).queryByText('Failed to adjust credits')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Grant or deduct credits: ada@example.com' })).toBeInTheDocument();
  });

  it('says in the dialog that the adjustment failed, with the server’s reason', async () => {
    stubUser({
      'POST /api/admin/users/u1/credits': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    const dialog = await openDialog();
    await fill(dialog, { direction: 'Grant', amount: '5', reason: 'Goodwill' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to adjust creditsboom');
    expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeEnabled();
  });
});

describe('Refunding a credit pack (issue 26)', () => {
  const packs = async () => within(await usagePanel()).findByRole('table', { name: 'Credit packs' });
  const row = (table: HTMLElement, credits: string) =>
    within(table)
      .getAllByRole('row')
      .find((r) => within(r).queryByText(credits));

  it('lists the packs, with Refund for those not refunded yet', async () => {
    stubUser();
    const table = await packs();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Bought', 'Pack', 'Credits', 'Unspent', 'Refund']);
    expect(within(row(table, '500')!).getByRole('button', { name: 'Refund' })).toBeInTheDocument();
    const refunded = row(table, '100')!;
    expect(within(refunded).queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
    expect(within(refunded).getByText(`Refunded ${formatDateTime('2026-10-03T12:00:00.000Z')}`)).toBeInTheDocument();
  });

  it('says what the refund takes back and what was used, then refunds through the server', async () => {
    const fetch = stubUser({
      'POST /api/admin/users/u1/credit-packs/p2/refund': () =>
        json({
          purchase: { ...purchases[0], unspent: 0, refundedAt: '2026-11-23T12:00:00.000Z' },
          credits: 620,
          reversed: 380,
          used: 120,
        }),
    });
    const table = await packs();
    await userEvent.click(within(row(table, '500')!).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund this credit pack of ada@example.com?' });
    expect(dialog).toHaveAccessibleDescription(
      `The payment for this pack of 500 credits, bought ${formatDateTime('2026-11-10T09:30:00.000Z')}, is refunded through Stripe. ` +
        '380 credits will be taken back from the balance. 120 of the pack were already used: they are not taken back.',
    );
    expect(calls(fetch, 'POST', '/api/admin/users/u1/credit-packs/p2/refund')).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await expectNotification('Credit pack refunded: 380 credits taken back. The balance is now 620.');
    expect(calls(fetch, 'POST', '/api/admin/users/u1/credit-packs/p2/refund')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls(fetch, 'GET', '/api/admin/users/u1/credit-packs').length).toBeGreaterThanOrEqual(2);
  });

  it('shows in the dialog that the pack was already refunded', async () => {
    stubUser({
      'POST /api/admin/users/u1/credit-packs/p2/refund': () =>
        json({ error: 'already_refunded', message: 'This credit pack has already been refunded' }, 409, 'Conflict'),
    });
    const table = await packs();
    await userEvent.click(within(row(table, '500')!).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund this credit pack of ada@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText('This credit pack has already been refunded')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Refund' })).toBeDisabled();
  });

  it('says in the dialog that Stripe failed, and lets the refund be tried again', async () => {
    stubUser({
      'POST /api/admin/users/u1/credit-packs/p2/refund': () =>
        json({ error: 'stripe_unavailable', message: 'Stripe did not answer' }, 502, 'Bad Gateway'),
    });
    const table = await packs();
    await userEvent.click(within(row(table, '500')!).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund this credit pack of ada@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to refund the credit packStripe did not answer');
    expect(within(dialog).getByRole('button', { name: 'Refund' })).toBeEnabled();
  });
});
