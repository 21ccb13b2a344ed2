import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { BootData } from '../../contract/boot';
import { pageFor } from '../../contract/pages';
import { configureAnalytics } from '../analytics';
import { seededQueryClient } from '../api/queryClient';
import { App } from '../App';
import { screenFor } from '../portal/screens';
import { ScreenShownProvider } from './screenShown';

/**
 * Runs the app in `root`: attaches to a pre-rendered page's markup, or renders into an empty shell.
 * `onStarted` is called once, when the app handles the page's controls: the first screen is live.
 */
export async function startApp(root: HTMLElement, boot: BootData, onStarted: () => void) {
  configureAnalytics(boot.config.analytics);
  const queryClient = seededQueryClient(boot);
  // The current screen's chunk, so the first render shows it instead of suspending.
  await screenFor(pageFor(window.location.pathname).path).preload();
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    onStarted();
  };
  const app = (
    <StrictMode>
      <ScreenShownProvider value={once}>
        <App config={boot.config} queryClient={queryClient} />
      </ScreenShownProvider>
    </StrictMode>
  );
  if (root.firstElementChild) {
    // A pre-rendered page: attach to its markup. As a transition, hydration yields to the
    // browser every few milliseconds instead of blocking the main thread in one long task.
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    createRoot(root).render(app);
  }
}
