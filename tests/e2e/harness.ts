// End-to-end harness: starts the product the way `npm start` does (node on the compiled server,
// dist/server/main.js, over the built browser app, fresh data directory, embedded defaults) and drives Debian's Chromium through
// playwright-core. No browser is downloaded: without /usr/bin/chromium the stories are skipped,
// unless E2E_REQUIRED=1 (as in .ci/run), where they fail with a clear message.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startStripeServer, type StripeFixture } from '../fixtures/stripeServer';
import {
  CHROMIUM_FLAGS,
  CHROMIUM_PATH,
  exited,
  freePort,
  killGroup,
  productEnv,
  waitForExit,
  waitUntilHealthy,
} from '../../scripts/localProduct';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export { CHROMIUM_PATH };
export const E2E_REQUIRED = process.env.E2E_REQUIRED === '1';
export const CHROMIUM_AVAILABLE = fs.existsSync(CHROMIUM_PATH);
/** Stories run when Chromium is installed, and are forced to run (and fail) when required. */
export const SKIP_E2E = !CHROMIUM_AVAILABLE && !E2E_REQUIRED;

export const CHROMIUM_MISSING_MESSAGE =
  `End-to-end tests are required (E2E_REQUIRED=1) but Chromium was not found at ${CHROMIUM_PATH}. ` +
  'Install it with `apt-get install -y chromium` (.ci/run does this), or unset E2E_REQUIRED to skip them.';

export interface Product {
  /** Origin the product is served at, also its PUBLIC_URL. */
  url: string;
  dataDir: string;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** The compiled server and CLI (`npm run build`; globalSetup built them), with source-mapped stack traces. */
const nodeOn = (entry: 'main' | 'cli', args: string[] = []) =>
  [process.execPath, ['--enable-source-maps', path.join(ROOT, 'dist', 'server', `${entry}.js`), ...args]] as const;

/** `npm run cli -- <args>` against a product's data directory (its embedded SQLite database). */
export async function runCli(dataDir: string, args: string[]): Promise<string> {
  const [command, argv] = nodeOn('cli', args);
  const { stdout } = await promisify(execFile)(command, [...argv], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  });
  return stdout;
}

/**
 * Starts the compiled server (what `npm start` runs once dist/ is built) on a free port with a
 * fresh data directory, and waits until GET /healthz answers 200.
 */
export async function startProduct(extraEnv: Record<string, string> = {}, opts: ProductHost = {}): Promise<Product> {
  // A free port is free when asked, not when the product binds it: stories start in parallel, and
  // each product's own stand-ins take ports the system picks. Taken meanwhile: another port.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startProductOn(await freePort(), extraEnv, opts.hostname ?? '127.0.0.1');
    } catch (err) {
      if (attempt === 3 || !(err instanceof Error && err.message.includes('is already in use'))) throw err;
    }
  }
}

/**
 * The name the browser reaches the product by (default 127.0.0.1). WebAuthn needs a host name, not
 * an IP address, for its relying party: the passkey story uses `localhost`, also PUBLIC_URL's.
 */
export interface ProductHost {
  hostname?: '127.0.0.1' | 'localhost';
}

async function startProductOn(port: number, extraEnv: Record<string, string>, hostname: string): Promise<Product> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-e2e-data-'));
  const url = `http://${hostname}:${port}`;
  const [command, argv] = nodeOn('main');
  const child = spawn(command, [...argv], {
    cwd: ROOT,
    // Staff need no second factor in the stories unless theirs is the rule (second-factor.test.ts).
    env: productEnv(port, dataDir, { PUBLIC_URL: url, STAFF_SECOND_FACTOR: 'optional', ...extraEnv }, ['VITEST']),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!exited(child)) {
      killGroup(child.pid, 'SIGTERM');
      if (!(await waitForExit(child, 5000))) {
        killGroup(child.pid, 'SIGKILL');
        await waitForExit(child, 5000);
      }
    } else {
      killGroup(child.pid, 'SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    // Asked on the address the product listens on, whatever name the browser uses.
    await waitUntilHealthy(`http://127.0.0.1:${port}`, child, { timeoutMs: 60_000, label: 'product', output: () => output });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, dataDir, output: () => output, stop };
}

/** Launches Debian's Chromium headless; throws the clear "required but missing" message. */
export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM_AVAILABLE) throw new Error(CHROMIUM_MISSING_MESSAGE);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', ...CHROMIUM_FLAGS, '--disable-quic'],
  });
}

/** A unique e-mail address for one story, so stories never share an account. */
export function uniqueEmail(story: string): string {
  return `${story}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Decodes quoted-printable: soft line breaks (`=` at line end) and `=XX` escapes such as `=3D`. */
export function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The `To:` header of a raw mail, unfolded. */
function toHeader(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  return unfolded.match(/^To:(.*)$/im)?.[1]?.trim() ?? '';
}

/**
 * Waits for the newest mail in `<dataDir>/outbox` addressed to `email` (the server sends it after
 * answering) and returns the link in it whose path and query start with `linkPath`.
 */
export async function readMailLink(dataDir: string, email: string, linkPath: string, timeoutMs = 45_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const escaped = linkPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`https?://[^\\s"'<>/]+${escaped}[^\\s"'<>]*`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(outbox)
      ? fs
          .readdirSync(outbox)
          .filter((name) => name.endsWith('.eml'))
          .map((name) => path.join(outbox, name))
          .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs || b.localeCompare(a))
      : [];
    for (const file of files) {
      const raw = fs.readFileSync(file, 'utf8');
      if (!toHeader(raw).toLowerCase().includes(email.toLowerCase())) continue;
      const link = decodeQuotedPrintable(raw).match(pattern)?.[0];
      if (link) return link.replace(/&amp;/g, '&');
      throw new Error(`The newest mail to ${email} (${file}) holds no ${linkPath} link:\n${raw}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`No mail to ${email} arrived in ${outbox} within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The password reset link of the newest mail to `email`. */
export const readResetLink = (dataDir: string, email: string) => readMailLink(dataDir, email, '/reset-password?token=');

const SCREENSHOT_DIR = path.join(os.tmpdir(), 'sage-e2e-screenshots');

/**
 * Collects the page's console errors and uncaught exceptions; on failure takes one screenshot into
 * a temp directory and adds its path and the collected errors to the failure message.
 */
export function watchPage(page: Page) {
  const problems: string[] = [];
  trackRequests(page);
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  return {
    problems,
    async story(name: string, steps: () => Promise<void>): Promise<void> {
      try {
        await steps();
      } catch (err) {
        let note = `\n  page: ${page.url()}`;
        try {
          fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
          const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9]+/gi, '-')}-${Date.now()}.png`);
          await page.screenshot({ path: file, fullPage: true });
          note += `\n  screenshot: ${file}`;
        } catch (shotErr) {
          note += `\n  (no screenshot: ${shotErr instanceof Error ? shotErr.message : String(shotErr)})`;
        }
        if (problems.length) note += `\n  ${problems.join('\n  ')}`;
        if (err instanceof Error) {
          err.message += note;
          throw err;
        }
        throw new Error(`${String(err)}${note}`, { cause: err });
      }
    },
  };
}

/**
 * A user's license token as an admin gets it: from the signed license file the console's Download
 * License button downloads (audited), since no other admin answer carries it (issue 36).
 */
export async function licenseTokenAsAdmin(page: Page, baseUrl: string, userId: string): Promise<string> {
  const response = await page.request.get(`${baseUrl}/api/sage/${encodeURIComponent(userId)}/license?download=true`);
  if (response.status() !== 200) throw new Error(`license download: ${response.status()} ${await response.text()}`);
  const { payload } = (await response.json()) as { payload: string };
  return (JSON.parse(payload) as { licenseToken: string }).licenseToken;
}

/** Path part of the page's URL (no query or hash). */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/**
 * The form field with this label. A required field's label ends in a "*" marker, which is part of
 * its accessible label, so the label is matched with or without it.
 */
export function field(page: Page, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}\\s*\\*?$`));
}

/** A control the user clicks by its visible name, whether it is built as a link or a button. */
export function control(page: Page, name: string | RegExp) {
  const exact = typeof name === 'string' ? { name, exact: true } : { name };
  return page.getByRole('link', exact).or(page.getByRole('button', exact));
}

/** The toast on screen saying `text` as its title or description (not its screen-reader announcement). */
export function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /notifications/i }).getByText(text, { exact: true });
}

/**
 * Whether a CSS transition runs (MUI's entrances: a dialog's fade, a drawer's slide), asked once two
 * frames have been drawn so that a transition a click has just asked for has started.
 */
const TRANSITION_RUNNING = `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() =>
  resolve(document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running')))))`;

/**
 * Waits until no CSS transition runs on the page: what it shows is where it stays. Polled from here
 * (a frame apart) as the product's policy refuses waitForFunction's eval.
 */
export async function transitionsEnded(page: Page, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (await page.evaluate<boolean>(TRANSITION_RUNNING)) {
    if (Date.now() > deadline) throw new Error(`CSS transitions still running after ${timeoutMs} ms`);
  }
}

/** Each watched page's requests not yet answered, and who waits for there to be none. */
const requestsInFlight = new WeakMap<Page, { open: Set<Request>; waiting: Set<() => void> }>();

function trackRequests(page: Page) {
  const state = { open: new Set<Request>(), waiting: new Set<() => void>() };
  requestsInFlight.set(page, state);
  const answered = (request: Request) => {
    state.open.delete(request);
    if (state.open.size > 0) return;
    for (const wake of state.waiting) wake();
    state.waiting.clear();
  };
  page.on('request', (request) => state.open.add(request));
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
}

/** Resolves once no request of the page is in flight (at once if none is). */
async function requestsAnswered(page: Page, deadline: number): Promise<void> {
  const state = requestsInFlight.get(page);
  if (!state) throw new Error('requestsAnswered needs a page watched by watchPage');
  while (state.open.size > 0) {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(`requests of ${page.url()} still unanswered: ${[...state.open].map((r) => `${r.method()} ${r.url()}`).join(', ')}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      state.waiting.add(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * Waits until the page shows its content where it stays: every request it has made answered and
 * no CSS transition running, both seen in one pass (a transition's end may start a request, and
 * an answer a transition). A page that polls settles between two polls, with no fixed wait.
 */
export async function pageSettled(page: Page, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const state = requestsInFlight.get(page);
  do {
    await requestsAnswered(page, deadline);
    await transitionsEnded(page, Math.max(0, deadline - Date.now()));
  } while ((state?.open.size ?? 0) > 0);
}

/** Waits until the page's path is `pathname` (query and hash ignored). */
export async function waitForPath(page: Page, pathname: string) {
  await page.waitForURL((u) => u.pathname === pathname);
}

/** On /login, switches the form to register mode. */
export async function switchToRegister(page: Page) {
  await control(page, /^(sign up|register|create an account|don't have an account\??\s*sign up)$/i).click();
  await page.getByRole('button', { name: 'Create my account', exact: true }).waitFor();
}

/** Registers a new account through the login screen; the browser ends on /dashboard. */
export async function registerThroughUi(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await switchToRegister(page);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await field(page, 'Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create my account', exact: true }).click();
  await waitForPath(page, '/dashboard');
}

/** Signs in with e-mail and password on the login screen; the browser ends on /dashboard. */
export async function signInThroughUi(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign in with e-mail', exact: true }).click();
  await waitForPath(page, '/dashboard');
}

export interface StoryPage {
  page: Page;
  /** Runs the story's steps; on failure saves one screenshot to a temp directory. */
  story(name: string, steps: () => Promise<void>): Promise<void>;
}

/**
 * Registers the hooks of one test file: the product and the browser start once for the file,
 * and every story gets a fresh browser context (no shared cookies), closed after it. `env` adds
 * settings to the product's environment.
 */
export function setupStories(options: { env?: () => Record<string, string> } & ProductHost = {}) {
  let product: Product | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    // A function: the settings of fixtures started by the file's earlier hooks (the Stripe server).
    product = await startProduct(options.env?.() ?? {}, { hostname: options.hostname });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  return {
    /** The file's Chromium, for stories that need a context of their own (JavaScript off, say). */
    get browser(): Browser {
      if (!browser) throw new Error('The browser was not launched');
      return browser;
    },
    get product(): Product {
      if (!product) throw new Error('The product was not started');
      return product;
    },
    async newPage(viewport: { width: number; height: number } = { width: 1280, height: 800 }): Promise<StoryPage> {
      if (!browser) throw new Error('The browser was not launched');
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      // Generous: a wait ends when its event comes, and a busy machine makes a story slower, never red.
      context.setDefaultTimeout(45_000);
      const page = await context.newPage();
      const { story } = watchPage(page);
      return { page, story };
    },
  };
}

/**
 * The reference client (scripts/plugin-login.ts) as a plugin author runs it, with its output
 * collected. `env` adds to its environment (NODE_EXTRA_CA_CERTS for a test certificate); `args`
 * to its options (--engine-version, --plugin-version).
 */
export function startPluginClient(server: string, env: Record<string, string> = {}, args: string[] = []) {
  const options = ['scripts/plugin-login.ts', '--server', server, '--timeout', '120', ...args];
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), options, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;

  /** Waits until the client has printed a line matching `pattern`; returns the match. */
  async function waitForLine(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = stdout.match(pattern);
      if (match) return match;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The plugin client never printed ${pattern}:\n${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { child, exited, output, waitForLine };
}

/**
 * From the development Epic provider's page: signs in as a new Epic account named `displayName`,
 * links `email` and verifies it from the mail, and waits for the signed-in completion page.
 */
export async function epicSignUp(page: Page, dataDir: string, displayName: string, email: string): Promise<void> {
  await page.getByLabel('Epic display name').fill(displayName);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await waitForPath(page, '/epic_account_link');
  await field(page, 'Email Address').fill(email);
  await control(page, 'Continue').click();
  await waitForPath(page, '/email-verification');
  await toast(page, 'Email Sent').waitFor();
  const mailTab = await page.context().newPage();
  await mailTab.goto(await readMailLink(dataDir, email, '/api/email/verify?token='));
  await waitForPath(mailTab, '/email-verification-completed');
  await mailTab.close();
  await page.waitForURL((u) => u.pathname === '/login_completed', { timeout: 45_000 });
}

/**
 * setupStories with the Stripe-compatible test server: started before the product (whose settings
 * point at it), its signed webhooks delivered to the product, and `catalogue` run once to fill it
 * (Stripe announces products and prices by webhooks, as in production).
 */
export function setupStoriesWithStripe(catalogue: (stripe: StripeFixture) => Promise<void>) {
  let stripe: StripeFixture | undefined;
  beforeAll(async () => {
    stripe = await startStripeServer();
  });
  afterAll(async () => {
    await stripe?.close();
  });
  const fixture = (): StripeFixture => {
    if (!stripe) throw new Error('the Stripe server is not running');
    return stripe;
  };
  const stories = setupStories({ env: () => fixture().env });
  beforeAll(async () => {
    fixture().deliverTo(`${stories.product.url}/api/stripe/webhook`);
    await catalogue(fixture());
  });
  return { stories, fixture };
}
