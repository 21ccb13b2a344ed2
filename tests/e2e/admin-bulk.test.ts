// Story (issue 28): an admin selects two users on the User List, suspends both with one reason,
// signs them out everywhere and exports just them as CSV; on a 360 px phone the User List and the
// audit log stay as wide as the screen, and axe-core finds nothing to fix on any of it.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import { expectNoHorizontalOverflow } from './screenWidth';
import { SKIP_E2E, control, field, runCli, setupStories, signInThroughUi, transitionsEnded, uniqueEmail } from './harness';

const ADMIN_PASSWORD = 'admin correct horse';
const PHONE = { width: 360, height: 740 };

describe.skipIf(SKIP_E2E)('An admin acts on several users at once', () => {
  const stories = setupStories();

  /** A player with an account, registered through the API. */
  async function player(email: string) {
    const response = await fetch(`${stories.product.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'player password 1' }),
    });
    expect(response.status).toBe(201);
  }

  it('suspends two selected users with a reason, signs them out and exports them; the lists fit a phone', async () => {
    const { page, story } = await stories.newPage();
    await story('admin-bulk', async () => {
      const base = stories.product.url;
      const adminEmail = uniqueEmail('bulk-admin');
      await runCli(stories.product.dataDir, ['create-admin', '--email', adminEmail, '--password', ADMIN_PASSWORD]);
      const tag = `bulk${Date.now()}`;
      const players = [`${tag}-one@example.com`, `${tag}-two@example.com`];
      for (const email of players) await player(email);

      await signInThroughUi(page, base, adminEmail, ADMIN_PASSWORD);
      await page.goto(`${base}/admin/users`);
      await field(page, 'Search').fill(tag);
      for (const email of players) await page.getByRole('cell', { name: email }).waitFor();
      await expect.poll(() => page.getByRole('row').count()).toBe(3); // the header and the two players

      // Select both, suspend with a reason: the confirmation counts them.
      await page.getByRole('checkbox', { name: 'Select all' }).check();
      await page.getByText('2 items selected').waitFor();
      await expectNoAxeViolations(page, 'the User List with two users selected');
      await control(page, 'Suspend').click();
      const suspend = page.getByRole('dialog', { name: 'Suspend 2 users?' });
      await suspend.waitFor();
      await suspend.getByLabel(/^Reason/).fill('Chargebacks on both accounts');
      await expectNoAxeViolations(page, 'the bulk suspension dialog');
      await suspend.getByRole('button', { name: 'Suspend', exact: true }).click();
      await page.getByText('2 users suspended.', { exact: true }).waitFor();
      for (const email of players) {
        const row = page.getByRole('row').filter({ hasText: email });
        await row.getByRole('cell', { name: 'Suspended', exact: true }).waitFor();
      }

      // Sign both out everywhere.
      await page.getByRole('checkbox', { name: 'Select all' }).check();
      await control(page, 'Sign out everywhere').click();
      const signOut = page.getByRole('dialog', { name: 'Sign 2 users out everywhere?' });
      await signOut.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
      await page.getByText('2 users signed out everywhere.', { exact: true }).waitFor();

      // Export just them: the file has the header and their two rows.
      await page.getByRole('checkbox', { name: 'Select all' }).check();
      await control(page, 'Export selected').click();
      const exportDialog = page.getByRole('dialog', { name: 'Export 2 users?' });
      const download = page.waitForEvent('download');
      await exportDialog.getByRole('button', { name: 'Export', exact: true }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('users-selected.csv');
      const lines = fs
        .readFileSync(await file.path(), 'utf8')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe('id,username,email,status,isAdmin,epicDisplayName,createdAt');
      expect(
        lines
          .slice(1)
          .map((line) => line.split(',')[2])
          .sort(),
      ).toEqual(players);
      expect(lines.slice(1).every((line) => line.split(',')[3] === 'Suspended')).toBe(true);

      // A phone: both lists are as wide as the screen, and readable.
      await page.setViewportSize(PHONE);
      for (const [path, shows] of [
        ['/admin/users', players[0]!],
        ['/admin/audit', 'users.export_selected'],
      ] as const) {
        await page.goto(`${base}${path}`);
        await page.getByText(shows).first().waitFor();
        await transitionsEnded(page); // MUI's entrance transitions
        await expectNoHorizontalOverflow(page, `${path} on a phone`);
        await expectNoAxeViolations(page, `${path} at ${PHONE.width} px`);
      }
    });
  }, 120_000);
});
