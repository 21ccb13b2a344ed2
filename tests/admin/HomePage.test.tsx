import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectToast, json, stubFetch } from '../portal/render';
import type { Insights } from '../../contract/insights';
import { ada, emptyUsage, listPage, noAccountDetails, noInsights, renderAdmin, signedInAdmin, setUpAdminTests } from './render';

setUpAdminTests();

const metrics = (totalUsers: number) => () => json({ userStats: { totalUsers } });
const emptyInsights = { 'GET /api/admin/insights': () => json(noInsights()) };
/** The User List's first page, which the console draws ahead while the Home rests (decision 037). */
const userListAhead = { 'GET /api/admin/users': () => listPage('users', [ada], 1) };

describe('Home (§2)', () => {
  it('shows the number of Grove users and reads it again on Refresh', async () => {
    let total = 1234;
    const fetch = stubFetch({
      ...userListAhead,
      ...signedInAdmin,
      ...emptyInsights,
      'GET /api/admin/grove-metrics': () => metrics(total)(),
    });
    renderAdmin('/admin');
    const card = await screen.findByRole('region', { name: 'Grove Users' });
    expect(await within(card).findByText('1,234')).toBeInTheDocument();

    total = 1235;
    await userEvent.click(within(card).getByRole('button', { name: 'Refresh' }));
    expect(await within(card).findByText('1,235')).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => String(url) === '/api/admin/grove-metrics')).toHaveLength(2);
  });

  it('draws the User List ahead once the Home is idle, out of sight, and opens it from there while reading it again', async () => {
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    const fetch = stubFetch({
      ...signedInAdmin,
      ...emptyInsights,
      'GET /api/admin/grove-metrics': metrics(1),
      'GET /api/admin/users': async () => {
        await held;
        return listPage('users', [ada], 1);
      },
    });
    renderAdmin('/admin');
    const listReads = () => fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/admin/users?')).length;
    await waitFor(() => expect(listReads()).toBe(1));
    // A read nobody asked to see: the app bar's Refresh does not spin for it (a spinner moved the bar's buttons).
    const [refresh] = screen.getAllByRole('button', { name: 'Refresh' });
    expect(within(refresh!).queryByRole('progressbar', { hidden: true })).not.toBeInTheDocument();
    answer();
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Select all', hidden: true })).not.toBeInTheDocument());
    expect(screen.queryByText(ada.email!)).not.toBeInTheDocument();
    // Read once: marked stale as it goes, not read again until it is opened.
    expect(listReads()).toBe(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Home$/);

    await userEvent.click(screen.getByRole('menuitem', { name: 'User List' }));
    expect(await screen.findByRole('cell', { name: ada.email! })).toBeInTheDocument();
    await waitFor(() => expect(listReads()).toBe(2));
  });

  it('says it failed, toasts Error, and Retry reads the count again', async () => {
    let fail = true;
    stubFetch({
      ...userListAhead,
      ...signedInAdmin,
      ...emptyInsights,
      'GET /api/admin/grove-metrics': () =>
        fail ? json({ error: 'Internal Server Error', message: 'Database unavailable' }, 500, 'Internal Server Error') : metrics(7)(),
    });
    renderAdmin('/admin');
    // The Home runs without react-admin (decision 035): its toast is the app's own, with the server's reason.
    await expectToast('Error', 'Failed to fetch user count: Database unavailable');
    const card = screen.getByRole('region', { name: 'Grove Users' });
    expect(within(card).getByText('Failed to fetch user count')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();

    fail = false;
    await userEvent.click(within(card).getByRole('button', { name: 'Retry' }));
    expect(await within(card).findByText('7')).toBeInTheDocument();
    await waitFor(() => expect(within(card).queryByText('Failed to fetch user count')).not.toBeInTheDocument());
  });

  it('lists the tabs in the product’s order and words, then organisations and the audit log', async () => {
    stubFetch({ ...userListAhead, ...signedInAdmin, ...emptyInsights, 'GET /api/admin/grove-metrics': metrics(1) });
    renderAdmin('/admin');
    await screen.findByText('Grove Users');
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Home', 'Release', 'Search', 'Find Message', 'Recent Messages', 'User List', 'Organisations', 'Audit Log']);
  });

  it('narrows the menu to its icons with the menu button on a laptop, each entry keeping its name', async () => {
    stubFetch({ ...userListAhead, ...signedInAdmin, ...emptyInsights, 'GET /api/admin/grove-metrics': metrics(1) });
    renderAdmin('/admin');
    await screen.findByText('Grove Users');
    await userEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Audit Log' })).toBeInTheDocument();
    expect(within(menu).getByText('Audit Log')).toHaveStyle({ position: 'absolute' });
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(within(screen.getByRole('menu')).getByText('Audit Log')).not.toHaveStyle({ position: 'absolute' });
  });
});

/** A month of figures: a few sign-ups and sales, subscriptions in three statuses, two currencies. */
function monthOfFigures(days = 30): Insights {
  const figures = noInsights(days);
  const at = (values: Record<number, number>) => figures.days.map((_, i) => values[i - (days - 30)] ?? 0);
  return {
    ...figures,
    signUps: { epic: at({ 29: 4, 27: 2 }), email: at({ 29: 1 }) },
    pluginSignIns: at({ 28: 3 }),
    creditsSold: at({ 29: 500, 10: 100 }),
    messagesStored: at({ 29: 12, 28: 30 }),
    queriesPerDay: at({ 29: 1200, 27: 34 }),
    topUsers: [
      { userId: 'u1', username: 'ada', email: 'ada@example.com', units: 1100 },
      { userId: 'u2', username: 'EpicBob', email: null, units: 134 },
    ],
    subscriptionsByStatus: [
      { status: 'active', count: 12 },
      { status: 'past_due', count: 2 },
      { status: 'trialing', count: 3 },
    ],
    monthlyRecurringRevenue: [
      { currency: 'usd', amount: 24_000, subscriptions: 12 },
      { currency: 'jpy', amount: 1500, subscriptions: 2 },
    ],
    trialConversions: { ended: 8, converted: 6 },
  };
}

describe('Home: the business at a glance (issue 14)', () => {
  const section = () => screen.findByRole('region', { name: 'The business at a glance' });
  const figure = async (name: string) => within(await section()).findByRole('figure', { name });

  it('draws the eight charts of the last 30 UTC days, each with a summary and its figures as a table', async () => {
    const fetch = stubFetch({
      ...userListAhead,
      ...signedInAdmin,
      'GET /api/admin/grove-metrics': metrics(17),
      'GET /api/admin/insights': () => json(monthOfFigures()),
    });
    renderAdmin('/admin');
    expect(await within(await section()).findByText('Days are UTC days. Last 30 days, up to today.')).toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/admin/insights?days=30');

    const signUps = await figure('Sign-ups per day');
    expect(signUps).toHaveAccessibleDescription('7 sign-ups in the last 30 days: 6 with Epic, 1 with e-mail.');
    await userEvent.click(within(signUps).getByText('Show the figures'));
    const table = within(signUps).getByRole('table', { name: 'Sign-ups per day' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day (UTC)', 'Epic', 'E-mail']);
    expect(within(table).getByRole('row', { name: '2026-11-23 4 1' })).toBeInTheDocument();

    expect(await figure('Plugin sign-ins per day')).toHaveAccessibleDescription('3 completed plugin sign-ins in the last 30 days.');
    expect(await figure('Messages stored per day')).toHaveAccessibleDescription('42 chat messages stored in the last 30 days.');
    expect(await figure('Subscriptions by status')).toHaveAccessibleDescription('17 subscriptions now: 12 active, 2 past due, 3 trialing.');
    expect(await figure('Monthly recurring revenue')).toHaveAccessibleDescription(
      'Active and past-due subscriptions bring $240.00, ¥1,500 a month (each currency apart).',
    );
    expect(await figure('Trial conversions')).toHaveAccessibleDescription('6 of 8 trials that ended in the last 30 days converted (75%).');
    expect(await figure('Credits sold')).toHaveAccessibleDescription('600 credits sold in packs in the last 30 days.');

    const queries = await figure('Queries per day');
    expect(queries).toHaveAccessibleDescription('1,234 queries by all users in the last 30 days.');
    await userEvent.click(within(queries).getByText('Show the figures'));
    expect(
      within(within(queries).getByRole('table', { name: 'Queries per day' })).getByRole('row', { name: '2026-11-23 1,200' }),
    ).toBeInTheDocument();
  });

  it('lists this month’s top users by queries, each leading to their page', async () => {
    stubFetch({
      ...userListAhead,
      ...signedInAdmin,
      'GET /api/admin/grove-metrics': metrics(2),
      'GET /api/admin/insights': () => json(monthOfFigures()),
      'GET /api/admin/users/u1': () => json(ada),
      'GET /api/admin/users/u1/details': () => json(noAccountDetails),
      'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
      ...emptyUsage('u1'),
    });
    renderAdmin('/admin');
    const top = await within(await section()).findByRole('region', { name: 'Top users this month' });
    expect(top).toHaveAccessibleDescription('The users with the most queries since Nov 1 (UTC), most first.');
    const table = within(top).getByRole('table', { name: 'Top users this month' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['User', 'E-mail', 'Queries']);
    expect(within(table).getByRole('row', { name: 'ada ada@example.com 1,100' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: 'EpicBob — 134' })).toBeInTheDocument();

    await userEvent.click(within(table).getByRole('link', { name: 'ada' }));
    expect(await screen.findByText('u1')).toBeInTheDocument();
  });

  it('reads the range the admin picks, and keeps it for the next visit', async () => {
    const fetch = stubFetch({
      ...userListAhead,
      ...signedInAdmin,
      'GET /api/admin/grove-metrics': metrics(1),
      'GET /api/admin/insights': (_init, url) => json(monthOfFigures(Number(url.searchParams.get('days')))),
    });
    const { unmount } = renderAdmin('/admin');
    const range = within(await section()).getByRole('group', { name: 'Range' });
    expect(within(range).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(range).getByRole('button', { name: '7 days' }));
    expect(await within(await section()).findByText('Days are UTC days. Last 7 days, up to today.')).toBeInTheDocument();
    // The figures follow the range in a transition, a moment after the range's note.
    await waitFor(async () =>
      expect(await figure('Sign-ups per day')).toHaveAccessibleDescription('7 sign-ups in the last 7 days: 6 with Epic, 1 with e-mail.'),
    );
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/admin/insights?days=7');

    unmount();
    renderAdmin('/admin');
    expect(within(within(await section()).getByRole('group', { name: 'Range' })).getByRole('button', { name: '7 days' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('says what is missing on a fresh install instead of drawing empty charts', async () => {
    stubFetch({ ...userListAhead, ...signedInAdmin, ...emptyInsights, 'GET /api/admin/grove-metrics': metrics(0) });
    renderAdmin('/admin');
    expect(await figure('Sign-ups per day')).toHaveAccessibleDescription('No sign-ups in the last 30 days yet.');
    expect(await figure('Subscriptions by status')).toHaveAccessibleDescription('No subscriptions yet.');
    expect(await figure('Monthly recurring revenue')).toHaveAccessibleDescription('No paying subscriptions yet.');
    expect(await figure('Trial conversions')).toHaveAccessibleDescription('No trial ended in the last 30 days.');
    expect(await figure('Credits sold')).toHaveAccessibleDescription('No credit packs sold in the last 30 days yet.');
    expect(await figure('Queries per day')).toHaveAccessibleDescription('No queries in the last 30 days yet.');
    expect(within(await section()).getByRole('region', { name: 'Top users this month' })).toHaveAccessibleDescription(
      'No queries this month yet.',
    );
    expect(within(await section()).queryByRole('table')).not.toBeInTheDocument();
    expect(within(await section()).queryByText('Show the figures')).not.toBeInTheDocument();
  });

  it('says the figures failed, toasts Error, and Retry reads them again', async () => {
    let fail = true;
    stubFetch({
      ...userListAhead,
      ...signedInAdmin,
      'GET /api/admin/grove-metrics': metrics(5),
      'GET /api/admin/insights': () =>
        fail
          ? json({ error: 'Internal Server Error', message: 'Database unavailable' }, 500, 'Internal Server Error')
          : json(monthOfFigures()),
    });
    renderAdmin('/admin');
    await expectToast('Error', 'Failed to fetch the business figures: Database unavailable');
    const insights = await section();
    expect(within(insights).getByText('Failed to fetch the business figures')).toBeInTheDocument();
    // Grove Users is unaffected.
    expect(await within(screen.getByRole('region', { name: 'Grove Users' })).findByText('5')).toBeInTheDocument();

    fail = false;
    await userEvent.click(within(insights).getByRole('button', { name: 'Retry' }));
    expect(await within(insights).findByRole('figure', { name: 'Sign-ups per day' })).toBeInTheDocument();
    expect(within(insights).queryByText('Failed to fetch the business figures')).not.toBeInTheDocument();
  });
});

describe('Plugin versions on the Home (issue 41)', () => {
  const home = { ...userListAhead, ...signedInAdmin, ...emptyInsights, 'GET /api/admin/grove-metrics': metrics(3) };

  it('lists installs, queries and units per plugin version, newest first, withdrawn marked, the unknown one last', async () => {
    stubFetch({
      ...home,
      'GET /api/admin/plugin-versions': () =>
        json({
          days: 30,
          versions: [
            { version: '1.5.0', withdrawn: false, installs: 1200, uses: 5400, units: 9100 },
            { version: '1.4.0', withdrawn: true, installs: 7, uses: 12, units: 30 },
            { version: null, withdrawn: false, installs: 2, uses: 0, units: 0 },
          ],
        }),
    });
    renderAdmin('/admin');
    const card = await screen.findByRole('region', { name: 'Plugin versions (last 30 days)' });
    const table = await within(card).findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['1.5.0', '1.4.0Withdrawn', 'Unknown']);
    expect(rows).toEqual([
      ['1,200', '5,400', '9,100'],
      ['7', '12', '30'],
      ['2', '0', '0'],
    ]);
  });

  it('says when no install called in, and offers Retry when the figures failed', async () => {
    let fail = true;
    stubFetch({
      ...home,
      'GET /api/admin/plugin-versions': () =>
        fail ? json({ error: 'Internal Server Error', message: 'Database unavailable' }, 500) : json({ days: 30, versions: [] }),
    });
    renderAdmin('/admin');
    const card = await screen.findByRole('region', { name: 'Plugin versions (last 30 days)' });
    expect(await within(card).findByText('Failed to load the plugin versions')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(card).getByRole('button', { name: 'Retry' }));
    expect(await within(card).findByText('No install called in the last 30 days.')).toBeInTheDocument();
    expect(within(card).queryByRole('table')).not.toBeInTheDocument();
  });
});
