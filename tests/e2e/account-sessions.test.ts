// Story (issue 27): a customer signed in on two browsers sees both under "Where you're signed in",
// this one marked, and signs the other out with "Sign out everywhere else": the other browser,
// reloaded, is signed out. On a 360 px phone the list stacks and nothing runs off the screen.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import {
  SKIP_E2E,
  control,
  registerThroughUi,
  setupStories,
  signInThroughUi,
  toast,
  transitionsEnded,
  uniqueEmail,
  waitForPath,
} from './harness';

const PASSWORD = 'correct horse battery';
const PHONE = { width: 360, height: 740 };

/** What `GET /api/user` answers this browser: 200 signed in, 401 signed out. */
const userStatus = async (page: Page, base: string) => (await page.request.get(`${base}/api/user`)).status();

/** The page's width beyond the screen's, in pixels (0 when nothing runs off the side). */
const overflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

describe.skipIf(SKIP_E2E)("Where you're signed in", () => {
  const stories = setupStories();

  it('signs the other browser out everywhere else', async () => {
    const mine = await stories.newPage();
    const other = await stories.newPage(PHONE);
    await mine.story('sign-out-everywhere-else', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('sessions');
      await registerThroughUi(mine.page, base, email, PASSWORD);
      await signInThroughUi(other.page, base, email, PASSWORD);

      // The phone sees both sessions, its own marked, in a list that fits the screen.
      await other.page.goto(`${base}/dashboard#account`);
      const phonePanel = other.page.getByRole('region', { name: "Where you're signed in" });
      await phonePanel.getByRole('button', { name: /^End .* \(this device\)$/ }).waitFor();
      expect(await phonePanel.getByRole('listitem').filter({ hasText: 'Chrome on Linux' }).count()).toBe(2);
      expect(await overflow(other.page)).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(other.page, "Where you're signed in on a phone");

      await mine.page.goto(`${base}/dashboard#account`);
      const panel = mine.page.getByRole('region', { name: "Where you're signed in" });
      const browsers = panel.getByRole('list').first();
      await browsers.getByText('This device').waitFor();
      expect(await browsers.getByRole('listitem').count()).toBe(2);
      expect(await browsers.getByText('This device').count()).toBe(1);
      await expectNoAxeViolations(mine.page, "Where you're signed in");

      await panel.getByRole('button', { name: 'Sign out everywhere else' }).click();
      const dialog = mine.page.getByRole('dialog', { name: 'Sign out everywhere else?' });
      await dialog.getByText(/^1 other session will be signed out\./).waitFor();
      // Checked once it has faded in: half-way, its text is paler than it will be.
      await transitionsEnded(mine.page);
      await expectNoAxeViolations(mine.page, 'the sign-out confirmation');
      await dialog.getByRole('button', { name: 'Sign out 1 other session' }).click();
      await toast(mine.page, 'Signed out everywhere else').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await browsers.getByRole('listitem').nth(1).waitFor({ state: 'detached' });
      expect(await browsers.getByRole('listitem').count()).toBe(1);
      expect(await panel.getByRole('button', { name: 'Sign out everywhere else' }).count()).toBe(0);
      expect(await userStatus(mine.page, base)).toBe(200);

      // The other browser, reloaded, is signed out: the dashboard sends it to the public site, and
      // the login page stays to sign in again (it would move a signed-in browser on to the dashboard).
      await other.page.reload();
      await waitForPath(other.page, '/download');
      expect(await userStatus(other.page, base)).toBe(401);
      await other.page.goto(`${base}/login`);
      await control(other.page, 'Sign in with e-mail').waitFor();
      expect(new URL(other.page.url()).pathname).toBe('/login');
    });
  });
});
