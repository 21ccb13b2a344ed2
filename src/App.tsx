import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import type { RuntimeConfig } from '../contract/config';
import { documentTitle, NOT_FOUND_PAGE, PAGES, pageFor, REDIRECTS, type PageInfo } from '../contract/pages';
import { PageTracker } from './analytics/PageTracker';
import { Guard } from './portal/guards';
import { PortalLayout } from './portal/PortalLayout';
import { screenFor } from './portal/screens';
import { ScreenShown } from './start/screenShown';
import { RuntimeConfigProvider } from './runtimeConfig';
import type { LazyScreen } from './ui/lazyScreen';
import { theme } from './ui/theme';
import { LoadingScreen } from './ui/LoadingScreen';
import { Toaster } from './ui/toast';

/** Providers every screen needs; tests wrap screens in the same ones with their own router. */
export function AppProviders({ config, queryClient, children }: { config: RuntimeConfig; queryClient: QueryClient; children: ReactNode }) {
  return (
    <RuntimeConfigProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <Toaster>{children}</Toaster>
        </ThemeProvider>
      </QueryClientProvider>
    </RuntimeConfigProvider>
  );
}

/** A page's screen behind its access rule, loading its chunk on first visit. */
function ScreenRoute({ page, screen: Screen }: { page: PageInfo; screen: LazyScreen }) {
  const screen = (
    <Suspense fallback={<LoadingScreen />}>
      <Screen />
      <ScreenShown />
    </Suspense>
  );
  return page.access === 'all' ? screen : <Guard access={page.access}>{screen}</Guard>;
}

const ADMIN_PAGE = pageFor('/admin');
const PORTAL_PAGES = PAGES.filter((page) => page !== ADMIN_PAGE);

/** The portal's routes (§2), one per entry of contract/pages.ts. */
export function PortalRoutes() {
  return (
    <Routes>
      {/* react-admin brings its own app bar and menu, so the console is not inside the portal's layout. */}
      <Route path={ADMIN_PAGE.path} element={<ScreenRoute page={ADMIN_PAGE} screen={screenFor(ADMIN_PAGE.path)} />} />
      <Route element={<PortalLayout />}>
        {Object.entries(REDIRECTS).map(([from, to]) =>
          from === '' ? (
            <Route key="index" index element={<Navigate to={to} replace />} />
          ) : (
            <Route key={from} path={from} element={<Navigate to={to} replace />} />
          ),
        )}
        {PORTAL_PAGES.map((page) => (
          <Route key={page.path} path={page.path} element={<ScreenRoute page={page} screen={screenFor(page.path)} />} />
        ))}
        <Route path="*" element={<ScreenRoute page={NOT_FOUND_PAGE} screen={screenFor(NOT_FOUND_PAGE.path)} />} />
      </Route>
    </Routes>
  );
}

/** Keeps the document title on the page the user is on (the server writes the first one). */
function DocumentTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pageFor(pathname));
  }, [pathname]);
  return null;
}

/** Everything inside the router: the same tree on the server (StaticRouter) and in the browser. */
export function PortalTree() {
  return (
    <>
      <PageTracker />
      <DocumentTitle />
      <PortalRoutes />
    </>
  );
}

export function App({ config, queryClient }: { config: RuntimeConfig; queryClient: QueryClient }) {
  return (
    <AppProviders config={config} queryClient={queryClient}>
      <BrowserRouter>
        <PortalTree />
      </BrowserRouter>
    </AppProviders>
  );
}
