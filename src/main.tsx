// The page's first script: it holds no framework code. The app itself (React, MUI, the screens)
// is a chunk of its own, started at once or on the visitor's first interaction (decision 010).
import { BOOT_ATTRIBUTE, type BootData } from '../contract/boot';
import { pageFor, prerendersAt } from '../contract/pages';
import { fetchRuntimeConfig } from './api/config';
import { screenChunkFor } from './portal/screenChunks';
import { holdEarlyInput } from './start/earlyInput';
import { inSteps } from './start/inSteps';
import { startPolicy } from '../contract/startPolicy';

// zod compiles its object parsers with `new Function` where a page allows it, and probes for it as
// it builds each schema; our CSP allows no eval (script-src 'self'), and the browser reports the
// probe as a violation (Lighthouse's Best Practices counts it). zod's jitless mode skips the probe;
// it must be set before zod's first schema is built, so here, through the global zod keeps its
// settings in (zod 4's `globalConfig`), without loading zod into this first script.
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** The server's boot data; absent when the Vite dev server serves index.html as it is. */
function readBootData(element: HTMLElement): BootData | null {
  const text = element.getAttribute(BOOT_ATTRIBUTE);
  return text ? (JSON.parse(text) as BootData) : null;
}

function failed() {
  // A pre-rendered page keeps its content (its links work without the app); an empty one says why.
  if (!container!.firstElementChild) container!.textContent = 'Sage Dashboard could not reach its server. Please reload the page.';
}

/**
 * Loads the app and the current screen side by side rather than one after the other, then starts
 * the app. The app runs in steps (React, MUI's styles, the rest), each a task of its own.
 */
const run = (boot: BootData, onStarted: () => void) => {
  const screen = screenChunkFor(pageFor(window.location.pathname).path)();
  const app = inSteps([() => import('react-dom/client'), () => import('./ui/theme')], () => import('./start/startApp'));
  return Promise.all([app, screen]).then(([{ startApp }]) => startApp(container, boot, onStarted));
};

const boot = readBootData(container);
if (!boot) {
  fetchRuntimeConfig()
    .then((config) => run({ config }, () => {}))
    .catch(failed);
} else if (!container.firstElementChild) {
  run(boot, () => {}).catch(failed);
} else {
  // A pre-rendered page: clicks and submits before the app runs it are held and replayed.
  // A link to a page the server sends as the app's shell (the console's pages but the Home) waits
  // for the app, which is on its way: a page load would only start the app over.
  const early = holdEarlyInput(container, (url) => !prerendersAt(pageFor(url.pathname), url.pathname));
  const policy = startPolicy(pageFor(window.location.pathname), boot, new URLSearchParams(window.location.search));
  let starting = false;
  const start = () => {
    if (starting) return;
    starting = true;
    run(boot, early.release).catch(() => {
      // A dropped connection or a release in between: the next interaction tries again.
      starting = false;
      early.followHeldLink();
      early.onFirstIntent(start);
    });
  };
  if (policy === 'now') {
    // After the first frame: the rendered page is painted before the app's work begins.
    requestAnimationFrame(() => setTimeout(start, 0));
  } else {
    early.onFirstIntent(start);
  }
}
