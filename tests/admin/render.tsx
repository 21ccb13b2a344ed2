import { configure, render, screen, waitFor, within, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import {
  AdminContext,
  Authenticated,
  defaultTheme,
  localStorageStore,
  ResourceContextProvider,
  ResourceDefinitionContextProvider,
  usePermissions,
  type RaThemeOptions,
  type ResourceDefinitions,
} from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import type { AccountDetails, AdminUser } from '../../contract/admin';
import type { AdminOrg } from '../../contract/adminOrgs';
import type { Insights } from '../../contract/insights';
import type { UsageHistory, UsageSummary } from '../../contract/usage';
import type { CurrentUser } from '../../contract/user';
import { AdminLayout } from '../../src/admin/AdminLayout';
import { CONSOLE_BASE } from '../../src/admin/consolePages';
import { i18nProvider } from '../../src/admin/i18n';
import { AdminNotification } from '../../src/admin/notify';
import { consoleComponents } from '../../src/admin/themeComponents';
import { createQueryClient } from '../../src/api/queryClient';
import { AppProviders } from '../../src/App';
import { createAuthProvider } from '../../src/authProvider/authProvider';
import { dataProvider } from '../../src/dataProvider';
import { json, LocationProbe, renderPortal, testConfig } from '../portal/render';

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

/** `GET /api/admin/orgs/o1` of an organisation ada has just made: no plan, no company details, nothing used yet. */
export const groveStudio: AdminOrg = {
  id: 'o1',
  name: 'Grove Studio',
  ownerId: ada.id,
  ownerEmail: ada.email,
  memberCount: 1,
  seats: { bought: 0, assigned: 0 },
  plan: null,
  pool: 0,
  createdAt: '2026-11-02T03:04:05.000Z',
  details: null,
  customerId: null,
  subscription: null,
  period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
  usage: { seat: 0, pool: 0 },
  members: [
    {
      userId: ada.id,
      name: 'AdaL',
      email: ada.email,
      role: 'owner',
      joinedAt: '2026-11-02T03:04:05.000Z',
      seat: false,
      monthlyLimit: null,
      usage: 0,
      poolUsage: 0,
      lastActiveAt: null,
      suspended: false,
    },
  ],
  audit: [],
};

/** `GET /api/admin/users/u1/details` of a user who never signed in and has nothing yet. */
export const noAccountDetails: AccountDetails = {
  activeSessions: 0,
  lastSignInAt: null,
  lastSignInMethod: null,
  subscriptions: [],
  creditBalance: 0,
  storedMessages: 0,
  memberships: [],
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

/** A list's answer as the server gives it (simple-rest's dialect): `rows` from `start`, the total in Content-Range. */
export function listPage(resource: string, rows: unknown[], total: number, start = 0): Response {
  const range = rows.length ? `${resource} ${start}-${start + rows.length - 1}/${total}` : `${resource} */${total}`;
  return new Response(JSON.stringify(rows), { headers: { 'content-type': 'application/json', 'content-range': range } });
}

/**
 * Starts each test with an empty react-admin store, and waits as long as a busy machine needs.
 * With `wholeConsole` (the default), also loads every console page's chunk once per file before
 * the tests, so any page renders at once in `renderAdmin`; a file that mounts its page with
 * `renderConsolePage` imports that page itself and passes `{ wholeConsole: false }`.
 */
export function setUpAdminTests({ wholeConsole = true }: { wholeConsole?: boolean } = {}) {
  vi.setConfig({ testTimeout: 30_000 });
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 15_000 });
    // The console's pages are chunks of their own: loaded up front, any page renders at once.
    if (wholeConsole) await (await import('../../src/admin/AdminApp')).preloadAdminPages();
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

/**
 * The resources AdminApp declares, as react-admin knows them: links to a user's page and edit
 * page, a user named by their username and an organisation by its name in titles and confirmations.
 */
const consoleResources: ResourceDefinitions = {
  users: { name: 'users', hasList: true, hasShow: true, hasEdit: true, hasCreate: false, recordRepresentation: 'username' },
  orgs: { name: 'orgs', hasList: true, hasShow: true, hasEdit: false, hasCreate: false, recordRepresentation: 'name' },
  audit: { name: 'audit', hasList: true, hasShow: false, hasEdit: false, hasCreate: false },
};

/**
 * AdminApp's theme as far as a test can tell: react-admin's default with the console's component
 * settings (an empty list's words as an h2, …). Its colours are the portal's, which jsdom does not show.
 */
const consoleTheme: RaThemeOptions = { ...defaultTheme, components: { ...defaultTheme.components, ...consoleComponents } };

/**
 * What react-admin's `<Admin requireAuth>` in AdminApp does before any page: it asks for the role
 * (the pages' controls follow it) and checks the session, and shows the page once the session is checked.
 */
function AsAdminStarts({ children }: { children: ReactNode }) {
  usePermissions();
  return <Authenticated>{children}</Authenticated>;
}

export interface ConsolePageOptions {
  /** The browser path the page is opened at, e.g. `/admin/users/u1/show`. */
  path: string;
  /** The page's route inside the console's basename, as AdminApp declares it, e.g. `/users/:id/show`; `path`'s own by default. */
  route?: string;
  /** The resource whose page `element` is (`users`, `audit`), for react-admin's list, show and edit pages. */
  resource?: string;
}

/**
 * One console page at `path`, as the console runs it but without the rest of the console: the
 * portal's providers and a router at `path`, react-admin's context with the product's data, auth
 * and i18n providers over the portal's QueryClient and the console's store, react-admin's layout
 * around the page (tab title, error page), the page once the session is checked, and react-admin's
 * notifications. Data comes through `stubFetch` as in `renderAdmin`. Left out are the portal's
 * routes and guard, the console's frame (app bar with the page's h1, menu) and `<Admin>` with every
 * other page: a test about those keeps `renderAdmin`. A navigation to a page not mounted changes
 * the address (`currentLocation`) and shows nothing.
 */
export function renderConsolePage(element: ReactElement, { path, route, resource }: ConsolePageOptions): RenderResult {
  const queryClient = createQueryClient();
  // AdminApp's store: the console's settings kept in localStorage, named in its language at once.
  const store = localStorageStore(undefined, 'SageAdmin');
  store.setItem('locale', i18nProvider.getLocale());
  const page = resource ? <ResourceContextProvider value={resource}>{element}</ResourceContextProvider> : element;
  return render(
    <AppProviders config={testConfig} queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AdminContext
          basename={CONSOLE_BASE}
          dataProvider={dataProvider}
          authProvider={createAuthProvider(queryClient)}
          i18nProvider={i18nProvider}
          queryClient={queryClient}
          store={store}
          theme={consoleTheme}
        >
          <ResourceDefinitionContextProvider definitions={consoleResources}>
            <AdminLayout>
              <AsAdminStarts>
                <Routes>
                  <Route path={CONSOLE_BASE + (route ?? path.slice(CONSOLE_BASE.length))} element={page} />
                  <Route path="*" element={null} />
                </Routes>
              </AsAdminStarts>
            </AdminLayout>
            <AdminNotification />
          </ResourceDefinitionContextProvider>
        </AdminContext>
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
}

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
