// Story: on a phone, the navigation links live in a side drawer opened by the menu button.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SKIP_E2E, control, setupStories, waitForPath } from './harness';

const PHONE = { width: 375, height: 812 };
const LINKS = ['About', 'Pricing', 'Contact Us', 'Download', 'Login'];

/** Which of the navigation links can be seen anywhere on the page. */
async function visibleLinks(page: Page): Promise<string[]> {
  const seen = await Promise.all(LINKS.map(async (name) => ((await control(page, name).isVisible()) ? name : '')));
  return seen.filter(Boolean);
}

describe.skipIf(SKIP_E2E)('A visitor on a 375 px wide phone uses the menu drawer', () => {
  const stories = setupStories();

  it('hides the links behind Open menu; a link in the drawer navigates and closes the drawer', async () => {
    const { page, story } = await stories.newPage(PHONE);
    await story('mobile-drawer', async () => {
      const base = stories.product.url;
      await page.goto(`${base}/download`);
      await page.getByRole('heading', { name: 'Download Sage' }).waitFor();

      // The bar shows only the menu button; none of the links.
      const openMenu = page.getByRole('button', { name: 'Open menu', exact: true });
      await openMenu.waitFor();
      expect(await visibleLinks(page)).toEqual([]);

      // Open menu slides in a 300 px drawer holding every link.
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await openMenu.click();
      await drawer.waitFor();
      await control(page, 'Login').waitFor();
      expect(await visibleLinks(page)).toEqual(LINKS);
      await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(300);

      // Login in the drawer takes me to the login screen and closes the drawer.
      await control(page, 'Login').click();
      await waitForPath(page, '/login');
      await drawer.waitFor({ state: 'hidden' });
      expect(await visibleLinks(page)).toEqual([]);

      // Again: Download in the drawer takes me back to the download page and closes the drawer.
      await openMenu.click();
      await drawer.waitFor();
      await control(page, 'Download').click();
      await waitForPath(page, '/download');
      await page.getByRole('heading', { name: 'Download Sage' }).waitFor();
      await drawer.waitFor({ state: 'hidden' });
      expect(await visibleLinks(page)).toEqual([]);
    });
  });
});
