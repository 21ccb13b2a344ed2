// @vitest-environment node
// The console as the server renders it for an admin opening /admin (issue 28, decision 035): its
// frame, its menu, and the Home's figures and charts from the page's boot data, one markup for
// every screen; in Node, as on the server, where nothing may reach for the browser.
import { describe, expect, it } from 'vitest';
import type { ConsoleHome } from '../../contract/boot';
import type { CurrentUser } from '../../contract/user';
import { renderPage } from '../../src/entry-server';
import { testConfig } from '../fixtures/runtimeConfig';

const ada: CurrentUser = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: true, staffRole: 'admin' };
const sam: CurrentUser = { ...ada, id: 'u2', username: 'sam', staffRole: 'support' };

const DAYS = ['2026-11-21', '2026-11-22', '2026-11-23'];
const consoleHome: ConsoleHome = {
  groveMetrics: { userStats: { totalUsers: 1234 } },
  range: 30,
  insights: {
    days: DAYS,
    signUps: { epic: [1, 2, 3], email: [0, 1, 0] },
    pluginSignIns: [4, 0, 1],
    creditsSold: [0, 0, 500],
    messagesStored: [10, 20, 30],
    queriesPerDay: [5, 6, 7],
    topUsers: [],
    subscriptionsByStatus: [{ status: 'active', count: 3 }],
    monthlyRecurringRevenue: [{ currency: 'usd', amount: 2997, subscriptions: 3 }],
    trialConversions: { ended: 4, converted: 1 },
    generatedAt: '2026-11-23T12:00:00.000Z',
  },
};

/** The page's text as a reader meets it: tags dropped, entities read, runs of space folded. */
const textOf = (html: string) =>
  html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');

async function render(user: CurrentUser, url = '/admin') {
  const page = await renderPage(url, { config: testConfig, currentUser: user, ...(url === '/admin' ? { consoleHome } : {}) });
  // React marks what it could not render on the server and leaves to the browser.
  expect(page.html).not.toContain('<template');
  return { ...page, text: textOf(page.html) };
}

describe('The console rendered on the server', () => {
  it('is the console, not a spinner: its menu for an admin, and the Home with its figures', async () => {
    const page = await render(ada);
    expect(page.text).toContain('Home Release Search Find Message Recent Messages User List Organisations Audit Log');
    expect(page.text).toMatch(/Grove Users 1,234 Refresh/);
    expect(page.text).toContain('The business at a glance');
    // A chart's summary, the Home's largest text: it shows before the console's JavaScript runs.
    expect(page.text).toMatch(/Sign-ups/);
    expect(page.html).toContain('id="main-content"');
    // Its one h1, the app bar's title, where react-admin's pages write theirs.
    expect(page.html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(page.html).toMatch(/<h1[^>]*>Home<span id="react-admin-title"><\/span><\/h1>/);
    // The tab says which console tab it is from the first byte: the server puts it in <title>.
    expect(page.title).toBe('Home · Admin · Sage Dashboard');
    // Styled as it will be in the browser.
    expect(page.styles).toContain('data-emotion');
  });

  it('shows a support member every tab, Release too: its page says who may release (issue 37)', async () => {
    const page = await render(sam);
    expect(page.text).toContain('Home Release Search Find Message Recent Messages User List Organisations Audit Log');
  });

  it('draws the charts in its markup, without react-admin, and one page fits every screen', async () => {
    const page = await render(ada);
    // Drawn, not placeholders: the Home's bars are in the server's markup (issue 37).
    expect(page.html).toContain('data-chart-mark');
    expect(page.html).not.toContain('MuiSkeleton');
    expect(page.html).not.toMatch(/\bRa[A-Z]\w*-root\b/);
    // A phone's menu button and a laptop's are both there: CSS shows the one the screen takes.
    expect(page.html).toContain('aria-label="Open menu"');
    expect(page.html).toContain('aria-label="Close menu"');
    expect(page.styles).toMatch(/@media \(max-width:599\.95px\)/);
  });
});
