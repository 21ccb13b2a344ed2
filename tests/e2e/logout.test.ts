// Story: Logout signs out from Sage's own pages only. The navigation bar's Logout link is a
// same-origin navigation, so it signs out at once; the same address opened any other way (a link
// on another origin, a typed address) ends nothing and asks first on /logout.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKIP_E2E, control, registerThroughUi, setupStories, signInThroughUi, uniqueEmail, waitForPath } from './harness';

const PASSWORD = 'correct horse battery';

/** What `GET /api/user` answers this browser: 200 signed in, 401 signed out. */
async function userStatus(page: Page, base: string): Promise<number> {
  return (await page.request.get(`${base}/api/user`)).status();
}

describe.skipIf(SKIP_E2E)('Logout signs out only from our own pages', () => {
  const stories = setupStories();

  // Another origin's page with a link to our sign-out address: served on another loopback port,
  // it is the same site when opened as 127.0.0.1 and another site when opened as localhost.
  let elsewhere: http.Server;
  let elsewherePort = 0;
  beforeAll(async () => {
    elsewhere = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Elsewhere</title><a href="${stories.product.url}/api/logout">A sign-out link</a>`);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    elsewherePort = (elsewhere.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => elsewhere?.close(resolve));
  });

  it("the navigation bar's Logout signs out at once: Chromium marks the click same-origin", async () => {
    const { page, story } = await stories.newPage();
    await story('logout-nav-link', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('logout-nav');
      await registerThroughUi(page, base, email, PASSWORD);
      await page.getByText(email, { exact: true }).waitFor();

      const logoutRequest = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/logout');
      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
      });
      await control(page, 'Logout').click();
      expect(await (await logoutRequest).headerValue('sec-fetch-site')).toBe('same-origin');

      // Straight back to the public site, signed out, never asked to confirm.
      await waitForPath(page, '/download');
      await control(page, 'Login').waitFor();
      expect(visited).not.toContain('/logout');
      expect(await userStatus(page, base)).toBe(401);
    });
  });

  it('the sign-out address opened from elsewhere ends nothing, asks on /logout, and its button signs out', async () => {
    const { page, story } = await stories.newPage();
    await story('logout-confirm', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('logout-confirm');
      await registerThroughUi(page, base, email, PASSWORD);

      const confirmationShown = async () => {
        await waitForPath(page, '/logout');
        await page.getByRole('heading', { level: 1, name: 'Sign out of Sage?' }).waitFor();
        await page.getByText(`Signed in as ${email}`, { exact: true }).waitFor();
        expect(await userStatus(page, base)).toBe(200);
      };

      // A typed address (Sec-Fetch-Site: none).
      await page.goto(`${base}/api/logout`);
      await confirmationShown();

      // A link on a page of the same site on another port (same-site), and of another site (cross-site).
      for (const origin of [`http://127.0.0.1:${elsewherePort}`, `http://localhost:${elsewherePort}`]) {
        await page.goto(origin);
        const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/logout');
        await page.getByRole('link', { name: 'A sign-out link' }).click();
        expect(await (await request).headerValue('sec-fetch-site'), origin).toBe(origin.includes('localhost') ? 'cross-site' : 'same-site');
        await confirmationShown();
      }

      // Still signed in: the dashboard is mine.
      await control(page, 'Stay signed in').click();
      await waitForPath(page, '/dashboard');
      await page.getByText(email, { exact: true }).waitFor();

      // Back on the confirmation page, the button signs out (a POST from our own page).
      await page.goto(`${base}/api/logout`);
      await waitForPath(page, '/logout');
      const post = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/logout' && r.method() === 'POST');
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await post;
      await waitForPath(page, '/download');
      await control(page, 'Login').waitFor();
      expect(await userStatus(page, base)).toBe(401);

      // Signed out, the page has nothing to offer but the way home.
      await page.goto(`${base}/logout`);
      await page.getByRole('heading', { level: 1, name: 'You are not signed in' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign out', exact: true }).count()).toBe(0);
      await control(page, 'Return to Home').click();
      await waitForPath(page, '/download');

      // And signing in again works as before.
      await signInThroughUi(page, base, email, PASSWORD);
    });
  });
});
