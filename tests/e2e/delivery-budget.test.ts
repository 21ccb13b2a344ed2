// Story: a first-time visitor opens the download page, or the sign-in page, on a fresh browser.
// What crosses the wire is compressed with brotli, the JavaScript stays within its budget, and
// nothing of the admin console is downloaded (issue 11).
import zlib from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SKIP_E2E, setupStories } from './harness';

/**
 * The JavaScript a first visit to the page loads, counted as gzip level 9 bytes of the decoded
 * files (whatever encoding was on the wire, so the figure compares across builds). These guard
 * what issue 11 reached (175 kB and 204 kB, from 235 kB), with a little room; its targets, 100 kB
 * and 120 kB, are not met: React's DOM alone is 68 kB, MUI with Emotion 37 kB more (decision 009).
 */
const JS_BUDGET_GZIP_BYTES: Record<string, number> = {
  '/download': 180_000,
  '/login': 210_000,
};
/** Text responses above this size must come compressed (issue 11). */
const COMPRESS_ABOVE_BYTES = 1024;
/** A file of the lazily loaded admin console, or react-admin's vendor chunk `…~AdminApp`. */
const ADMIN_CHUNK = /AdminApp/;
/** Content types of text: JS, CSS, HTML, SVG, JSON. */
const TEXT_TYPE = /^(?:text\/(?:javascript|css|html)|application\/(?:javascript|json|[\w.+-]+\+json)|image\/svg\+xml)\b/i;

interface Recorded {
  url: string;
  status: number;
  type: string;
  encoding: string | undefined;
  /** The decoded body, or null when there is none (redirects, failures). */
  body: Buffer | null;
}

async function record(response: Response): Promise<Recorded> {
  const headers = await response.allHeaders();
  let body: Buffer | null = null;
  try {
    body = await response.body();
  } catch {
    // A redirect or an aborted request has no body to read.
  }
  return { url: response.url(), status: response.status(), type: headers['content-type'] ?? '', encoding: headers['content-encoding'], body };
}

/** Every response and every requested URL of `page` from now on. */
function watchNetwork(page: Page) {
  const responses: Promise<Recorded>[] = [];
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('response', (response) => responses.push(record(response)));
  return { requested, responses: () => Promise.all(responses) };
}

const isJavaScript = (r: Recorded) => /javascript/i.test(r.type) || /\.m?js$/.test(new URL(r.url).pathname);

/** What each screen shows once its code has run: waited for before the network is judged idle. */
const READY: Record<string, (page: Page) => Promise<void>> = {
  '/download': (page) => page.getByRole('heading', { name: 'Download Sage' }).waitFor(),
  '/login': (page) => page.getByRole('button', { name: 'Sign in with e-mail', exact: true }).waitFor(),
};

describe.skipIf(SKIP_E2E)('What a first visit downloads (issue 11)', () => {
  const stories = setupStories();

  it.each(Object.keys(JS_BUDGET_GZIP_BYTES))('%s comes compressed with brotli, within its JavaScript budget, without the admin console', async (pathname) => {
    const budget = JS_BUDGET_GZIP_BYTES[pathname] ?? 0;
    const { page, story } = await stories.newPage();
    await story(`delivery-budget${pathname}`, async () => {
      const base = stories.product.url;
      const network = watchNetwork(page);
      await page.goto(`${base}${pathname}`, { waitUntil: 'networkidle' });
      await READY[pathname]?.(page);
      // Lazily loaded screens and queries start after the first render: wait for them too.
      await page.waitForLoadState('networkidle');
      const ours = (await network.responses()).filter((r) => new URL(r.url).origin === base);

      // (a) Every text response of our origin over 1 KiB came as brotli (Chromium accepts br).
      const uncompressed = ours
        .filter((r) => r.body !== null && r.body.length > COMPRESS_ABOVE_BYTES && TEXT_TYPE.test(r.type) && r.encoding !== 'br')
        .map((r) => `${r.url} (${r.type}, ${r.body?.length ?? 0} bytes, content-encoding: ${r.encoding ?? 'none'})`);

      // (b) The page's JavaScript, in gzip -9 bytes of the decoded files.
      const scripts = ours
        .filter((r) => r.body !== null && isJavaScript(r))
        .map((r) => ({ path: new URL(r.url).pathname, bytes: r.body?.length ?? 0, gzip: zlib.gzipSync(r.body ?? Buffer.alloc(0), { level: 9 }).length, encoding: r.encoding ?? 'none' }))
        .sort((x, y) => y.gzip - x.gzip);
      const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
      const table = [
        ...scripts.map((s) => `  ${String(s.gzip).padStart(8)} gzip  ${String(s.bytes).padStart(8)} raw  ${s.encoding.padEnd(4)}  ${s.path}`),
        `  ${String(total).padStart(8)} gzip in ${scripts.length} files (budget ${budget})`,
      ].join('\n');
      console.info(`JavaScript loaded by ${pathname}:\n${table}`);

      // (c) Nothing of the admin console, not even preloaded.
      const adminChunks = network.requested.filter((url) => ADMIN_CHUNK.test(new URL(url).pathname));

      // Guards against a vacuous pass: the page's scripts are well over 1 KiB.
      expect(ours.filter((r) => r.encoding === 'br').length, 'no response came as brotli').toBeGreaterThan(0);
      expect(uncompressed, `text responses over ${COMPRESS_ABOVE_BYTES} bytes sent without brotli:\n  ${uncompressed.join('\n  ')}`).toEqual([]);
      expect(adminChunks, `${pathname} loaded the admin console's chunks:\n  ${adminChunks.join('\n  ')}`).toEqual([]);
      expect(scripts.length, `${pathname} loaded no JavaScript at all`).toBeGreaterThan(0);
      expect(total, `${pathname} loaded ${total} gzip bytes of JavaScript, over its budget of ${budget}:\n${table}`).toBeLessThanOrEqual(budget);
    });
  });
});
