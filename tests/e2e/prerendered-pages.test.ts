// Story: a visitor on a slow phone sees the public pages before any of the app's JavaScript has
// run; the app then takes the page over without changing what is shown.
import { describe, expect, it } from 'vitest';
import { SKIP_E2E, runCli, field, setupStories, waitForPath } from './harness';

const RELEASED = {
  version: '2026-11-20b',
  ue55: 'https://downloads.sage.test/2026-11-20b/sage-ue5.5.zip',
  ue56: 'https://downloads.sage.test/2026-11-20b/sage-ue5.6.zip',
  ue57: 'https://downloads.sage.test/2026-11-20b/sage-ue5.7.zip',
};

describe.skipIf(SKIP_E2E)('The public pages show their content before the JavaScript runs', () => {
  const stories = setupStories();

  it('/download, /login and /support are complete pages with JavaScript turned off', async () => {
    const context = await stories.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const base = stories.product.url;

      await page.goto(`${base}/download`);
      await page.getByRole('heading', { name: 'Download Sage' }).waitFor();
      expect(await page.title()).toBe('Download Sage · Sage Dashboard');
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/No account is required/);
      await page.getByText('Version 2025-07-15a').waitFor();
      for (const ue of ['5.5', '5.6', '5.7']) {
        expect(await page.getByRole('link', { name: `Download for Unreal Engine ${ue}` }).getAttribute('href')).toMatch(/^https?:\/\//);
      }
      // The bar's links are plain links: they work before (or without) the app.
      expect(await page.getByRole('link', { name: 'Login', exact: true }).getAttribute('href')).toBe('/login');

      await page.goto(`${base}/login`);
      await page.getByRole('heading', { name: 'Sign in to Sage' }).waitFor();
      expect(await page.title()).toBe('Sign in · Sage Dashboard');
      // The fields take text before the app runs (it reads them as they are, decision 010).
      await page.getByRole('textbox', { name: /^Email/ }).fill('early@example.com');
      expect(await page.getByRole('button', { name: 'Sign in with e-mail' }).isEnabled()).toBe(true);
      await page.goto(`${base}/login?mode=register`);
      await page.getByRole('heading', { name: 'Create your Sage account' }).waitFor();

      await page.goto(`${base}/support`);
      await page.getByRole('heading', { name: 'Get Support' }).waitFor();
      expect(await page.getByRole('link', { name: 'Contact Us' }).last().getAttribute('href')).toMatch(/^mailto:/);
    } finally {
      await context.close();
    }
  });

  it('what a visitor types and clicks before the app has loaded is kept; the app takes over without errors, and a release shows on the next visit', async () => {
    const { page, story } = await stories.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      // A fresh install answers GET /api/current-sage-build with 404 (§7); anything else is a problem.
      if (msg.type() === 'error' && !msg.text().includes('404')) problems.push(msg.text());
    });
    // React reports a hydration mismatch it recovers from as an uncaught error.
    page.on('pageerror', (error) => problems.push(error.message));
    await story('prerendered-hydration', async () => {
      const base = stories.product.url;
      // A slow connection: the app's code arrives only once the visitor has typed and clicked.
      let appRequested = false;
      let appArrives!: () => void;
      const connection = new Promise<void>((resolve) => (appArrives = resolve));
      await page.route(/\/assets\/startApp-[\w-]+\.js$/, async (route) => {
        appRequested = true;
        await connection;
        await route.continue();
      });
      await page.goto(`${base}/login`);
      await page.waitForLoadState('networkidle');
      // Nothing touched yet: the page has not asked for the app.
      expect(appRequested).toBe(false);
      const email = page.getByRole('textbox', { name: /^Email/ });
      // Focusing the field is the first interaction: the page asks for the app.
      const appRequest = page.waitForRequest(/\/assets\/startApp-[\w-]+\.js$/);
      await email.fill('hydrated@example.com');
      await appRequest;
      // Clicked while the app is still on its way: held, then done once the app runs the page.
      await page.getByRole('button', { name: 'Create an account' }).click();
      appArrives();
      await page.getByRole('heading', { name: 'Create your Sage account' }).waitFor();
      expect(await email.inputValue()).toBe('hydrated@example.com');
      await field(page, 'Password').fill('early-bird-password');
      await field(page, 'Confirm Password').fill('early-bird-password');
      await page.getByRole('button', { name: 'Create my account', exact: true }).click();
      await waitForPath(page, '/dashboard');
      await page.getByText('hydrated@example.com').first().waitFor();
      // Signed-in pages come rendered for their user, and the app takes them over without a
      // hydration error; the dashboard's section (its URL hash) shows once the app runs it.
      const dashboardHtml = await (await page.request.get(`${base}/dashboard`)).text();
      expect(dashboardHtml).toMatch(/<h1[^>]*>General<\/h1>/);
      expect(dashboardHtml).toContain('hydrated@example.com');
      await page.goto(`${base}/dashboard#subscriptions`);
      await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
      const checkoutHtml = await (await page.request.get(`${base}/products-checkout`)).text();
      expect(checkoutHtml).toMatch(/<h1[^>]*>Choose Your Plan<\/h1>/);
      // The plugin's browser back from Stripe: rendered on the server for that return (its query),
      // so the app takes it over without a mismatch.
      const returned = `${base}/subscription-update?client=ue&updated=true`;
      expect(await (await page.request.get(returned)).text()).toContain('You can close this tab and return to Unreal Engine.');
      await page.goto(returned);
      await page.getByText('You can close this tab and return to Unreal Engine.').waitFor();
      await page.mouse.click(5, 5);
      await page.waitForLoadState('networkidle');
      await page.goto(`${base}/products-checkout`);
      await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.getByRole('link', { name: 'Logout' }).click();
      await waitForPath(page, '/download');
      await page.unroute(/\/assets\/startApp-[\w-]+\.js$/);

      await runCli(stories.product.dataDir, [
        'release',
        '--version',
        RELEASED.version,
        '--ue55',
        RELEASED.ue55,
        '--ue56',
        RELEASED.ue56,
        '--ue57',
        RELEASED.ue57,
      ]);
      // The page is rendered on the server with the build released a moment ago.
      const html = await (await fetch(`${base}/download`)).text();
      expect(html).toContain(`Version ${RELEASED.version}`);
      await page.goto(`${base}/download`);
      await page.getByText(`Version ${RELEASED.version}`).waitFor();
      expect(await page.getByRole('link', { name: 'Download for Unreal Engine 5.6' }).getAttribute('href')).toBe(RELEASED.ue56);
      await page.getByRole('link', { name: 'Login', exact: true }).click();
      await page.getByRole('heading', { name: 'Sign in to Sage' }).waitFor();
      expect(await page.title()).toBe('Sign in · Sage Dashboard');
      expect(problems).toEqual([]);
    });
  });
});
