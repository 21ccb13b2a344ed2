// Story (issue 14): on a product filled by `seed-demo`, an admin opens Home and reads the business
// in charts over 30 and 90 days. Then a player's license token leaks: the admin reissues the
// license and signs the player out everywhere; the plugin's old token is refused with the words
// that tell it to sign in again, and the new one works.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LICENSE_REVOKED } from '../../contract/license';
import { SKIP_E2E, control, field, licenseTokenAsAdmin, runCli, setupStories, signInThroughUi, uniqueEmail } from './harness';

const ADMIN_PASSWORD = 'admin correct horse';
/** What a drawn chart holds: bars, a line, a ring's slices (src/admin/home/charts). */
const DRAWN = '[data-chart-mark], [data-chart-line], [data-chart-slice]';

const CHARTS = [
  'Sign-ups per day',
  'Plugin sign-ins per day',
  'Messages stored per day',
  'Subscriptions by status',
  'Monthly recurring revenue',
  'Trial conversions',
  'Credits sold',
];

describe.skipIf(SKIP_E2E)('An admin reads the business and cuts off a leaked license', () => {
  const stories = setupStories();

  /** The plugin's own call: its license file, by its license token. */
  const licenseBy = (token: string) => fetch(`${stories.product.url}/api/license`, { headers: { authorization: `Bearer ${token}` } });

  /** The license token an admin downloads in the user's license file (no other admin answer carries it). */
  const shownToken = (page: Page, userId: string) => licenseTokenAsAdmin(page, stories.product.url, userId);

  it('sees the charts over seeded data, reissues a license, signs the player out everywhere and searches the users', async () => {
    const { page, story } = await stories.newPage({ width: 1280, height: 900 });
    await story('admin-insights', async () => {
      const base = stories.product.url;
      const { dataDir } = stories.product;
      // More users than a list search shows (SEARCH_LIST_LIMIT): every seeded e-mail has `example`.
      await runCli(dataDir, ['seed-demo', '--users', '1100', '--messages', '2000']);
      const adminEmail = uniqueEmail('admin');
      await runCli(dataDir, ['create-admin', '--email', adminEmail, '--password', ADMIN_PASSWORD]);

      // A player signed in on their machine; their plugin holds the license token.
      const playerEmail = uniqueEmail('player');
      const registered = await fetch(`${base}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: playerEmail, password: 'player password 1' }),
      });
      const playerCookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const player = (await (await fetch(`${base}/api/user`, { headers: { cookie: playerCookie } })).json()) as { id: string };

      await signInThroughUi(page, base, adminEmail, ADMIN_PASSWORD);
      await page.goto(`${base}/admin`);

      // Home: the seven charts of the last 30 UTC days, each described and drawn, with no input at all (issue 37).
      const insights = page.getByRole('region', { name: 'The business at a glance' });
      await insights.getByText('Days are UTC days. Last 30 days, up to today.').waitFor();
      for (const name of CHARTS) {
        await insights.getByRole('figure', { name }).locator(DRAWN).first().waitFor();
      }
      const signUps = insights.getByRole('figure', { name: 'Sign-ups per day' });
      await expect.poll(() => signUps.getAttribute('aria-describedby')).toBeTruthy();
      const description = async (name: string) => {
        const id = await insights.getByRole('figure', { name }).getAttribute('aria-describedby');
        return page.locator(`[id="${id}"]`).innerText();
      };
      expect(await description('Sign-ups per day')).toMatch(
        /^[\d,]+ sign-ups in the last 30 days: [\d,]+ with Epic, [\d,]+ with e-mail\.$/,
      );
      expect(await description('Subscriptions by status')).toMatch(/^[\d,]+ subscriptions now: .*active/);
      expect(await description('Monthly recurring revenue')).toMatch(/^Active and past-due subscriptions bring .+ a month/);
      // The seeded sign-ups are drawn as bars (stacked: Epic and e-mail).
      expect(await signUps.locator('[data-chart-mark]').count()).toBeGreaterThan(20);

      // 90 days: the range the admin picks, read again (perhaps clicked before the app runs the Home).
      await insights.getByRole('group', { name: 'Range' }).getByRole('button', { name: '90 days' }).click();
      await insights.getByText('Days are UTC days. Last 90 days, up to today.').waitFor();
      await expect.poll(() => description('Sign-ups per day')).toMatch(/in the last 90 days/);
      // The figures behind a chart, by keyboard.
      await signUps.getByText('Show the figures').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => signUps.getByRole('table', { name: 'Sign-ups per day' }).getByRole('row').count()).toBe(91);

      // The player's view: find them, read their account, reissue the license.
      await page.getByRole('menuitem', { name: 'Search' }).click();
      await field(page, 'Search users').fill(playerEmail);
      await control(page, 'Search').click();
      await page.getByRole('link', { name: new RegExp(playerEmail.replace(/[.+]/g, '\\$&')) }).click();
      await page.getByText('Active sessions').waitFor();
      await page.getByText(/with email and password$/).waitFor();

      const oldToken = await shownToken(page, player.id);
      expect((await licenseBy(oldToken)).status).toBe(200);

      await control(page, 'Reissue license').click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('License reissued. The old token no longer works.').first().waitFor();

      const refused = await licenseBy(oldToken);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual(LICENSE_REVOKED);
      const newToken = await shownToken(page, player.id);
      expect(newToken).not.toBe(oldToken);
      // The page shows no token (issue 36): staff see a token only in the license file they download.
      expect(await page.getByText(newToken).count()).toBe(0);
      expect((await licenseBy(newToken)).status).toBe(200);

      // Sign out everywhere: the player's browser session ends at once.
      expect((await fetch(`${base}/api/user`, { headers: { cookie: playerCookie } })).status).toBe(200);
      await control(page, 'Sign out everywhere').click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Signed out everywhere: 1 session ended').first().waitFor();
      expect((await fetch(`${base}/api/user`, { headers: { cookie: playerCookie } })).status).toBe(401);

      // Both are in the audit log, without the tokens.
      await page.getByRole('menuitem', { name: 'Audit Log' }).click();
      await page.getByText('license.reissue').first().waitFor();
      await page.getByText('user.sessions.revoke').first().waitFor();
      expect(await page.getByText(oldToken).count()).toBe(0);

      // The User List's search: a term every user has reaches the search's limit and says so; the
      // player's address finds them alone.
      await page.getByRole('menuitem', { name: 'User List' }).click();
      const searchBox = page.getByRole('textbox', { name: 'Search' });
      await searchBox.fill('example');
      const limitNote = page.getByRole('status').filter({ hasText: 'A search lists at most 1,000 users. Add to it to narrow it down.' });
      await limitNote.waitFor();
      await page.getByText('1-25 of 1000').waitFor();
      await searchBox.fill(playerEmail);
      await page.getByRole('cell', { name: playerEmail }).waitFor();
      await page.getByText('1-1 of 1').waitFor();
      expect(await limitNote.count()).toBe(0);
    });
  });
});
