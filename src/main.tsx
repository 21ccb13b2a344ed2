import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BOOT_ATTRIBUTE, type BootData } from '../contract/boot';
import { pageFor } from '../contract/pages';
import { configureAnalytics } from './analytics';
import { fetchRuntimeConfig } from './api/config';
import { seededQueryClient } from './api/queryClient';
import { App } from './App';
import { screenFor } from './portal/screens';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** The server's boot data; absent when the Vite dev server serves index.html as it is. */
function readBootData(element: HTMLElement): BootData | null {
  const text = element.getAttribute(BOOT_ATTRIBUTE);
  return text ? (JSON.parse(text) as BootData) : null;
}

async function start(root: HTMLElement, boot: BootData) {
  configureAnalytics(boot.config.analytics);
  const queryClient = seededQueryClient(boot);
  // The current screen's chunk, so the first render shows it instead of suspending.
  await screenFor(pageFor(window.location.pathname).path).preload();
  const app = (
    <StrictMode>
      <App config={boot.config} queryClient={queryClient} />
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

const boot = readBootData(container);
(boot ? Promise.resolve(boot) : fetchRuntimeConfig().then((config): BootData => ({ config })))
  .then((data) => start(container, data))
  .catch(() => {
    // A pre-rendered page keeps its content (its links work without the app); an empty one says why.
    if (!container.firstElementChild) container.textContent = 'Sage Dashboard could not reach its server. Please reload the page.';
  });
