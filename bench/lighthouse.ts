// Shared by `npm run bench:web`: one Lighthouse run of one page in a fresh Chromium (Debian's, no
// browser download), mobile or desktop preset with simulated throttling, and the figures kept of it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/localProduct';

/** chrome-launcher adds its own defaults (no extensions, no default apps, …) to these. */
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/**
 * Lighthouse's two presets: mobile (a mid-range phone on slow 4G, 4× CPU slowdown: its default) and
 * desktop (a desktop screen on a fast connection, no CPU slowdown: its `--preset=desktop`).
 */
export const FORM_FACTORS = ['mobile', 'desktop'] as const;
export type FormFactor = (typeof FORM_FACTORS)[number];

/** A run that did not finish within this is abandoned (its Chromium is killed). */
const RUN_TIMEOUT_MS = 180_000;

export interface Figures {
  /** Category scores, 0–100 (null when Lighthouse could not score the category). */
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  /** Milliseconds (simulated throttling of the run's preset). */
  fcp: number | null;
  lcp: number | null;
  tbt: number | null;
  speedIndex: number | null;
  cls: number | null;
  /** Network requests of resourceType Script: how many, bytes decoded and bytes on the wire. */
  jsFiles: number;
  jsBytes: number;
  jsTransferBytes: number;
  /** The HTML of the largest contentful paint's element, shortened (shows what the page painted). */
  lcpElement: string | null;
  /** The page Lighthouse ended on (a redirect to /login would show here). */
  finalUrl: string;
  /** Lighthouse's warnings about the run, if any (the figures may then not be trusted). */
  problems: string[];
}

/** Told when a run's Chromium starts and ends: its process group and profile directory, for the caller's cleanup. */
export interface ChromeTracker {
  /** Called with the profile directory before Chromium starts, and again with its pid once it runs. */
  started(userDataDir: string, pid?: number): void;
  ended(userDataDir: string, pid?: number): void;
}

export interface RunResult {
  figures?: Figures;
  error?: string;
  ms: number;
}

/** The version line of Debian's Chromium (its wrapper script may print noise on stderr). */
export function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 }).trim();
  } catch (err) {
    return `unknown (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** Chromes still running, with their profile directories (both go on exit, also on errors and signals). */
const running = new Map<LaunchedChrome, string>();

function killChrome(chrome: LaunchedChrome) {
  const userDataDir = running.get(chrome);
  running.delete(chrome);
  try {
    chrome.kill();
  } catch {
    // Already gone.
  }
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5 });
}

/** Set once the bench is stopping: no new Chromium starts, and one that was starting is killed. */
let stopped = false;

/** Kills every Chromium of a run and refuses new runs from now on. */
export function killAllChromes() {
  stopped = true;
  for (const chrome of [...running.keys()]) killChrome(chrome);
}

const score = (value: number | null | undefined) => (typeof value === 'number' ? Math.round(value * 100) : null);

interface NetworkItem {
  resourceType?: unknown;
  resourceSize?: unknown;
  transferSize?: unknown;
}

function networkItems(details: unknown): NetworkItem[] {
  if (typeof details !== 'object' || details === null || !('items' in details) || !Array.isArray(details.items)) return [];
  return details.items as NetworkItem[];
}

/** The snippet of the first node in an audit's details (a node item, or in a table, possibly inside a list). */
function firstSnippet(details: unknown): string | null {
  if (typeof details !== 'object' || details === null) return null;
  if ('type' in details && details.type === 'node' && 'snippet' in details && typeof details.snippet === 'string') return details.snippet;
  if ('node' in details && typeof details.node === 'object' && details.node !== null && 'snippet' in details.node) {
    return typeof details.node.snippet === 'string' ? details.node.snippet : null;
  }
  if ('items' in details && Array.isArray(details.items)) {
    for (const item of details.items as unknown[]) {
      const found = firstSnippet(item);
      if (found) return found;
    }
  }
  return null;
}

const bytes = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Runs Lighthouse once on `url` in a new Chromium with a fresh profile (so a cold HTTP cache;
 * Lighthouse's own storage reset stays on too). `headers` go with every request (the session cookie).
 */
export async function runLighthouse(
  url: string,
  headers: Record<string, string> = {},
  tracker?: ChromeTracker,
  formFactor: FormFactor = 'mobile',
): Promise<RunResult> {
  const started = performance.now();
  if (stopped) return { error: 'stopped', ms: 0 };
  // A profile of our own (chrome-launcher would make one too, but then only it knows where).
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-bench-web-chromium-'));
  tracker?.started(userDataDir);
  let chrome: LaunchedChrome;
  try {
    chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS, userDataDir, logLevel: 'silent', handleSIGINT: false });
  } catch (err) {
    fs.rmSync(userDataDir, { recursive: true, force: true });
    tracker?.ended(userDataDir);
    return { error: `Chromium did not start: ${err instanceof Error ? err.message : String(err)}`, ms: performance.now() - started };
  }
  running.set(chrome, userDataDir);
  tracker?.started(userDataDir, chrome.pid);
  if (stopped) {
    // The bench began stopping while this Chromium was starting.
    killChrome(chrome);
    tracker?.ended(userDataDir, chrome.pid);
    return { error: 'stopped', ms: performance.now() - started };
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        killChrome(chrome);
        reject(new Error(`Lighthouse did not finish within ${RUN_TIMEOUT_MS / 1000} s`));
      }, RUN_TIMEOUT_MS);
    });
    const result = await Promise.race([
      lighthouse(
        url,
        {
          port: chrome.port,
          logLevel: 'error',
          output: 'json',
          onlyCategories: [...CATEGORIES],
          extraHeaders: headers,
          // The defaults, spelled out: simulated throttling, storage reset.
          throttlingMethod: 'simulate',
          disableStorageReset: false,
        },
        formFactor === 'desktop' ? desktopConfig : undefined,
      ),
      timeout,
    ]);
    const lhr = result?.lhr;
    if (!lhr) return { error: 'Lighthouse returned no result', ms: performance.now() - started };
    // The page did not load (an error status, no paint, …): the figures would be meaningless.
    if (lhr.runtimeError) return { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`, ms: performance.now() - started };
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? null;
    const scripts = networkItems(lhr.audits['network-requests']?.details).filter((item) => item.resourceType === 'Script');
    return {
      figures: {
        performance: score(lhr.categories.performance?.score),
        accessibility: score(lhr.categories.accessibility?.score),
        bestPractices: score(lhr.categories['best-practices']?.score),
        seo: score(lhr.categories.seo?.score),
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        speedIndex: audit('speed-index'),
        cls: audit('cumulative-layout-shift'),
        jsFiles: scripts.length,
        jsBytes: scripts.reduce((sum, item) => sum + bytes(item.resourceSize), 0),
        jsTransferBytes: scripts.reduce((sum, item) => sum + bytes(item.transferSize), 0),
        // Lighthouse 13 names it in the LCP breakdown insight; older ones in largest-contentful-paint-element.
        lcpElement:
          firstSnippet(lhr.audits['lcp-breakdown-insight']?.details) ??
          firstSnippet(lhr.audits['largest-contentful-paint-element']?.details),
        finalUrl: lhr.finalDisplayedUrl,
        problems: lhr.runWarnings,
      },
      ms: performance.now() - started,
    };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err), ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
    killChrome(chrome);
    tracker?.ended(userDataDir, chrome.pid);
  }
}

/** The median run by performance score (the lower middle one for an even count); failed runs are left out. */
export function medianRun(runs: RunResult[]): Figures | undefined {
  const scored = runs.flatMap((r) => (r.figures ? [r.figures] : []));
  scored.sort((a, b) => (a.performance ?? -1) - (b.performance ?? -1));
  return scored[Math.floor((scored.length - 1) / 2)];
}
