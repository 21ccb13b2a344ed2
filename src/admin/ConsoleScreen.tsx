import { Box, CircularProgress } from '@mui/material';
import { Suspense, lazy, startTransition, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { inSteps } from '../start/inSteps';
import { whenIdle } from '../start/whenIdle';
import { useServerTitle } from '../ui/serverTitle';
import { consolePageAt } from './consolePageChunks';
import { consolePath, consoleTabTitle, isConsoleHome } from './consolePages';
import { ConsoleLayout } from './frame/ConsoleLayout';
import { HomePage } from './home/HomePage';
import { consoleTranslate as translate } from './i18n';

/**
 * react-admin and the console's other pages: chunks of their own, which the Home never waits for.
 * Run in two steps, each a task (react-admin's library with the layout, then the console), so a tap
 * meanwhile waits for one of them. Only modules of react-admin's own graph are steps: a dynamic
 * import of a module the Home also imports, or of react-admin as a whole, made the bundler put
 * react-router's data router and 15 kB more into the chunks every portal page loads.
 */
const AdminApp = lazy(() => inSteps([() => import('./AdminLayout')], () => import('./AdminApp')));

/** The Home's tab title, on the server's page too (it has no effects there). */
function HomeTitle() {
  const title = consoleTabTitle(translate('admin.menu.home'));
  useServerTitle(title);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress aria-label={translate('ra.message.loading')} />
    </Box>
  );
}

/**
 * The console at /admin/* (§2; decision 035). The Home needs no react-admin: the server draws it
 * whole (figures, charts and tables) and the page's own small bundle runs it. react-admin, which
 * the other pages run on, is fetched and started once the Home has loaded and the browser is idle,
 * or at once when the admin opens another page first; it then stays, out of sight while the Home
 * shows, so going from the Home to any page is a step inside a running console.
 */
export function ConsoleScreen() {
  const { pathname } = useLocation();
  const onHome = isConsoleHome(pathname);
  const [started, setStarted] = useState(!onHome);
  if (!onHome && !started) setStarted(true);
  useEffect(() => {
    if (started) return;
    return whenIdle(() => startTransition(() => setStarted(true)));
  }, [started]);
  // The page opened loads beside react-admin, rather than once react-admin has run and asks for it.
  useEffect(() => {
    if (!onHome)
      void consolePageAt(consolePath(pathname))
        ?.preload()
        .catch(() => undefined);
  }, [onHome, pathname]);

  // Made once: react-admin follows the address itself, and need not render again with the frame.
  const reactAdmin = useMemo(
    () => (
      <Suspense fallback={<Loading />}>
        <AdminApp />
      </Suspense>
    ),
    [],
  );
  return (
    <ConsoleLayout title={onHome ? translate('admin.menu.home') : null}>
      {onHome && (
        <>
          <HomeTitle />
          <HomePage />
        </>
      )}
      {started && <Box hidden={onHome}>{reactAdmin}</Box>}
    </ConsoleLayout>
  );
}
