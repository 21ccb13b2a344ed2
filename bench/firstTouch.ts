// Shared by `npm run bench:web` when it measures the console's Home (decision 032): on a phone the
// console starts at the admin's first touch, which then waits for it. Measures, in each build, how
// long an admin's tap on Open menu takes to open the menu, at Lighthouse's mobile CPU slowdown (4×),
// tapped as soon as the button shows and tapped once the page has loaded and rested.
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/localProduct';
import type { ScreenshotTarget } from './screenshots';

/** Lighthouse's mobile preset: a Moto G Power's screen and user agent, 4× slower CPU. */
const PHONE = {
  viewport: { width: 412, height: 823 },
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
};
const CPU_SLOWDOWN = 4;
const RESTED_MS = 5000;
const TAP_TIMEOUT_MS = 30_000;

export type TapMoment = 'at sight' | 'after rest';
export const TAP_MOMENTS: TapMoment[] = ['at sight', 'after rest'];

export interface FirstTouch {
  label: string;
  moment: TapMoment;
  /** Each run's time from the tap to the open menu, in ms. */
  runs: number[];
  median: number | null;
}

async function tapOnce(browser: Browser, target: ScreenshotTarget, moment: TapMoment): Promise<number> {
  const context = await browser.newContext(PHONE);
  try {
    const [name, value] = target.cookie.split(';')[0]!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: target.url }]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(`${target.url}/admin`, { waitUntil: 'domcontentloaded' });
    const button = page.getByRole('button', { name: 'Open menu' });
    await button.waitFor();
    if (moment === 'after rest') {
      await page.waitForLoadState('load');
      await page.waitForTimeout(RESTED_MS);
    }
    const started = Date.now();
    await button.tap({ noWaitAfter: true });
    await page.getByRole('menuitem', { name: 'Audit Log' }).waitFor({ timeout: TAP_TIMEOUT_MS });
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
    const results = targets.flatMap((t) => TAP_MOMENTS.map((moment) => ({ label: t.label, moment, runs: [] as number[] })));
    for (let run = 1; run <= runs; run += 1) {
      for (const moment of TAP_MOMENTS) {
        for (const target of targets) {
          const ms = await tapOnce(browser, target, moment);
          results.find((r) => r.label === target.label && r.moment === moment)!.runs.push(ms);
          log(`first touch ${run}/${runs} ${target.label}, tapped ${moment}: ${ms} ms`);
        }
      }
    }
    return results.map((r) => ({ ...r, median: median(r.runs) }));
  } finally {
    await browser.close();
  }
}
