// Story (issue 26): a player without a plan has a free allowance of 5 queries a month. Their plugin
// spends 4: the dashboard's Usage bar moves. The sixth query is refused (402). Staff see the same
// figures in the console and grant 10 credits with a reason; the player sees them, and the next
// query is paid from them.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { UsageRecorded } from '../../contract/usage';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, control, field, registerThroughUi, runCli, setupStories, signInThroughUi, uniqueEmail } from './harness';

const ADMIN_PASSWORD = 'admin correct horse';
const PLAYER_PASSWORD = 'player password 1';

describe.skipIf(SKIP_E2E)('A player spends queries and staff grant credits', () => {
  const stories = setupStories({ env: () => ({ FREE_QUERIES_PER_MONTH: '5' }) });

  /** The plugin's own call: one use of `units`, by the license token. */
  const spend = (token: string, units: number, projectId = 'ShooterGame') =>
    fetch(`${stories.product.url}/api/ingest/usage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: crypto.randomUUID(), units, projectId, engineVersion: '5.6', pluginVersion: '1.4.0' }),
    });

  async function openUsage(page: Page) {
    // Just signed up, the dashboard has yet to choose its section (#general): going to #usage before
    // that has been seen to be overwritten by it.
    if (new URL(page.url()).pathname === '/dashboard') await page.waitForURL((u) => u.hash !== '');
    await page.goto(`${stories.product.url}/dashboard#usage`);
    await page.getByRole('heading', { name: 'Usage', exact: true }).waitFor();
  }

  it('shows the bar move, refuses past the allowance, and shows credits staff grant', async () => {
    const { page, story } = await stories.newPage({ width: 1280, height: 900 });
    await story('usage', async () => {
      const base = stories.product.url;
      const playerEmail = uniqueEmail('usage');
      await registerThroughUi(page, base, playerEmail, PLAYER_PASSWORD);
      const me = (await (await page.request.get(`${base}/api/user`)).json()) as { id: string };
      const license = (await (await page.request.get(`${base}/api/sage/${me.id}/license`)).json()) as { payload: string };
      const { licenseToken } = JSON.parse(license.payload) as { licenseToken: string };

      await openUsage(page);
      const bar = page.getByRole('progressbar', { name: 'Allowance used this period' });
      await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('0');
      await page.getByText('0 of 5 queries used this period').waitFor();
      await expectNoAxeViolations(page, '/dashboard#usage');

      // The plugin spends 4 of the 5 queries.
      for (const units of [1, 3]) expect((await spend(licenseToken, units)).status).toBe(201);
      await page.reload();
      await page.getByText('4 of 5 queries used this period').waitFor();
      expect(await bar.getAttribute('aria-valuenow')).toBe('4');
      await page.getByRole('table', { name: 'By Unreal project' }).getByText('ShooterGame').waitFor();

      // Two more cannot be paid: refused, nothing charged; one can.
      const refused = await spend(licenseToken, 2);
      expect(refused.status).toBe(402);
      expect(((await refused.json()) as { error: string }).error).toBe('quota_exhausted');
      expect((await spend(licenseToken, 1)).status).toBe(201);
      expect((await spend(licenseToken, 1)).status).toBe(402);

      // Staff read the same figures and grant 10 credits with a reason.
      const adminEmail = uniqueEmail('usage-admin');
      await runCli(stories.product.dataDir, ['create-admin', '--email', adminEmail, '--password', ADMIN_PASSWORD]);
      const staff = await stories.newPage({ width: 1280, height: 900 });
      await signInThroughUi(staff.page, base, adminEmail, ADMIN_PASSWORD);
      await staff.page.goto(`${base}/admin/users/${me.id}/show`);
      const panel = staff.page.getByRole('region', { name: 'Usage', exact: true });
      await panel.getByText('5 of 5 queries used').waitFor();
      await control(staff.page, 'Grant or deduct credits').click();
      const dialog = staff.page.getByRole('dialog');
      await field(staff.page, 'Credits').fill('10');
      await field(staff.page, 'Reason').fill('Goodwill: ticket 1234');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await staff.page.getByText('Granted 10 credits. The balance is now 10.').waitFor();

      // The player sees the credits, and the next query is paid from them.
      await page.reload();
      const credits = page.getByRole('definition').filter({ hasText: 'Pack credits never expire.' });
      await credits.getByText('10', { exact: true }).waitFor();
      const paid = (await (await spend(licenseToken, 2)).json()) as UsageRecorded;
      expect(paid.charged).toEqual({ allowance: 0, credits: 2 });
      expect(paid.remaining).toMatchObject({ allowance: 0, credits: 8 });
      await page.reload();
      await credits.getByText('8', { exact: true }).waitFor();
      await expectNoAxeViolations(page, '/dashboard#usage after credits');
    });
  });
});
