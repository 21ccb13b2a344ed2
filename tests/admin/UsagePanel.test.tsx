import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UsageHistory, UsageSummary } from '../../contract/usage';
import { formatDateTime } from '../../src/admin/format';
import { json, stubFetch } from '../portal/render';
import {
  ada,
  emptyUsage,
  expectNotification,
  noAccountDetails,
  noUsageHistory,
  renderAdmin,
  signedInAdmin,
  setUpAdminTests,
} from './render';

setUpAdminTests();

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

function stubUser(routes: Routes = {}) {
  return stubFetch({
    ...signedInAdmin,
    'GET /api/admin/users/u1': () => json(ada),
    'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
    'GET /api/admin/users/u1/details': () => json(noAccountDetails),
    ...emptyUsage('u1'),
    'GET /api/admin/users/u1/usage': () => json(proSummary),
    'GET /api/admin/users/u1/usage/history': (_init, url) => json(historyOf(Number(url.searchParams.get('days')))),
    ...routes,
  });
}

async function usagePanel() {
  renderAdmin('/admin/users/u1/show');
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

  it('says Free for no plan, and Unlimited as such, without a bar', async () => {
    stubUser({ 'GET /api/admin/users/u1/usage': () => json({ ...proSummary, plan: null, allowance: null, allowanceUsed: 4200 }) });
    const panel = await usagePanel();
    expect(figure(panel, 'Plan')).toBe('Free');
    expect(figure(panel, 'Allowance')).toBe('Unlimited: 4,200 queries used this period');
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
    renderAdmin('/admin/users/u1/show');
    const panel = await screen.findByRole('region', { name: 'Usage' });
    expect(await within(panel).findByText('Failed to fetch usage')).toBeInTheDocument();
    await expectNotification('Failed to fetch usage', 'boom');
  });
});
