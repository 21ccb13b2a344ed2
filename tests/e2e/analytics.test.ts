// Story: with PostHog configured, a visitor's page views, downloads and sign-in reach the analytics
// provider through the product's own /ingest proxy; the admin console sends nothing; and a product
// without a key never loads analytics at all. The provider is a PostHog-compatible capture server.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeConfigSchema } from '../../contract/config';
import { startCaptureServer, type CaptureServer } from '../fixtures/captureServer';
import { SKIP_E2E, runCli, control, registerThroughUi, setupStories, signInThroughUi, uniqueEmail, waitForPath } from './harness';

const KEY = 'phc_e2e_test_key';

/**
 * posthog-js drops events from browsers that look like bots, headless Chromium under automation
 * included ("HeadlessChrome", navigator.webdriver): the story's page presents itself as ordinary
 * Chrome. Production keeps posthog-js's bot filter.
 */
async function asOrdinaryChrome<T extends { page: Page }>(storyPage: T): Promise<T> {
  const { page } = storyPage;
  const cdp = await page.context().newCDPSession(page);
  // Code that runs in the page is written as text: this project sees Node's types, not the browser's.
  const userAgent = (await page.evaluate<string>('navigator.userAgent')).replace('HeadlessChrome', 'Chrome');
  await cdp.send('Network.setUserAgentOverride', { userAgent });
  // It also reads navigator.webdriver (true under automation) and the Client Hints brands.
  await page.context().addInitScript(`
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });
    Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined, configurable: true });
  `);
  return storyPage;
}
const ADMIN_PASSWORD = 'admin correct horse';

describe.skipIf(SKIP_E2E)('Analytics reach PostHog through /ingest', () => {
  let capture: CaptureServer | undefined;
  beforeAll(async () => {
    capture = await startCaptureServer();
  });
  afterAll(async () => {
    await capture?.close();
  });
  const fixture = () => {
    if (!capture) throw new Error('the capture server is not running');
    return capture;
  };
  const stories = setupStories({ env: () => ({ POSTHOG_KEY: KEY, POSTHOG_HOST: fixture().url }) });

  it('delivers Page View and File Download from the download page', async () => {
    const { page, story } = await asOrdinaryChrome(await stories.newPage());
    await story('analytics-download', async () => {
      const base = stories.product.url;
      const config = runtimeConfigSchema.parse(await (await fetch(`${base}/api/config`)).json());
      expect(config.analytics).toEqual({ key: KEY, apiHost: '/ingest', excludedUserIds: [], ipLocation: false });

      const ingest: string[] = [];
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/ingest/')) ingest.push(url.pathname);
        if (url.origin !== base && url.protocol.startsWith('http')) elsewhere.push(url.href);
      });
      // The download itself is answered here: the default build's files live on the marketing site.
      await page.route(config.defaultBuild.ue56Url, (route) =>
        route.fulfill({
          status: 200,
          headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="sage.zip"' },
          body: 'PK',
        }),
      );

      await page.goto(`${base}/download`);
      await page.getByRole('heading', { name: 'Download Sage' }).waitFor();
      const view = await fixture().waitForEvent((e) => e.event === 'Page View' && String(e.properties.url).endsWith('/download'));
      expect(view.properties).toMatchObject({ user_type: 'anonymous', page: '/download', event_name: 'Page View' });
      expect(view.properties.session_id).toEqual(expect.any(String));
      expect(view.properties.user_agent).toEqual(expect.stringContaining('Chrome'));
      expect(view.properties.platform).toEqual(expect.any(String));
      expect(view.properties.time).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
      expect(view.properties).toHaveProperty('referrer');
      // The proxy told PostHog who the client is.
      expect(view.headers['x-forwarded-for']).toBe('127.0.0.1');

      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download for Unreal Engine 5.6' }).click();
      await download;
      const file = await fixture().waitForEvent((e) => e.event === 'File Download');
      expect(file.properties).toMatchObject({
        ue_version: '5.6',
        build_version: '2025-07-15a',
        user_type: 'anonymous',
        file_url: config.defaultBuild.ue56Url,
      });

      // Everything went through the product's own origin.
      expect(ingest.length).toBeGreaterThan(0);
      expect(elsewhere.filter((u) => u !== config.defaultBuild.ue56Url)).toEqual([]);
    });
  });

  it('delivers User Login when a user signs in with e-mail, without the password', async () => {
    const first = await asOrdinaryChrome(await stories.newPage());
    const email = uniqueEmail('analytics');
    const password = 'correct horse battery';
    await first.story('analytics-register', async () => {
      await registerThroughUi(first.page, stories.product.url, email, password);
    });
    const { page, story } = await asOrdinaryChrome(await stories.newPage());
    await story('analytics-sign-in', async () => {
      await signInThroughUi(page, stories.product.url, email, password);
      const login = await fixture().waitForEvent((e) => e.event === 'User Login' && e.properties.mode === 'signin');
      expect(login.properties).toMatchObject({ method: 'email', status: 'success' });
      const everything = JSON.stringify(fixture().events);
      expect(everything).not.toContain(password);
    });
  });

  it('sends nothing from the admin console', async () => {
    const adminEmail = uniqueEmail('analytics-admin');
    await runCli(stories.product.dataDir, ['create-admin', '--email', adminEmail, '--password', ADMIN_PASSWORD]);
    const { page, story } = await asOrdinaryChrome(await stories.newPage());
    await story('analytics-admin', async () => {
      const base = stories.product.url;
      await signInThroughUi(page, base, adminEmail, ADMIN_PASSWORD);
      await fixture().waitForEvent(
        (e) => e.event === 'Page View' && String(e.properties.url).endsWith('/dashboard') && e.properties.user_type === 'admin',
      );

      const ingestOnAdmin: string[] = [];
      // The scripts the console's own document loads (posthog-js lives in a chunk of its own). Read
      // again by address afterwards: a response's body is gone once the page has moved on.
      const adminScripts = new Set<string>();
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script' && new URL(response.frame().url()).pathname.startsWith('/admin')) {
          adminScripts.add(response.url());
        }
      });
      await page.goto(`${base}/admin`);
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/ingest')) ingestOnAdmin.push(request.url());
      });
      await waitForPath(page, '/admin');
      await page.getByRole('menuitem', { name: 'Search' }).click();
      await control(page, 'Search').waitFor();
      await page.waitForLoadState('networkidle');
      // posthog-js never ran in the console: nothing was queued that a later flush could send.
      const loaded = await Promise.all([...adminScripts].map(async (url) => (await page.request.get(url)).text()));
      expect(loaded.length).toBeGreaterThan(0);
      expect(loaded.filter((code) => code.includes('[PostHog.js]'))).toEqual([]);
      expect(ingestOnAdmin).toEqual([]);
      const fromAdmin = fixture().events.filter((e) => /admin/i.test(String(e.properties.url)) || /admin/i.test(String(e.properties.page)));
      expect(fromAdmin).toEqual([]);
    });
  });
});

describe.skipIf(SKIP_E2E)('Without a PostHog key analytics stay off', () => {
  const stories = setupStories();

  it('makes no analytics request at all', async () => {
    const { page, story } = await asOrdinaryChrome(await stories.newPage());
    await story('analytics-off', async () => {
      const base = stories.product.url;
      const config = runtimeConfigSchema.parse(await (await fetch(`${base}/api/config`)).json());
      expect(config.analytics).toBeNull();
      expect((await fetch(`${base}/ingest/e/`, { method: 'POST', body: '{}' })).status).toBe(404);

      const analytics: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (
          url.pathname.startsWith('/ingest') ||
          url.pathname.startsWith('/api/analytics') ||
          /posthog/i.test(url.href) ||
          url.origin !== base
        ) {
          analytics.push(url.href);
        }
      });
      // posthog-js lives in a chunk of its own: no script the page loads may contain it.
      const scripts: Promise<string>[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.push(response.text());
      });
      await page.goto(`${base}/download`);
      await page.getByRole('heading', { name: 'Download Sage' }).waitFor();
      await page.goto(`${base}/support`);
      await page.getByRole('heading', { name: 'Get Support' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(analytics).toEqual([]);
      const loaded = await Promise.all(scripts);
      expect(loaded.length).toBeGreaterThan(0);
      expect(loaded.filter((code) => code.includes('[PostHog.js]'))).toEqual([]);
    });
  });
});
