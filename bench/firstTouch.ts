// Shared by `npm run bench:web` when it measures the console's Home (decisions 032 and 033): the
// console starts when the admin approaches the Home, which then waits for it. Measures, in each
// build, on a phone how long an admin's tap on Open menu takes to open the menu, at Lighthouse's
// mobile CPU slowdown (4×), and on a laptop how long from the mouse moving over the page to the
// first chart drawn (the console running), at the desktop preset's 1×; each as soon as the page
// shows and once it has loaded and rested.
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/localProduct';
import type { ScreenshotTarget } from './screenshots';

const RESTED_MS = 5000;
const REACH_TIMEOUT_MS = 30_000;

export type Device = 'phone' | 'laptop';
export type TapMoment = 'at sight' | 'after rest';
export const TAP_MOMENTS: TapMoment[] = ['at sight', 'after rest'];

interface DeviceSpec {
  context: BrowserContextOptions;
  cpuSlowdown: number;
  /** What the admin sees first and reaches for. */
  shown(page: Page): Promise<void>;
  reach(page: Page): Promise<void>;
  /** What the admin waits for. */
  answered(page: Page): Promise<void>;
  /** The table's caption in the report. */
  caption: string;
}

const openMenu = (page: Page) => page.getByRole('button', { name: 'Open menu' });

export const DEVICES: Record<Device, DeviceSpec> = {
  // Lighthouse's mobile preset: a Moto G Power's screen and user agent, 4× slower CPU.
  phone: {
    context: {
      viewport: { width: 412, height: 823 },
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    },
    cpuSlowdown: 4,
    shown: (page) => openMenu(page).waitFor(),
    reach: (page) => openMenu(page).tap({ noWaitAfter: true }),
    answered: (page) => page.getByRole('menuitem', { name: 'Audit Log' }).waitFor({ timeout: REACH_TIMEOUT_MS }),
    caption: 'on a phone: from a tap on Open menu to the open menu, Chromium at 4× CPU, 412 × 823 touch screen',
  },
  // Lighthouse's desktop preset: 1350 × 940, the machine's own CPU.
  laptop: {
    context: { viewport: { width: 1350, height: 940 } },
    cpuSlowdown: 1,
    shown: (page) => page.getByRole('heading', { level: 1, name: 'Home' }).waitFor(),
    reach: (page) => page.mouse.move(675, 470),
    answered: (page) => page.getByRole('figure').first().locator('svg rect').first().waitFor({ timeout: REACH_TIMEOUT_MS }),
    caption: 'on a laptop: from the mouse moving over the page to the first chart drawn, Chromium at 1× CPU, 1350 × 940',
  },
};

export interface FirstTouch {
  label: string;
  device: Device;
  moment: TapMoment;
  /** Each run's time from the admin reaching for the page to its answer, in ms. */
  runs: number[];
  median: number | null;
}

async function reachOnce(browser: Browser, target: ScreenshotTarget, device: Device, moment: TapMoment): Promise<number> {
  const spec = DEVICES[device];
  const context = await browser.newContext(spec.context);
  try {
    const [name, value] = target.cookie.split(';')[0]!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: target.url }]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: spec.cpuSlowdown });
    await page.goto(`${target.url}/admin`, { waitUntil: 'domcontentloaded' });
    await spec.shown(page);
    if (moment === 'after rest') {
      await page.waitForLoadState('load');
      await page.waitForTimeout(RESTED_MS);
    }
    const started = Date.now();
    await spec.reach(page);
    await spec.answered(page);
    return Date.now() - started;
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** `runs` rounds, the builds in turns within each round (the machine is shared and noisy). */
export async function measureFirstTouch(targets: ScreenshotTarget[], runs: number, log: (line: string) => void): Promise<FirstTouch[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', ...CHROMIUM_FLAGS] });
  try {
    const devices = Object.keys(DEVICES) as Device[];
    const results: FirstTouch[] = targets.flatMap((t) =>
      devices.flatMap((device) => TAP_MOMENTS.map((moment) => ({ label: t.label, device, moment, runs: [] as number[], median: null }))),
    );
    for (let run = 1; run <= runs; run += 1) {
      for (const device of devices) {
        for (const moment of TAP_MOMENTS) {
          for (const target of targets) {
            const ms = await reachOnce(browser, target, device, moment);
            results.find((r) => r.label === target.label && r.device === device && r.moment === moment)!.runs.push(ms);
            log(`first touch ${run}/${runs} ${target.label}, ${device}, ${moment}: ${ms} ms`);
          }
        }
      }
    }
    return results.map((r) => ({ ...r, median: median(r.runs) }));
  } finally {
    await browser.close();
  }
}
