import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import type { AccountDetails, AdminUser } from '../../contract/admin';
import type { Insights } from '../../contract/insights';
import type { UsageHistory, UsageSummary } from '../../contract/usage';
import type { CurrentUser } from '../../contract/user';
import { json, renderPortal } from '../portal/render';

export const admin: CurrentUser = {
  id: 'admin-1',
  username: 'root',
  email: 'root@example.com',
  status: 'Active',
  isAdmin: true,
  staffRole: 'admin',
};

/** `GET /api/user` answering the signed-in admin, for stubFetch. */
export const signedInAdmin = { 'GET /api/user': () => json(admin) };

export const ada: AdminUser = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  status: 'Active',
  isAdmin: false,
  role: null,
  epicDisplayName: 'AdaL',
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
};

/** `GET /api/admin/users/u1/details` of a user who never signed in and has nothing yet. */
export const noAccountDetails: AccountDetails = {
  activeSessions: 0,
  lastSignInAt: null,
  lastSignInMethod: null,
  subscriptions: [],
  creditBalance: 0,
  storedMessages: 0,
};

/** `GET /api/admin/users/u1/usage` of a user without a plan who used nothing this UTC month. */
export const noUsage: UsageSummary = {
  plan: null,
  period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
  allowance: 0,
  allowanceUsed: 0,
  creditsUsed: 0,
  remaining: { allowance: 0, credits: 0, periodEnd: '2026-12-01T00:00:00.000Z' },
};

/** `GET /api/admin/users/u1/usage/history?days=` of a user who made no query: the range's UTC days, all zero. */
export function noUsageHistory(days = 30, today = '2026-11-23'): UsageHistory {
  const last = Date.parse(`${today}T00:00:00Z`);
  const labels = Array.from({ length: days }, (_, i) => new Date(last - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  return { days: labels, units: labels.map(() => 0), byProject: [], byEngineVersion: [] };
}

/** The Usage and Notes panels' calls for a user with no usage, no credit packs and no notes, for stubFetch beside a test's own. */
export const emptyUsage = (userId: string) => ({
  [`GET /api/admin/users/${userId}/usage`]: () => json(noUsage),
  [`GET /api/admin/users/${userId}/usage/history`]: (_init: RequestInit | undefined, url: URL) =>
    json(noUsageHistory(Number(url.searchParams.get('days') ?? 30))),
  [`GET /api/admin/users/${userId}/credit-packs`]: () => json({ purchases: [] }),
  [`GET /api/admin/users/${userId}/notes`]: () => json({ notes: [] }),
});

/** `GET /api/admin/insights` of a fresh install: the range's UTC days, every figure zero. */
export function noInsights(days = 30, today = '2026-11-23'): Insights {
  const last = Date.parse(`${today}T00:00:00Z`);
  const labels = Array.from({ length: days }, (_, i) => new Date(last - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  const zeros = () => labels.map(() => 0);
  return {
    days: labels,
    signUps: { epic: zeros(), email: zeros() },
    pluginSignIns: zeros(),
    creditsSold: zeros(),
    messagesStored: zeros(),
    queriesPerDay: zeros(),
    topUsers: [],
    subscriptionsByStatus: [],
    monthlyRecurringRevenue: [],
    trialConversions: { ended: 0, converted: 0 },
    generatedAt: `${today}T12:00:00.000Z`,
  };
}

/**
 * Loads the console's chunk once per file before the tests (importing react-admin takes seconds
 * under the test transform), gives its screens time to mount, and starts each test with an empty
 * react-admin store.
 */
/** A list's answer as the server gives it (simple-rest's dialect): `rows` from `start`, the total in Content-Range. */
export function listPage(resource: string, rows: unknown[], total: number, start = 0): Response {
  const range = rows.length ? `${resource} ${start}-${start + rows.length - 1}/${total}` : `${resource} */${total}`;
  return new Response(JSON.stringify(rows), { headers: { 'content-type': 'application/json', 'content-range': range } });
}

export function setUpAdminTests() {
  vi.setConfig({ testTimeout: 30_000 });
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 15_000 });
    // The console's pages are chunks of their own: loaded up front, any page renders at once.
    await (await import('../../src/admin/AdminApp')).preloadAdminPages();
  }, 60_000);
  afterAll(() => {
    configure({ asyncUtilTimeout: 1000 });
  });
  beforeEach(() => {
    localStorage.clear();
    // react-admin scrolls to the top on navigation; jsdom has no scrolling.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  });
}

/** The whole app at `path` (an /admin path), through the portal's routes as in the browser. */
export const renderAdmin = (path: string) => renderPortal(path);

/** The react-admin notification (an alert inside its snackbar, not one of the page's own) holds each of `texts`. */
export async function expectNotification(...texts: string[]) {
  const toast = await waitFor(() => {
    const [found] = screen.getAllByRole('alert').filter((alert) => alert.closest('.MuiSnackbar-root'));
    if (!found) throw new Error('no notification on screen');
    return found;
  });
  for (const text of texts) expect(within(toast).getByText(text)).toBeInTheDocument();
  return toast;
}
