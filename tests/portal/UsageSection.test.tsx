import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UsageHistory, UsageSummary } from '../../contract/usage';
import { DashboardPage } from '../../src/portal/dashboard/DashboardPage';
import { json, renderScreen, stubFetch } from './render';

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };
const PAGE = '/dashboard#usage';
// Midday UTC: the same calendar date in every time zone the tests may run in.
const PERIOD_END = '2026-12-15T12:00:00.000Z';

function summary(overrides: Partial<UsageSummary> = {}): UsageSummary {
  return {
    plan: 'Sage Pro',
    period: { start: '2026-11-15T12:00:00.000Z', end: PERIOD_END },
    allowance: 500,
    allowanceUsed: 120,
    creditsUsed: 0,
    remaining: { allowance: 380, credits: 1250, periodEnd: PERIOD_END },
    ...overrides,
  };
}

/** `days` UTC days ending 2026-11-26, with `perDay` queries on each of the last three. */
function history(days: number, perDay = 4): UsageHistory {
  const first = Date.UTC(2026, 10, 26) - (days - 1) * 86_400_000;
  const dayList = Array.from({ length: days }, (_, i) => new Date(first + i * 86_400_000).toISOString().slice(0, 10));
  return {
    days: dayList,
    units: dayList.map((_, i) => (i >= days - 3 ? perDay : 0)),
    byProject: [
      { projectId: 'proj-castle', uses: 6, units: 9 },
      { projectId: '', uses: 2, units: 3 },
    ],
    byEngineVersion: [
      { engineVersion: '5.4', uses: 7, units: 10 },
      { engineVersion: '', uses: 1, units: 2 },
    ],
  };
}

type Respond = (url: URL) => Response | Promise<Response>;

function stubUsage({
  usage = () => json(summary()),
  usageHistory = (url: URL) => json(history(Number(url.searchParams.get('days')))),
}: { usage?: Respond; usageHistory?: Respond } = {}) {
  const spy = stubFetch({
    'GET /api/user': () => json(user),
    'GET /api/usage': (_init, url) => usage(url),
    'GET /api/usage/history': (_init, url) => usageHistory(url),
    'GET /api/usage/top-up': () => json({ settings: null, paused: null, thisMonth: null, last: null, savedCard: false, packs: [] }),
  });
  const historyCalls = () => spy.mock.calls.map(([input]) => String(input)).filter((path) => path.startsWith('/api/usage/history'));
  return { spy, historyCalls };
}

/** The dashboard at #usage, once the section's chunk has come (it loads after the dashboard's). */
async function openUsage() {
  renderScreen(<DashboardPage />, PAGE);
  await screen.findByRole('heading', { level: 1, name: 'Usage' });
}

const period = () => screen.getByRole('region', { name: 'This period' });
const perDay = () => screen.getByRole('region', { name: 'Queries per day' });
const bar = () => within(period()).queryByRole('progressbar', { name: 'Allowance used this period' });
/** A table's rows as the text of their cells. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));

describe('Usage section: this period (issue 26)', () => {
  it('shows the allowance used as a labelled bar, when it renews, the plan and the credits left', async () => {
    stubUsage();
    await openUsage();
    const used = await within(period()).findByRole('progressbar', { name: 'Allowance used this period' });
    expect(used).toHaveAttribute('aria-valuenow', '120');
    expect(used).toHaveAttribute('aria-valuemin', '0');
    expect(used).toHaveAttribute('aria-valuemax', '500');
    expect(used).toHaveAttribute('aria-valuetext', '120 of 500 queries used this period');
    expect(within(period()).getByText('120 of 500 queries used this period')).toBeInTheDocument();
    expect(within(period()).getByText('Renews on December 15, 2026')).toBeInTheDocument();
    expect(within(period()).getByText('Sage Pro')).toBeInTheDocument();
    expect(within(period()).getByText('1,250')).toBeInTheDocument();
    expect(within(period()).getByText('Pack credits never expire.')).toBeInTheDocument();
  });

  it('says how many queries are in progress while the AI service holds them (issue 39)', async () => {
    stubUsage({
      usage: () => json(summary({ allowanceUsed: 125, remaining: { allowance: 375, credits: 1250, periodEnd: PERIOD_END, held: 3 } })),
    });
    await openUsage();
    expect(
      await within(period()).findByText('3 queries in progress: counted as used until the AI service settles them.'),
    ).toBeInTheDocument();
  });

  it('shows no queries in progress when none are held', async () => {
    stubUsage();
    await openUsage();
    await within(period()).findByRole('progressbar', { name: 'Allowance used this period' });
    expect(within(period()).queryByText(/in progress/)).not.toBeInTheDocument();
  });

  it('says Unlimited and draws no bar on an Unlimited plan', async () => {
    stubUsage({
      usage: () => json(summary({ allowance: null, allowanceUsed: 42, remaining: { allowance: null, credits: 0, periodEnd: PERIOD_END } })),
    });
    await openUsage();
    expect(await within(period()).findByText('Unlimited queries: 42 used this period')).toBeInTheDocument();
    expect(bar()).not.toBeInTheDocument();
  });

  it('a free user without an allowance is told so, with the pack credits that pay instead', async () => {
    stubUsage({
      usage: () =>
        json(
          summary({
            plan: null,
            allowance: 0,
            allowanceUsed: 0,
            creditsUsed: 15,
            remaining: { allowance: 0, credits: 85, periodEnd: PERIOD_END },
          }),
        ),
    });
    await openUsage();
    expect(await within(period()).findByText('Free')).toBeInTheDocument();
    expect(within(period()).getByText('You have no monthly allowance: each query is paid with a pack credit.')).toBeInTheDocument();
    expect(bar()).not.toBeInTheDocument();
    expect(within(period()).getByText('85')).toBeInTheDocument();
    expect(within(period()).getByText('Pack credits never expire. 15 used this period.')).toBeInTheDocument();
  });

  it("offers this period's uses as a CSV download", async () => {
    stubUsage();
    await openUsage();
    const link = await within(period()).findByRole('link', { name: "Download this period's uses (CSV)" });
    expect(link).toHaveAttribute('href', '/api/usage/period.csv');
    expect(link).toHaveAttribute('download');
  });

  it('shows a skeleton while the period loads', async () => {
    stubUsage({ usage: () => new Promise<Response>(() => {}) });
    await openUsage();
    expect(within(period()).getByRole('status', { name: 'Loading usage' })).toBeInTheDocument();
    expect(bar()).not.toBeInTheDocument();
  });

  it('says so when the period cannot be loaded', async () => {
    stubUsage({ usage: () => json({ error: 'unauthorized', message: 'Authentication required' }, 401) });
    await openUsage();
    expect(await within(period()).findByText('Failed to load usage')).toBeInTheDocument();
    expect(within(period()).getByText('401: Authentication required')).toBeInTheDocument();
    expect(within(period()).queryByRole('status', { name: 'Loading usage' })).not.toBeInTheDocument();
  });
});

describe('Usage section: queries per day (issue 26)', () => {
  it('draws the last 30 days with a sentence saying what the chart shows, and its figures as a table', async () => {
    const api = stubUsage();
    await openUsage();
    const figure = await within(perDay()).findByRole('figure', { name: 'Queries per day' });
    expect(figure).toHaveAccessibleDescription('12 queries in the last 30 days; the most on Nov 24 (4).');
    expect(api.historyCalls()).toEqual(['/api/usage/history?days=30']);
    expect(within(perDay()).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    // The chart comes in its own chunk; it repeats the sentence and the table, so it is hidden from assistive technology.
    await waitFor(() => expect(figure.querySelector('[aria-hidden="true"] svg')).toBeInTheDocument());

    await userEvent.setup().click(within(figure).getByText('Show the figures'));
    const figures = within(figure).getByRole('table', { name: 'Queries per day' });
    expect(within(figures).getAllByRole('row')).toHaveLength(31);
    expect(within(figures).getByRole('row', { name: '2026-11-26 4' })).toBeInTheDocument();
  });

  it('reads the last 90 days when the range says so', async () => {
    const api = stubUsage();
    const u = userEvent.setup();
    await openUsage();
    const range = await within(perDay()).findByRole('group', { name: 'Range' });
    await screen.findByRole('figure', { name: 'Queries per day' });

    await u.click(within(range).getByRole('button', { name: '90 days' }));
    await waitFor(() =>
      expect(screen.getByRole('figure', { name: 'Queries per day' })).toHaveAccessibleDescription(
        '12 queries in the last 90 days; the most on Nov 24 (4).',
      ),
    );
    expect(api.historyCalls()).toEqual(['/api/usage/history?days=30', '/api/usage/history?days=90']);
    expect(within(range).getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(range).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'false');

    // Back to 30 days: read from the cache, not asked again.
    await u.click(within(range).getByRole('button', { name: '30 days' }));
    await waitFor(() =>
      expect(screen.getByRole('figure', { name: 'Queries per day' })).toHaveAccessibleDescription(
        '12 queries in the last 30 days; the most on Nov 24 (4).',
      ),
    );
    expect(api.historyCalls()).toHaveLength(2);
  });

  it('lists the uses and queries by Unreal project and by engine version, saying which were not given', async () => {
    stubUsage();
    await openUsage();
    const projects = await within(perDay()).findByRole('table', { name: 'By Unreal project' });
    expect(rowsOf(projects)).toEqual([
      ['Unreal project', 'Uses', 'Queries'],
      ['proj-castle', '6', '9'],
      ['Not given', '2', '3'],
    ]);
    expect(rowsOf(within(perDay()).getByRole('table', { name: 'By engine version' }))).toEqual([
      ['Engine version', 'Uses', 'Queries'],
      ['5.4', '7', '10'],
      ['Not given', '1', '2'],
    ]);
  });

  it('says there were no queries instead of drawing an empty chart', async () => {
    stubUsage({ usageHistory: () => json({ ...history(30, 0), byProject: [], byEngineVersion: [] }) });
    await openUsage();
    const figure = await within(perDay()).findByRole('figure', { name: 'Queries per day' });
    expect(figure).toHaveAccessibleDescription('No queries in the last 30 days.');
    expect(within(figure).queryByText('Show the figures')).not.toBeInTheDocument();
    expect(within(perDay()).queryByRole('table')).not.toBeInTheDocument();
    expect(within(perDay()).getAllByText('No uses in the last 30 days.')).toHaveLength(2);
  });

  it('shows a skeleton while the history loads, and an error when it fails', async () => {
    stubUsage({ usageHistory: () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    await openUsage();
    expect(within(perDay()).getByRole('status', { name: 'Loading usage history' })).toBeInTheDocument();
    expect(await within(perDay()).findByText('Failed to load usage history')).toBeInTheDocument();
    expect(within(perDay()).getByText('500: Internal Server Error')).toBeInTheDocument();
    // The period above is read on its own and still shows.
    expect(await within(period()).findByText('120 of 500 queries used this period')).toBeInTheDocument();
  });
});

describe('Usage in the dashboard', () => {
  it('is the third section of the sidebar, marked current at #usage', async () => {
    stubUsage();
    await openUsage();
    const nav = screen.getByRole('navigation', { name: 'Dashboard sections' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['General', 'Subscriptions', 'Usage', 'Organisations', 'Account']);
    expect(within(nav).getByRole('link', { name: 'Usage' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Usage' })).toHaveAttribute('href', '/dashboard#usage');
    expect(await within(period()).findByText('Sage Pro')).toBeInTheDocument();
  });
});
