// `npm run bench:web`: Lighthouse figures of the browser app's main pages on a fresh build.
// Builds (`npm run build`), starts the product as `npm start` does (free port, fresh data directory,
// a Stripe-compatible test server with a catalogue), signs a user in through the API, and runs
// Lighthouse (mobile and/or desktop preset, simulated throttling, Debian's Chromium) BENCH_RUNS
// times per page, each in a fresh browser; prints the median run by performance score as a markdown
// table and writes the full figures as JSON. For the admin console's Home (/admin) the data
// directory also gets the demo data (`seed-demo`) and an admin (`create-admin`), who signs in
// through the API. With BENCH_BASELINE=<git ref> that ref is built in a temporary worktree, started
// on another port and measured in turns with this checkout (the machine is shared and noisy), and
// each page of both builds is screenshot at 1280 and 375 px and compared pixel by pixel. With
// /admin, what staff wait for on the Home is timed in each build on a laptop and a phone, BENCH_RUNS
// times, the builds in turns (bench/firstTouch.ts, issue 37): the charts drawn with no input, and
// User List reached 5 s after the page loaded and as soon as it shows.
//
//   BENCH_RUNS=3                        runs per page and build
//   BENCH_PAGES=/login,/dashboard       a subset of the pages
//   BENCH_FORM_FACTORS=mobile,desktop   Lighthouse's presets to run (default mobile)
//   BENCH_BASELINE=HEAD~3               compare with that commit
//   BENCH_WEB_OUT=data/bench-web.json   where the JSON goes
//
// Bounded: every step has a time limit, and servers, Chromium and the worktree go away on exit,
// also on errors and Ctrl-C.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStripeServer, type StripeFixture } from '../tests/fixtures/stripeServer';
import { CHROMIUM_PATH, exited, freePort, killGroup, productEnv, waitForExit, waitUntilHealthy } from '../scripts/localProduct';
import {
  chromiumVersion,
  FORM_FACTORS,
  killAllChromes,
  medianRun,
  runLighthouse,
  type ChromeTracker,
  type Figures,
  type FormFactor,
  type RunResult,
} from './lighthouse';
import {
  AT_REST_MS,
  CHARTS_LIMIT_MS,
  DEVICES,
  measuresOf,
  measureStaffOnHome,
  SCENARIOS,
  type Device,
  type StaffTiming,
} from './firstTouch';
import { compareScreenshots, type ScreenshotComparison } from './screenshots';

const ROOT = path.resolve(import.meta.dirname, '..');

interface PageSpec {
  path: string;
  /** Who opens it: a visitor, the signed-up user or the admin. */
  signedIn: false | 'user' | 'admin';
}

const ALL_PAGES: PageSpec[] = [
  { path: '/download', signedIn: false },
  { path: '/login', signedIn: false },
  { path: '/dashboard', signedIn: 'user' },
  { path: '/products-checkout', signedIn: 'user' },
  { path: '/admin', signedIn: 'admin' },
];

/** The console's Home shows the business: the demo data's users, sign-ups, subscriptions and messages. */
const DEMO_USERS = 1000;
const DEMO_MESSAGES = 5000;
const ADMIN = { email: 'bench-web-admin@example.com', password: 'bench-web-admin-password' };

const BUILD_TIMEOUT_MS = 10 * 60_000;
const START_TIMEOUT_MS = 3 * 60_000;
const CLI_TIMEOUT_MS = 2 * 60_000;

function settings() {
  const runs = Number(process.env.BENCH_RUNS ?? '3');
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error('BENCH_RUNS must be a whole number from 1 to 20');
  const wanted = (process.env.BENCH_PAGES ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => (p.startsWith('/') ? p : `/${p}`));
  const unknown = wanted.filter((p) => !ALL_PAGES.some((page) => page.path === p));
  if (unknown.length)
    throw new Error(`BENCH_PAGES: unknown page ${unknown.join(', ')} (known: ${ALL_PAGES.map((p) => p.path).join(', ')})`);
  const pages = wanted.length ? ALL_PAGES.filter((p) => wanted.includes(p.path)) : ALL_PAGES;
  const formFactors = [
    ...new Set(
      (process.env.BENCH_FORM_FACTORS ?? 'mobile')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    ),
  ];
  const unknownFactor = formFactors.find((f) => !(FORM_FACTORS as readonly string[]).includes(f));
  if (unknownFactor !== undefined || !formFactors.length)
    throw new Error(`BENCH_FORM_FACTORS: ${unknownFactor ?? 'none'} (known: ${FORM_FACTORS.join(', ')})`);
  const baseline = process.env.BENCH_BASELINE?.trim() || undefined;
  const out = path.resolve(ROOT, process.env.BENCH_WEB_OUT?.trim() || path.join('data', 'bench-web.json'));
  return { runs, pages, formFactors: formFactors as FormFactor[], baseline, out };
}

const log = (line: string) => process.stderr.write(`[bench:web] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Cleanup: everything started registers how to stop it; run on exit, on errors and on signals.
// tsx's parent process SIGKILLs this one when a Ctrl-C finds its event loop busy (Lighthouse
// computing), so a small reaper process also knows what to remove and does it if this one dies.

const cleanups: (() => Promise<void> | void)[] = [];

/** What is running or on disk now: the reaper reads it from STATE_FILE. */
const tracked = {
  /** Process groups (servers, builds, Chromium): SIGKILLed synchronously if this process exits. */
  groups: new Set<number>(),
  paths: new Set<string>(),
  worktree: undefined as { dir: string; modules: string } | undefined,
};
const STATE_FILE = path.join(os.tmpdir(), `sage-bench-web-${process.pid}.json`);

function saveState() {
  fs.writeFileSync(
    STATE_FILE,
    JSON.stringify({ groups: [...tracked.groups], paths: [...tracked.paths], worktree: tracked.worktree ?? null }),
  );
}
function track(change: () => void) {
  change();
  saveState();
}

/**
 * Polls this process; once it is gone (or after `lifetimeMs`), kills the tracked process groups and
 * removes the worktree and the temporary directories named in STATE_FILE. After a clean exit the
 * file is gone and it has nothing to do.
 */
const REAPER = `
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const [parent, stateFile, root, lifetimeMs] = process.argv.slice(1);
const until = Date.now() + Number(lifetimeMs);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (err) { return err.code === 'EPERM'; } };
const quietly = (f) => { try { f(); } catch {} };
setInterval(() => {
  if (alive(Number(parent)) && Date.now() < until) return;
  let state = null;
  quietly(() => { state = JSON.parse(fs.readFileSync(stateFile, 'utf8')); });
  if (state) {
    for (const pid of state.groups) quietly(() => process.kill(-pid, 'SIGKILL'));
    if (state.worktree) {
      quietly(() => { if (fs.lstatSync(state.worktree.modules, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(state.worktree.modules); });
      quietly(() => execFileSync('git', ['worktree', 'remove', '--force', state.worktree.dir], { cwd: root, stdio: 'ignore', timeout: 60000 }));
      quietly(() => execFileSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore', timeout: 60000 }));
    }
    // A Chromium still starting when the bench died is known only by the pid file in its profile.
    for (const p of state.paths) quietly(() => process.kill(-Number(fs.readFileSync(p + '/chrome.pid', 'utf8')), 'SIGKILL'));
    for (const p of state.paths) quietly(() => fs.rmSync(p, { recursive: true, force: true }));
    quietly(() => fs.rmSync(stateFile, { force: true }));
  }
  process.exit(0);
}, 500);
`;

function startReaper(lifetimeMs: number) {
  saveState();
  const reaper = spawn(process.execPath, ['-e', REAPER, String(process.pid), STATE_FILE, ROOT, String(lifetimeMs)], {
    detached: true,
    stdio: 'ignore',
  });
  reaper.unref();
}

let cleaningUp: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaningUp ??= (async () => {
    // From here on no Lighthouse run starts (the one under way fails as its Chromium is killed).
    killAllChromes();
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step();
      } catch (err) {
        log(`cleanup: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  })();
  return cleaningUp;
}

/** SIGTERM to the group, SIGKILL after 5 s; the group gets a SIGKILL in any case for stragglers. */
async function stopGroup(child: ChildProcess) {
  if (!exited(child)) {
    killGroup(child.pid, 'SIGTERM');
    if (!(await waitForExit(child, 5000))) {
      killGroup(child.pid, 'SIGKILL');
      await waitForExit(child, 5000);
    }
  }
  killGroup(child.pid, 'SIGKILL');
  if (child.pid !== undefined) track(() => tracked.groups.delete(child.pid as number));
}

/** Chromium's process group and profile, while a Lighthouse run has them. */
const chromeTracker: ChromeTracker = {
  started: (dir, pid) =>
    track(() => {
      tracked.paths.add(dir);
      if (pid !== undefined) tracked.groups.add(pid);
    }),
  ended: (dir, pid) =>
    track(() => {
      tracked.paths.delete(dir);
      if (pid !== undefined) tracked.groups.delete(pid);
    }),
};

process.on('exit', () => {
  killAllChromes();
  for (const pid of tracked.groups) killGroup(pid, 'SIGKILL');
  // Anything still tracked (a Chromium that was starting) is left to the reaper.
  if (!tracked.groups.size && !tracked.paths.size && !tracked.worktree) fs.rmSync(STATE_FILE, { force: true });
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Commands, builds and the product.

/** Runs a command in its own process group; its output goes to stderr (and into the error on failure). */
function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number; quiet?: boolean },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const pid = child.pid;
    if (pid !== undefined) track(() => tracked.groups.add(pid));
    const done = () => {
      killGroup(pid, 'SIGKILL');
      if (pid !== undefined) track(() => tracked.groups.delete(pid));
    };
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.quiet) process.stderr.write(chunk);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const timer = setTimeout(() => {
      done();
      reject(
        new Error(`\`${command} ${args.join(' ')}\` in ${options.cwd} did not finish within ${options.timeoutMs / 1000} s:\n${output}`),
      );
    }, options.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      done();
      reject(err);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      done();
      if (code === 0) resolve(output);
      else
        reject(
          new Error(`\`${command} ${args.join(' ')}\` in ${options.cwd} failed (${signal ?? `exit code ${String(code)}`}):\n${output}`),
        );
    });
  });
}

function git(args: string[], cwd = ROOT): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }).trim();
}

interface Target {
  label: 'current' | 'baseline';
  /** The checkout it is built and started in. */
  dir: string;
  /** What was asked for, and the commit it is. */
  ref: string;
  commit: string;
  url: string;
  /** The signed-in user's session cookie. */
  cookie: string;
  /** The admin's session cookie, when an admin page is measured. */
  adminCookie?: string;
  /** Products and packs the product's billing mirror holds. */
  products: number;
}

/** The session cookie a sign-up or sign-in answered with, as a Cookie header. */
function sessionCookie(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .filter(Boolean)
    .join('; ');
}

/** The cookie's holder is signed in, as an admin when `admin`. */
async function checkSignedIn(label: string, url: string, cookie: string, admin: boolean) {
  const me = await fetch(`${url}/api/user`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });
  if (!me.ok) throw new Error(`${label}: the session cookie does not sign in (GET /api/user answered ${me.status})`);
  const user = (await me.json()) as { isAdmin?: unknown };
  if (admin && user.isAdmin !== true) throw new Error(`${label}: ${ADMIN.email} signed in but is not an admin`);
}

/** Builds the download page offers in the measured product: it shows the newest one's notes and the rest as Earlier builds (issue 41). */
const BENCH_RELEASES = ['2026-10-01', '2026-11-01', '2026-12-01'];
const BENCH_NOTES = [
  '## What changed',
  '',
  '- **Faster answers** in the chat panel, streamed as they are written.',
  '- `Ctrl+K` opens Sage from any editor window.',
  '- Blueprint explanations name the nodes they talk about.',
  '',
  'Read the [full notes](https://example.com/sage/notes) for every fix.',
].join('\n');

/**
 * Releases BENCH_RELEASES with notes through the CLI, so /download is measured as visitors see it
 * once builds have been released. A build whose CLI takes no notes (a baseline from before issue
 * 41) releases them without.
 */
async function releaseBuilds(label: string, dataDir: string, cli: (args: string[]) => Promise<string>): Promise<void> {
  const notesFile = path.join(dataDir, 'bench-notes.md');
  fs.writeFileSync(notesFile, BENCH_NOTES);
  for (const version of BENCH_RELEASES) {
    const urls = ['55', '56', '57'].flatMap((ue) => [`--ue${ue}`, `https://example.com/sage/${version}/ue${ue}.zip`]);
    try {
      await cli(['release', '--version', version, ...urls, '--notes-file', notesFile]);
    } catch {
      await cli(['release', '--version', version, ...urls]);
    }
  }
  log(`${label}: released ${BENCH_RELEASES.join(', ')}`);
}

/**
 * Fills the billing mirror (`npm run cli -- stripe-sync` against the data directory, before the
 * server opens it) and, with `admin`, the demo data and an admin; starts `npm start` in `dir` on a
 * free port, waits for GET /healthz, signs a user up through the API and the admin in.
 */
async function startTarget(
  label: Target['label'],
  dir: string,
  ref: string,
  commit: string,
  stripe: StripeFixture,
  admin: boolean,
): Promise<Target> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sage-bench-web-${label}-`));
  const url = `http://127.0.0.1:${port}`;
  const env = productEnv(port, dataDir, stripe.env, ['BENCH_']);
  track(() => tracked.paths.add(dataDir));
  cleanups.push(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    track(() => tracked.paths.delete(dataDir));
  });

  try {
    const synced = await runCommand('npm', ['run', '--silent', 'cli', '--', 'stripe-sync'], {
      cwd: dir,
      env,
      timeoutMs: CLI_TIMEOUT_MS,
      quiet: true,
    });
    log(`${label}: ${synced.trim().split('\n').pop() ?? ''}`);
  } catch (err) {
    log(
      `${label}: stripe-sync failed, /products-checkout is measured without products: ${err instanceof Error ? err.message : String(err)}`,
    );
  }

  const cli = (args: string[]) =>
    runCommand('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: dir, env, timeoutMs: CLI_TIMEOUT_MS, quiet: true });
  await releaseBuilds(label, dataDir, cli);

  if (admin) {
    const seeded = await cli(['seed-demo', '--users', String(DEMO_USERS), '--messages', String(DEMO_MESSAGES)]);
    log(`${label}: ${seeded.trim().split('\n').pop() ?? ''}`);
    await cli(['create-admin', '--email', ADMIN.email, '--password', ADMIN.password]);
  }

  log(`${label}: npm start on ${url}`);
  const child = spawn('npm', ['start'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const pid = child.pid;
  if (pid !== undefined) track(() => tracked.groups.add(pid));
  cleanups.push(() => stopGroup(child));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  await waitUntilHealthy(url, child, { timeoutMs: START_TIMEOUT_MS, label: `${label} product`, output: () => output, intervalMs: 250 });

  // The same user in every build (each has its own data directory), so screenshots compare equal.
  const registered = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench-web@example.com', password: 'bench-web-password' }),
    signal: AbortSignal.timeout(30_000),
  });
  if (registered.status !== 201) throw new Error(`${label}: POST /api/register answered ${registered.status}: ${await registered.text()}`);
  const cookie = sessionCookie(registered);
  await checkSignedIn(label, url, cookie, false);

  let adminCookie: string | undefined;
  if (admin) {
    const signedIn = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
      signal: AbortSignal.timeout(30_000),
    });
    if (!signedIn.ok) throw new Error(`${label}: POST /api/login as the admin answered ${signedIn.status}: ${await signedIn.text()}`);
    adminCookie = sessionCookie(signedIn);
    await checkSignedIn(label, url, adminCookie, true);
  }

  const catalogue = await fetch(`${url}/api/stripe/products`, { signal: AbortSignal.timeout(10_000) });
  const body: unknown = catalogue.ok ? await catalogue.json() : [];
  const products = Array.isArray(body) ? body.length : typeof body === 'object' && body !== null ? Object.keys(body).length : 0;
  return { label, dir, ref, commit, url, cookie, adminCookie, products };
}

/** The Cookie header the page is opened with, if any. */
function cookieFor(target: Target, page: PageSpec): string | undefined {
  if (page.signedIn === 'admin') return target.adminCookie;
  return page.signedIn === 'user' ? target.cookie : undefined;
}

/** One request of every page, so the first Lighthouse run does not meet a cold server. */
async function warmUp(target: Target, pages: PageSpec[]) {
  for (const page of pages) {
    const cookie = cookieFor(target, page);
    const res = await fetch(`${target.url}${page.path}`, {
      headers: cookie ? { cookie } : {},
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    if (!res.ok) log(`${target.label}: GET ${page.path} answered ${res.status}: Lighthouse will not be able to measure it`);
  }
}

/** Checks `ref` out in a temporary worktree sharing this checkout's node_modules, and builds it there. */
async function prepareBaseline(ref: string): Promise<{ dir: string; commit: string }> {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  } catch {
    throw new Error(`BENCH_BASELINE=${ref} is not a commit of this repository`);
  }
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-bench-web-baseline-'));
  const dir = path.join(parent, 'tree');
  const modules = path.join(dir, 'node_modules');
  track(() => {
    tracked.paths.add(parent);
    tracked.worktree = { dir, modules };
  });
  cleanups.push(() => {
    // The link first, so nothing can ever walk into this checkout's node_modules.
    if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(modules);
    try {
      if (fs.existsSync(dir)) git(['worktree', 'remove', '--force', dir]);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
      git(['worktree', 'prune']);
      track(() => {
        tracked.paths.delete(parent);
        tracked.worktree = undefined;
      });
    }
  });
  log(`baseline: git worktree add --detach ${dir} ${commit.slice(0, 12)} (${ref})`);
  git(['worktree', 'add', '--detach', dir, commit]);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), modules, 'dir');
  const lockHere = fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8');
  const lockThere = fs.existsSync(path.join(dir, 'package-lock.json')) ? fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8') : '';
  const lockDiffers = lockHere !== lockThere;
  if (lockDiffers) log(`baseline: its package-lock.json differs from this checkout's; using this checkout's node_modules anyway`);

  log('baseline: npm run build');
  try {
    await runCommand('npm', ['run', 'build'], { cwd: dir, timeoutMs: BUILD_TIMEOUT_MS });
  } catch (err) {
    throw new Error(
      `The baseline (${ref}, ${commit.slice(0, 12)}) did not build in its worktree${
        lockDiffers ? " (its package-lock.json differs from this checkout's, whose node_modules it borrows: that may be why)" : ''
      }.\n${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  return { dir, commit };
}

// ---------------------------------------------------------------------------------------------
// The table.

const KIB = 1024;
const dash = '–';
const fmtScore = (v: number | null | undefined) => (v === null || v === undefined ? dash : String(v));
const fmtSeconds = (v: number | null | undefined) => (v === null || v === undefined ? dash : `${(v / 1000).toFixed(2)} s`);
const fmtMs = (v: number | null | undefined) => (v === null || v === undefined ? dash : `${Math.round(v)} ms`);
const fmtCls = (v: number | null | undefined) => (v === null || v === undefined ? dash : v.toFixed(3));
const fmtKib = (v: number | null | undefined) => (v === null || v === undefined ? dash : `${(v / KIB).toFixed(1)} KiB`);
const fmtCount = (v: number | null | undefined) => (v === null || v === undefined ? dash : String(v));

const fmtShare = (row: ScreenshotComparison) =>
  row.differingShare === null ? 'sizes differ' : `${(row.differingShare * 100).toFixed(3)} %`;
const signed = (v: number, text: string) => (v > 0 ? `+${text}` : v < 0 ? `−${text.replace(/^-/, '')}` : text);
const ratio = (a: number, b: number) => (b === 0 ? '' : ` (${(a / b).toFixed(2)}×)`);

/** current − baseline, with the ratio current/baseline for times and bytes. */
function delta(
  kind: 'score' | 'seconds' | 'ms' | 'cls' | 'kib' | 'count',
  a: number | null | undefined,
  b: number | null | undefined,
): string {
  if (a === null || a === undefined || b === null || b === undefined) return dash;
  const d = a - b;
  switch (kind) {
    case 'score':
    case 'count':
      return signed(d, String(d));
    case 'seconds':
      return signed(d, `${(d / 1000).toFixed(2)} s`) + ratio(a, b);
    case 'ms':
      return signed(d, `${Math.round(d)} ms`) + ratio(a, b);
    case 'cls':
      return signed(d, d.toFixed(3));
    case 'kib':
      return signed(d, `${(d / KIB).toFixed(1)} KiB`) + ratio(a, b);
  }
}

const COLUMNS: { title: string; key: keyof Figures; kind: Parameters<typeof delta>[0]; fmt: (v: number | null | undefined) => string }[] = [
  { title: 'Perf', key: 'performance', kind: 'score', fmt: fmtScore },
  { title: 'A11y', key: 'accessibility', kind: 'score', fmt: fmtScore },
  { title: 'BP', key: 'bestPractices', kind: 'score', fmt: fmtScore },
  { title: 'SEO', key: 'seo', kind: 'score', fmt: fmtScore },
  { title: 'FCP', key: 'fcp', kind: 'seconds', fmt: fmtSeconds },
  { title: 'LCP', key: 'lcp', kind: 'seconds', fmt: fmtSeconds },
  { title: 'TBT', key: 'tbt', kind: 'ms', fmt: fmtMs },
  { title: 'CLS', key: 'cls', kind: 'cls', fmt: fmtCls },
  { title: 'SI', key: 'speedIndex', kind: 'seconds', fmt: fmtSeconds },
  { title: 'JS files', key: 'jsFiles', kind: 'count', fmt: fmtCount },
  { title: 'JS raw', key: 'jsBytes', kind: 'kib', fmt: fmtKib },
  { title: 'JS transferred', key: 'jsTransferBytes', kind: 'kib', fmt: fmtKib },
];

const num = (f: Figures | undefined, key: keyof Figures): number | null | undefined => {
  const v = f?.[key];
  return typeof v === 'number' ? v : null;
};

interface PageResult {
  page: PageSpec;
  formFactor: FormFactor;
  runs: Record<string, RunResult[]>;
  median: Record<string, Figures | undefined>;
}

/** One table per preset: its figures are not comparable with the other's. */
function table(results: PageResult[], labels: Target['label'][], runs: number): string {
  const factors = [...new Set(results.map((r) => r.formFactor))];
  return factors
    .map((factor) => {
      const rows = tableOf(
        results.filter((r) => r.formFactor === factor),
        labels,
        runs,
      );
      return factors.length > 1 ? `${factor === 'mobile' ? 'Mobile' : 'Desktop'} preset:\n\n${rows}` : rows;
    })
    .join('\n\n');
}

const who = (page: PageSpec) => (page.signedIn === 'admin' ? ' (admin)' : page.signedIn ? ' (signed in)' : '');

function tableOf(results: PageResult[], labels: Target['label'][], runs: number): string {
  const head = ['Page', 'Build', ...COLUMNS.map((c) => c.title)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const r of results) {
    for (const label of labels) {
      const ok = (r.runs[label] ?? []).filter((x) => x.figures).length;
      const f = r.median[label];
      const note = f && (f.problems.length || new URL(f.finalUrl).pathname !== r.page.path) ? ' ⚠' : '';
      const cells = f ? COLUMNS.map((c) => c.fmt(num(f, c.key))) : COLUMNS.map((_, i) => (i === 0 ? 'failed' : dash));
      lines.push(`| ${r.page.path}${who(r.page)} | ${label} (${ok}/${runs})${note} | ${cells.join(' | ')} |`);
    }
    if (labels.length === 2) {
      const [a, b] = [r.median.current, r.median.baseline];
      lines.push(
        `| ${r.page.path} | current − baseline | ${COLUMNS.map((c) => delta(c.kind, num(a, c.key), num(b, c.key))).join(' | ')} |`,
      );
    }
  }
  return lines.join('\n');
}

function notes(results: PageResult[], labels: Target['label'][]): string[] {
  const out: string[] = [];
  for (const r of results) {
    for (const label of labels) {
      for (const [i, run] of (r.runs[label] ?? []).entries()) {
        if (run.error) out.push(`- ${r.page.path} (${r.formFactor}), ${label}, run ${i + 1}: failed: ${run.error.split('\n')[0] ?? ''}`);
      }
      const f = r.median[label];
      if (!f) continue;
      const landed = new URL(f.finalUrl).pathname;
      if (landed !== r.page.path) out.push(`- ${r.page.path} (${r.formFactor}), ${label}: the page ended on ${landed}`);
      for (const p of f.problems) out.push(`- ${r.page.path} (${r.formFactor}), ${label}: ${p}`);
    }
  }
  return out;
}

/** A table per device: each figure's median in both builds, their ratio, and every run (issue 37). */
function staffTables(timings: StaffTiming[], labels: Target['label'][], runs: number): string[] {
  const builds = (['current', 'baseline'] as const).filter((l) => labels.includes(l));
  const out: string[] = [];
  for (const device of Object.keys(DEVICES) as Device[]) {
    if (!timings.some((t) => t.device === device)) continue;
    const figures = [...builds, ...(builds.length === 2 ? ['current / baseline'] : [])];
    const head = ['Scenario', ...figures, ...builds.map((b) => `runs, ${b}`)];
    out.push(
      '',
      `What staff wait for on the console's Home ${DEVICES[device].caption} (median of ${runs} in ms, each run in a fresh context, the builds in turns):`,
      '',
      `| ${head.join(' | ')} |`,
      `|${head.map((_, i) => (i >= 1 && i <= figures.length ? ' ---: ' : ' --- ')).join('|')}|`,
    );
    for (const scenario of SCENARIOS) {
      for (const { measure, title } of measuresOf(device, scenario)) {
        const row = (label: string) =>
          timings.find((t) => t.label === label && t.device === device && t.measure === measure && t.scenario === scenario);
        const none = measure === 'charts drawn' ? `not within ${CHARTS_LIMIT_MS / 1000} s` : 'failed';
        const median = (label: string) => row(label)?.median ?? null;
        const cells = builds.map((b) => (median(b) === null ? none : fmtMs(median(b))));
        const [a, b] = [median('current'), median('baseline')];
        const ratioCell = builds.length === 2 ? [a !== null && b !== null && b > 0 ? `${(a / b).toFixed(2)}×` : dash] : [];
        const runCells = builds.map((l) => (row(l)?.runs ?? []).map((v) => (v === null ? dash : String(Math.round(v)))).join(', '));
        out.push(`| ${title} | ${[...cells, ...ratioCell, ...runCells].join(' | ')} |`);
      }
    }
  }
  return out;
}

/** The staff runs that failed (the charts not showing in time is a figure, not a failure). */
function staffNotes(timings: StaffTiming[]): string[] {
  // A phone's failed run fails both its figures: one note.
  return [...new Set(timings.flatMap((t) => t.errors.map((e) => `- /admin as staff, ${t.label}, ${t.device}, ${t.scenario}: ${e}`)))];
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const { runs, pages, formFactors, baseline, out } = settings();
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium was not found at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\``);
  const builds = baseline ? 2 : 1;
  const pagesCount = pages.length * formFactors.length * builds * runs;
  // Staff on the Home: per run and build, 2 devices × 3 scenarios, each well within a minute.
  const staffCount = pages.some((p) => p.path === '/admin') ? builds * runs * 2 * SCENARIOS.length : 0;
  // Builds and starts, then at most 3 minutes a Lighthouse run (its own limit), with room to spare.
  const budgetMs = 30 * 60_000 + pagesCount * 3.5 * 60_000 + staffCount * 60_000;
  const watchdog = setTimeout(() => {
    log(`gave up after ${Math.round(budgetMs / 60_000)} minutes`);
    void cleanUp().finally(() => process.exit(1));
  }, budgetMs);
  watchdog.unref();
  startReaper(budgetMs + 5 * 60_000);

  const currentCommit = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';

  log('current: npm run build');
  try {
    await runCommand('npm', ['run', 'build'], { cwd: ROOT, timeoutMs: BUILD_TIMEOUT_MS });
  } catch (err) {
    throw new Error(`This checkout did not build.\n${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const base = baseline ? await prepareBaseline(baseline) : undefined;

  // The catalogue Choose Your Plan shows: a plan with a monthly and a yearly price, and a credit pack.
  const stripe = await startStripeServer();
  cleanups.push(() => stripe.close());
  const plan = stripe.addProduct({
    name: 'Sage Pro',
    description: 'Sage in every project',
    metadata: { popular: 'true', credits_amount: '1000' },
  });
  stripe.addPrice({ product: plan.id, unit_amount: 1999, currency: 'usd', recurring: { interval: 'month' } });
  stripe.addPrice({ product: plan.id, unit_amount: 19999, currency: 'usd', recurring: { interval: 'year' } });
  const pack = stripe.addProduct({ name: 'Query pack', description: '500 more queries', metadata: { credits_amount: '500' } });
  stripe.addPrice({ product: pack.id, unit_amount: 999, currency: 'usd', recurring: null });

  const targets: Target[] = [];
  const admin = pages.some((p) => p.signedIn === 'admin');
  // Baseline first: in every round it is measured before the current build.
  if (base && baseline) targets.push(await startTarget('baseline', base.dir, baseline, base.commit, stripe, admin));
  targets.push(await startTarget('current', ROOT, dirty ? 'working tree' : 'HEAD', currentCommit, stripe, admin));
  for (const t of targets) {
    log(`${t.label}: ${t.url}, ${t.products} products in the billing mirror`);
    await warmUp(t, pages);
  }
  const labels = targets.map((t) => t.label);

  const results: PageResult[] = formFactors.flatMap((formFactor) =>
    pages.map((page) => ({ page, formFactor, runs: Object.fromEntries(labels.map((l) => [l, []])), median: {} })),
  );
  for (let run = 1; run <= runs; run += 1) {
    for (const r of results) {
      for (const t of targets) {
        if (cleaningUp) throw new Error('stopped');
        const cookie = cookieFor(t, r.page);
        const result = await runLighthouse(`${t.url}${r.page.path}`, cookie ? { Cookie: cookie } : {}, chromeTracker, r.formFactor);
        r.runs[t.label]?.push(result);
        const f = result.figures;
        log(
          `run ${run}/${runs} ${r.page.path} ${r.formFactor} ${t.label}: ${
            f
              ? `perf ${fmtScore(f.performance)}, LCP ${fmtSeconds(f.lcp)}, TBT ${fmtMs(f.tbt)}, JS ${fmtKib(f.jsBytes)}`
              : `failed: ${result.error ?? ''}`
          } (${(result.ms / 1000).toFixed(0)} s)`,
        );
      }
    }
  }
  for (const r of results) for (const l of labels) r.median[l] = medianRun(r.runs[l] ?? []);

  // With a baseline: the pages as they look in both builds, at a desktop and a phone width.
  const [baselineTarget, currentTarget] = targets;
  // The admin's pages with the admin's cookie, the others with the user's.
  const asAdmin = (t: Target) => ({ ...t, cookie: t.adminCookie ?? '' });
  const screenshots =
    baselineTarget && currentTarget && targets.length === 2
      ? [
          ...(await compareScreenshots(
            baselineTarget,
            currentTarget,
            pages.filter((p) => p.signedIn !== 'admin').map((p) => ({ path: p.path, signedIn: p.signedIn !== false })),
          )),
          ...(await compareScreenshots(
            asAdmin(baselineTarget),
            asAdmin(currentTarget),
            pages.filter((p) => p.signedIn === 'admin').map((p) => ({ path: p.path, signedIn: true })),
          )),
        ]
      : [];
  for (const row of screenshots) log(`screenshots ${row.path} at ${row.width} px: ${fmtShare(row)}`);

  // What staff wait for on the console's Home (issue 37).
  const staffOnHome: StaffTiming[] = pages.some((p) => p.path === '/admin')
    ? await measureStaffOnHome(
        targets.map((t) => ({ label: t.label, url: t.url, cookie: t.adminCookie ?? '' })),
        runs,
        log,
      )
    : [];

  const cpus = os.cpus();
  const chromium = chromiumVersion();
  const lighthouseVersion = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8')) as { version: string }
  ).version;
  const date = new Date().toISOString();
  const describe = (t: Target) =>
    `${t.label} = ${t.ref === 'working tree' ? `working tree on ${t.commit.slice(0, 12)}` : `${t.ref} (${t.commit.slice(0, 12)})`}`;

  const report = [
    `## Web performance (\`npm run bench:web\`)`,
    '',
    `${date} · ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB · ${chromium} · Lighthouse ${lighthouseVersion} · Node ${process.version}`,
    `${formFactors.map((f) => (f === 'mobile' ? 'Mobile' : 'Desktop')).join(' and ')} preset${formFactors.length === 1 ? '' : 's'}, simulated throttling; median of ${runs} run${runs === 1 ? '' : 's'} by performance score, each in a fresh Chromium. ${targets.map(describe).join('; ')}.`,
    '',
    table(results, labels, runs),
  ];
  if (screenshots.length) {
    report.push(
      '',
      `Screenshots, baseline against current (full page, pixels whose colour differs by more than 48 of 765):`,
      '',
      '| Page | Width | Differing pixels | Sizes |',
      '| --- | ---: | ---: | --- |',
      ...screenshots.map((row) => `| ${row.path} | ${row.width} px | ${fmtShare(row)} | ${row.sizes} |`),
    );
  }
  report.push(...staffTables(staffOnHome, labels, runs));
  const problems = [...notes(results, labels), ...staffNotes(staffOnHome)];
  if (problems.length) report.push('', '⚠ Notes:', ...problems);
  console.log(report.join('\n'));

  fs.mkdirSync(path.dirname(out), { recursive: true });
  const json = {
    date,
    machine: {
      cores: cpus.length,
      cpu: cpus[0]?.model.trim() ?? null,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()}`,
      node: process.version,
    },
    chromium,
    lighthouse: lighthouseVersion,
    settings: { runs, formFactors, throttling: 'simulate', median: 'by performance score' },
    builds: Object.fromEntries(targets.map((t) => [t.label, { ref: t.ref, commit: t.commit, products: t.products }])),
    pages: results.map((r) => ({ path: r.page.path, signedIn: r.page.signedIn, formFactor: r.formFactor, median: r.median, runs: r.runs })),
    screenshots,
    staffOnHome: {
      devices: DEVICES,
      restMs: AT_REST_MS,
      chartsLimitMs: CHARTS_LIMIT_MS,
      timings: staffOnHome,
    },
  };
  fs.writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
  log(`figures written to ${path.relative(ROOT, out) || out}`);
}

main()
  .then(
    () => cleanUp(),
    async (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      await cleanUp();
      process.exitCode = 1;
    },
  )
  .finally(() => process.exit());
