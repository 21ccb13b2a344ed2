import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { RuntimeConfig } from '../../contract/config';
import { createQueryClient } from '../../src/api/queryClient';
import { AppProviders, PortalRoutes } from '../../src/App';

export const testConfig: RuntimeConfig = {
  marketingUrl: 'https://sage.test',
  supportEmail: 'help@sage.test',
  installationGuideUrl: 'https://sage.test/docs/installation',
  defaultBuild: {
    version: '2025-07-15a',
    ue54Url: 'https://sage.test/dl/default-5.4.zip',
    ue55Url: 'https://sage.test/dl/default-5.5.zip',
    ue56Url: 'https://sage.test/dl/default-5.6.zip',
    ue57Url: 'https://sage.test/dl/default-5.7.zip',
  },
  epicSignIn: 'epic',
};

/** Shows the router's current location so tests can assert on navigation. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search + location.hash}</output>;
}

/** Renders the whole portal at `path` with the real providers and router. */
export function renderPortal(path: string): RenderResult {
  return render(
    <AppProviders config={testConfig} queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <PortalRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
}

/** Renders one screen at `path` with the real providers. */
export function renderScreen(ui: ReactElement, path = '/'): RenderResult {
  return render(
    <AppProviders config={testConfig} queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={ui} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
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

