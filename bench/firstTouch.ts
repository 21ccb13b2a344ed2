// Shared by `npm run bench:web` when it measures the console's Home (issue 37): what staff wait for
// on it, in each build, on a laptop (1280 × 800, 1× CPU, no touch) and a phone (375 × 812 touch
// screen, a phone's user agent, 4× CPU). Three scenarios, each in a fresh context signed in as the
// admin: the charts drawn with no input at all (from navigation start, at most 10 s: a build that
// draws them only once the admin reaches for the page shows none); User List reached 5 s after the
// page loaded; User List reached at once after the load event (issue 37's "at once"); and User List
// reached as soon as the Home's heading shows, before the page has loaded. On the phone the menu is
// behind Open menu: its tap is timed on its own (menu open). Nothing moves the mouse before the
// click on User List, which is the staff's own input. The moment a thing shows is taken in the page,
// in the frame that first has it.
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/localProduct';
import type { ScreenshotTarget } from './screenshots';

/** How long the Home rests after its load event before staff reach for User List. */
export const AT_REST_MS = 5000;
/** How long the charts have to show with no input. */
export const CHARTS_LIMIT_MS = 10_000;
const REACH_TIMEOUT_MS = 30_000;

export type Device = 'laptop' | 'phone';
export type Scenario = 'no input' | 'after rest' | 'at once' | 'at sight';
/** What a figure times: the charts from navigation start, the others from the staff's click or tap. */
export type Measure = 'charts drawn' | 'menu open' | 'list shown' | 'list shown from the call';

interface DeviceSpec {
  context: BrowserContextOptions;
  cpuSlowdown: number;
  /** The table's caption in the report. */
  caption: string;
}

export const DEVICES: Record<Device, DeviceSpec> = {
  laptop: {
    context: { viewport: { width: 1280, height: 800 } },
    cpuSlowdown: 1,
    caption: 'on a laptop: Chromium at 1× CPU, 1280 × 800, no touch',
  },
  // Lighthouse's mobile user agent and CPU slowdown, on an iPhone X's screen.
  phone: {
    context: {
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    },
    cpuSlowdown: 4,
    caption: "on a phone: Chromium at 4× CPU, 375 × 812 touch screen, a phone's user agent",
  },
};

export const SCENARIOS: Scenario[] = ['no input', 'after rest', 'at once', 'at sight'];

/** The figures a scenario gives on a device, in the report's order, with their row titles. */
export function measuresOf(device: Device, scenario: Scenario): { measure: Measure; title: string }[] {
  if (scenario === 'no input')
    return [{ measure: 'charts drawn', title: `charts drawn with no input, from navigation start (at most ${CHARTS_LIMIT_MS / 1000} s)` }];
  const when = {
    'after rest': '5 s after the page loaded',
    'at once': 'at once after the page loaded',
    'at sight': 'as soon as Home shows',
  }[scenario];
  const reach = device === 'phone' ? 'tap' : 'click';
  return [
    ...(device === 'phone' ? [{ measure: 'menu open' as const, title: `${when}: tap Open menu → menu open` }] : []),
    { measure: 'list shown', title: `${when}: ${reach} User List → list shown` },
    { measure: 'list shown from the call', title: `${when}: the same from the script's call (with Playwright's checks before it presses)` },
  ];
}

/** What the staff wait to see: a selector's element, visible and with the text, under the h1 `heading`. */
interface Sought {
  selector: string;
  text?: string;
  heading?: string;
}

/** A bar of a chart: the current console's marks, or MUI X Charts' bars in older builds. */
const CHART_MARK: Sought = { selector: 'figure [data-chart-mark], figure svg rect' };
const USER_LIST_ITEM: Sought = { selector: '[role="menuitem"]', text: 'User List' };
/**
 * A user of the list: a table row on a laptop, an item of the simple list on a phone, with the
 * user's e-mail address (the loading placeholders have none), under the list's own heading (the
 * Home's top users are rows with addresses too).
 */
const USERS_LIST: Sought = { selector: 'main tbody tr, main li', text: '@', heading: 'User List' };

/**
 * Whether the sought element shows, as Playwright's `visible` has it (a box, not hidden). Source
 * text rather than a function: tsx would wrap a function's inner names in a helper that the page
 * does not have.
 */
const SHOWN_IN_PAGE = `(sought) => {
  const seen = (el) => {
    if (!el.checkVisibility({ visibilityProperty: true })) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const has = (selector, text) =>
    Array.from(document.querySelectorAll(selector)).some((el) => (text === undefined || (el.textContent || '').includes(text)) && seen(el));
  return (sought.heading === undefined || has('h1', sought.heading)) && has(sought.selector, sought.text);
}`;

/**
 * From the document's start, each frame until one has a chart mark or the limit has passed: the
 * page's time of it from navigation start, or null.
 */
const RECORD_CHARTS = `(() => {
  if (window !== window.top) return;
  const shown = ${SHOWN_IN_PAGE};
  const tick = () => {
    if (shown(${JSON.stringify(CHART_MARK)})) {
      const at = performance.now();
      window.__sageBenchChartsAt = at <= ${CHARTS_LIMIT_MS} ? at : null;
    } else if (performance.now() > ${CHARTS_LIMIT_MS}) window.__sageBenchChartsAt = null;
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/**
 * Notes when the staff's press reaches the page: the input event's own time (as the browser's
 * responsiveness metric, INP, takes it), before the page's handlers run. Kept in the tab's session
 * storage: a build whose link loads a new page still has it there.
 */
const NOTE_PRESS = `(() => {
  sessionStorage.removeItem('sageBenchPressAt');
  addEventListener('pointerdown', (event) => sessionStorage.setItem('sageBenchPressAt', String(performance.timeOrigin + event.timeStamp)), { capture: true, once: true });
})()`;

/**
 * ms from the staff's press (`act`) to the frame that shows `sought`: from the input event's own
 * time, and from the script's call (which adds Playwright's checks before it presses: scrolling
 * into view, two frames to see the element stand still, a hit test), on the machine's clock in all.
 */
async function timed(page: Page, sought: Sought, act: () => Promise<void>): Promise<{ fromPress: number; fromCall: number }> {
  await page.evaluate(NOTE_PRESS);
  const shown = page.waitForFunction(
    `(${SHOWN_IN_PAGE})(${JSON.stringify(sought)}) && { at: performance.timeOrigin + performance.now(), pressAt: Number(sessionStorage.getItem('sageBenchPressAt')) || undefined }`,
    undefined,
    { polling: 'raf', timeout: REACH_TIMEOUT_MS },
  );
  // Awaited below; if `act` fails first, its error is the one reported.
  shown.catch(() => undefined);
  const started = Date.now();
  await act();
  const { at, pressAt } = (await (await shown).jsonValue()) as { at: number; pressAt: number | undefined };
  if (at < started || pressAt === undefined) throw new Error(`${JSON.stringify(sought)} showed before the input`);
  return { fromPress: at - pressAt, fromCall: at - started };
}

async function openHome(browser: Browser, target: ScreenshotTarget, device: Device, scenario: Scenario) {
  const spec = DEVICES[device];
  // Playwright's in-page waits evaluate their test as text, which the product's CSP forbids (no
  // 'unsafe-eval'); lifting it changes none of the page's own work.
  const context = await browser.newContext({ ...spec.context, bypassCSP: true });
  const [name, value] = target.cookie.split(';')[0]!.split('=') as [string, string];
  await context.addCookies([{ name, value, url: target.url }]);
  // Only where it is measured: its frame-by-frame look is not in the other scenarios' way.
  if (scenario === 'no input') await context.addInitScript(RECORD_CHARTS);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: spec.cpuSlowdown });
  await page.goto(`${target.url}/admin`, { waitUntil: 'commit' });
  return { context, page };
}

/** One scenario in one build on one device: its figures in ms (null: the charts did not show in time). */
async function runOnce(
  browser: Browser,
  target: ScreenshotTarget,
  device: Device,
  scenario: Scenario,
): Promise<Partial<Record<Measure, number | null>>> {
  const { context, page } = await openHome(browser, target, device, scenario);
  try {
    if (scenario === 'no input') {
      const recorded = await page.waitForFunction(
        'window.__sageBenchChartsAt !== undefined && { at: window.__sageBenchChartsAt }',
        undefined,
        {
          timeout: CHARTS_LIMIT_MS + REACH_TIMEOUT_MS,
        },
      );
      const { at } = (await recorded.jsonValue()) as { at: number | null };
      return { 'charts drawn': at };
    }
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: REACH_TIMEOUT_MS });
    if (scenario !== 'at sight') await page.waitForLoadState('load', { timeout: REACH_TIMEOUT_MS });
    if (scenario === 'after rest') await page.waitForTimeout(AT_REST_MS);
    const userList = page.getByRole('menuitem', { name: 'User List' });
    if (device === 'laptop') {
      const listShown = await timed(page, USERS_LIST, () => userList.click({ noWaitAfter: true, timeout: REACH_TIMEOUT_MS }));
      return { 'list shown': listShown.fromPress, 'list shown from the call': listShown.fromCall };
    }
    const openMenu = page.getByRole('button', { name: 'Open menu' });
    const menuOpen = await timed(page, USER_LIST_ITEM, () => openMenu.tap({ noWaitAfter: true, timeout: REACH_TIMEOUT_MS }));
    const listShown = await timed(page, USERS_LIST, () => userList.tap({ noWaitAfter: true, timeout: REACH_TIMEOUT_MS }));
    return { 'menu open': menuOpen.fromPress, 'list shown': listShown.fromPress, 'list shown from the call': listShown.fromCall };
  } finally {
    await context.close();
  }
}

export interface StaffTiming {
  label: string;
  device: Device;
  scenario: Scenario;
  measure: Measure;
  /** Each run's figure in ms; null when the charts did not show within the limit, or the run failed. */
  runs: (number | null)[];
  /** The middle run, a null counting as the longest. */
  median: number | null;
  /** Why runs failed. */
  errors: string[];
}

function median(values: (number | null)[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

/**
 * `runs` rounds; in each, every device and scenario with the builds in turns (the machine is shared
 * and noisy).
 */
export async function measureStaffOnHome(targets: ScreenshotTarget[], runs: number, log: (line: string) => void): Promise<StaffTiming[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', ...CHROMIUM_FLAGS] });
  try {
    const devices = Object.keys(DEVICES) as Device[];
    const results: StaffTiming[] = targets.flatMap((t) =>
      devices.flatMap((device) =>
        SCENARIOS.flatMap((scenario) =>
          measuresOf(device, scenario).map(({ measure }) => ({
            label: t.label,
            device,
            scenario,
            measure,
            runs: [] as (number | null)[],
            median: null,
            errors: [] as string[],
          })),
        ),
      ),
    );
    for (let run = 1; run <= runs; run += 1) {
      for (const device of devices) {
        for (const scenario of SCENARIOS) {
          for (const target of targets) {
            let figures: Partial<Record<Measure, number | null>> = {};
            let error: string | undefined;
            try {
              figures = await runOnce(browser, target, device, scenario);
            } catch (err) {
              error = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
            }
            for (const row of results.filter((r) => r.label === target.label && r.device === device && r.scenario === scenario)) {
              row.runs.push(figures[row.measure] ?? null);
              if (error) row.errors.push(`run ${run}: ${error}`);
            }
            const said = Object.entries(figures).map(([measure, ms]) => `${measure} ${ms === null ? 'none' : `${Math.round(ms)} ms`}`);
            log(`staff ${run}/${runs} ${target.label}, ${device}, ${scenario}: ${error ? `failed: ${error}` : said.join(', ')}`);
          }
        }
      }
    }
    return results.map((r) => ({ ...r, median: median(r.runs) }));
  } finally {
    await browser.close();
  }
}
