// Story (issue 28): an admin opens the console on a phone and on a laptop. Its Home (the frame, the
// menu the role may use, Grove Users and the business figures) is on screen before the console's
// JavaScript has run; the console then takes the page over without an error and without moving
// anything, and its controls work: on a laptop once the mouse moves over the page, on a phone at the
// admin's first touch, with its code fetched while the admin reads (decisions 032 and 033).
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, runCli, setupStories, uniqueEmail, watchPage } from './harness';

const PASSWORD = 'first paint correct horse';

const PHONE: BrowserContextOptions = {
  viewport: { width: 360, height: 780 },
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
};
const LAPTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

/** Layout shifts the page has had, each with what moved: the console must take over in place. */
const RECORD_SHIFTS = `window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__shifts.push({ value: entry.value, moved: (entry.sources || []).map((s) => s.node && s.node.outerHTML ? s.node.outerHTML.slice(0, 100) : '?') });
  }
}).observe({ type: 'layout-shift', buffered: true });`;

describe.skipIf(SKIP_E2E)('The console’s Home before and after its JavaScript', () => {
  const stories = setupStories();
  let cookie = '';

  /** A context signed in as the story's admin, with the given screen and JavaScript on or off. */
  async function adminContext(browser: Browser, options: BrowserContextOptions) {
    const base = stories.product.url;
    if (!cookie) {
      const email = uniqueEmail('first-paint-admin');
      await runCli(stories.product.dataDir, ['create-admin', '--email', email, '--password', PASSWORD]);
      const signedIn = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(signedIn.status).toBe(200);
      cookie = /sage_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1] ?? '';
      expect(cookie).not.toBe('');
    }
    const context = await browser.newContext(options);
    await context.addCookies([{ name: 'sage_session', value: cookie, url: base }]);
    context.setDefaultTimeout(45_000);
    return context;
  }

  const totalUsers = async () => {
    const answer = await fetch(`${stories.product.url}/api/admin/grove-metrics`, { headers: { cookie: `sage_session=${cookie}` } });
    return ((await answer.json()) as { userStats: { totalUsers: number } }).userStats.totalUsers;
  };

  it('is on screen with JavaScript off: the menu on a laptop, behind its button on a phone, and the figures', async () => {
    for (const [screen, options] of [
      ['laptop', LAPTOP],
      ['phone', PHONE],
    ] as const) {
      const context = await adminContext(stories.browser, { ...options, javaScriptEnabled: false });
      try {
        const page = await context.newPage();
        await page.goto(`${stories.product.url}/admin`);
        expect(await page.title()).toBe('Home · Admin · Sage Dashboard');
        const card = page.getByRole('region', { name: 'Grove Users' });
        await card.getByText(new Intl.NumberFormat('en').format(await totalUsers()), { exact: true }).waitFor();
        await page
          .getByRole('region', { name: 'The business at a glance' })
          .getByText(/sign-ups in the last 30 days/)
          .waitFor();
        if (screen === 'laptop') {
          await page.getByRole('menuitem', { name: 'Audit Log' }).waitFor();
        } else {
          await page.getByRole('button', { name: 'Open menu' }).waitFor();
          expect(await page.getByRole('menuitem', { name: 'Audit Log' }).count()).toBe(0);
        }
      } finally {
        await context.close();
      }
    }
  });

  /** The console's controls, once it runs the page: Refresh reads the count again, the 7-day range shows, and on a phone the menu opens. */
  async function useTheControls(page: Page, screen: 'laptop' | 'phone') {
    const grove = page.waitForRequest((request) => request.url().endsWith('/api/admin/grove-metrics'));
    await page.getByRole('region', { name: 'Grove Users' }).getByRole('button', { name: 'Refresh' }).click();
    await grove;
    await page.getByRole('button', { name: '7 days' }).click();
    await page.getByText(/sign-ups in the last 7 days/).waitFor();
    if (screen === 'phone') {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('menuitem', { name: 'Audit Log' }).waitFor();
    }
  }

  const shiftsOf = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { __shifts: { value: number; moved: string[] }[] }).__shifts);

  /** The files the page has the browser fetch ahead, once they have all arrived (decisions 032 and 033). */
  async function prefetchedFiles(page: Page, fetched: Set<string>) {
    const prefetched = (await Promise.all((await page.locator('link[rel="prefetch"]').all()).map((link) => link.getAttribute('href')))).map(
      (href) => href ?? '',
    );
    expect(prefetched.length).toBeGreaterThan(0);
    await expect.poll(() => prefetched.filter((file) => !fetched.has(file)), { timeout: 45_000 }).toEqual([]);
    return prefetched;
  }

  it('waits on a laptop until the mouse moves over the page, with its code already fetched, then runs it in place', async () => {
    const context = await adminContext(stories.browser, LAPTOP);
    try {
      const page = await context.newPage();
      const { problems, story } = watchPage(page);
      await page.addInitScript(RECORD_SHIFTS);
      const fetched = new Set<string>();
      page.on('response', (response) => {
        if (response.ok()) fetched.add(new URL(response.url()).pathname);
      });
      await story('admin-first-paint-laptop', async () => {
        await page.goto(`${stories.product.url}/admin`);
        await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
        await page.waitForLoadState('networkidle');
        // The console's code is fetched while the admin reads (decision 033), but not run: no chart drawn yet.
        await prefetchedFiles(page, fetched);
        expect(await page.locator('figure svg rect').count()).toBe(0);
        await expectNoAxeViolations(page, 'the laptop’s Home before the console starts');
        // The mouse moving over the page starts it, from what was fetched: the charts in view are drawn.
        await context.setOffline(true);
        await page.mouse.move(640, 400);
        await page.getByRole('figure').first().locator('svg rect').first().waitFor();
        await context.setOffline(false);
        expect(await shiftsOf(page), 'what moved as the console took over').toEqual([]);
        await useTheControls(page, 'laptop');
        expect(problems, 'errors in the console').toEqual([]);
      });
    } finally {
      await context.close();
    }
  });

  it('waits on a phone for the admin’s first touch, with its code already fetched, then runs it in place', async () => {
    const context = await adminContext(stories.browser, PHONE);
    try {
      const page = await context.newPage();
      const { problems, story } = watchPage(page);
      await page.addInitScript(RECORD_SHIFTS);
      const fetched = new Set<string>();
      page.on('response', (response) => {
        if (response.ok()) fetched.add(new URL(response.url()).pathname);
      });
      await story('admin-first-paint-phone', async () => {
        await page.goto(`${stories.product.url}/admin`);
        await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
        await page.waitForLoadState('networkidle');
        // The console's code is fetched in the background while the admin reads (decision 032)…
        await prefetchedFiles(page, fetched);
        // …but not run: no chart is drawn until the admin reaches for the page, which reads as it should meanwhile.
        expect(await page.locator('figure svg rect').count()).toBe(0);
        await expectNoAxeViolations(page, 'the phone’s Home before the console starts');
        // The first touch runs it from what was fetched: with the network gone, the menu still opens
        // (the touch is held and replayed once the console runs the page).
        await context.setOffline(true);
        await page.getByRole('button', { name: 'Open menu' }).tap();
        await page.getByRole('menuitem', { name: 'Audit Log' }).waitFor();
        await context.setOffline(false);
        await page.keyboard.press('Escape');
        await page.getByRole('menuitem', { name: 'Audit Log' }).waitFor({ state: 'detached' });
        await page.getByRole('figure').first().locator('svg rect').first().waitFor();
        expect(await shiftsOf(page), 'what moved as the console took over').toEqual([]);
        await useTheControls(page, 'phone');
        expect(problems, 'errors in the console').toEqual([]);
      });
    } finally {
      await context.close();
    }
  });
});
