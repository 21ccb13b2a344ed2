import { render, screen, within, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { expect, vi } from 'vitest';
import type { RuntimeConfig } from '../../contract/config';
import { testConfig } from '../fixtures/runtimeConfig';
import { createQueryClient } from '../../src/api/queryClient';
import { AppProviders, PortalRoutes } from '../../src/App';

export { testConfig };

/**
 * Shows the router's current location so tests can assert on navigation. A plain div: an
 * <output> would be one more role="status" on the page.
 */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search + location.hash}</div>;
}

export interface RenderOptions {
  /** Runtime configuration; `testConfig` by default. */
  config?: RuntimeConfig;
  /**
   * Render under <StrictMode> at the root, so effects run twice on mount as in development. (A
   * <StrictMode> inside the rendered element does not do that for the first commit.)
   */
  strict?: boolean;
}

/** Renders the whole portal at `path` with the real providers and router. */
export function renderPortal(path: string, { config = testConfig, strict = false }: RenderOptions = {}): RenderResult {
  return render(
    <AppProviders config={config} queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <PortalRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
    { reactStrictMode: strict },
  );
}

/** Renders one screen at `path` with the real providers. */
export function renderScreen(ui: ReactElement, path = '/', { config = testConfig, strict = false }: RenderOptions = {}): RenderResult {
  return render(
    <AppProviders config={config} queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={ui} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
    { reactStrictMode: strict },
  );
}

type Handler = (init: RequestInit | undefined, url: URL) => Response | Promise<Response>;

/**
 * Replaces `fetch` with a table of `METHOD /path` handlers; unknown calls fail the test loudly.
 * Returns the spy so tests can inspect calls.
 */
export function stubFetch(routes: Record<string, Handler>) {
  const spy = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const key = `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    const handler = routes[key];
    if (!handler) throw new Error(`unexpected fetch: ${key}`);
    return handler(init, url);
  });
  vi.stubGlobal('fetch', spy);
  return spy;
}

export const json = (body: unknown, status = 200, statusText = 'OK') =>
  new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });

/** The JSON body a stubbed call was sent with. */
export const bodyOf = (init: RequestInit | undefined): unknown => JSON.parse(String(init?.body));

/** A promise to settle from the test, for calls that must stay in flight for a while. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The toast on screen, found inside the toaster's region so screen-reader announcements don't count twice. */
export async function expectToast(title: string, description?: string | RegExp) {
  const region = await screen.findByRole('region', { name: /notifications/i });
  expect(await within(region).findByText(title)).toBeInTheDocument();
  if (description) expect(within(region).getByText(description)).toBeInTheDocument();
}

/** The router's current location, as rendered by the probe. */
export const currentLocation = () => screen.getByTestId('location').textContent;

/**
 * Fake timers (no time passes unless a test advances it) that Testing Library's async helpers
 * also drive: findBy*, waitFor and userEvent wait on a setTimeout, and only advance it themselves
 * when they see a global `jest` with fake timers. Undone by the setup's unstubAllGlobals; call
 * vi.useRealTimers() after each test.
 */
export function installFakeTimers() {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
}
