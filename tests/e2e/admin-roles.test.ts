// Story (issue 28): a member of the support team, made with `create-admin --role support`, signs
// in, finds a player, suspends them with a reason and writes a note, but is shown no Edit, no
// Delete, no Release and no export of every user; the server refuses those calls too.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, control, field, runCli, setupStories, signInThroughUi, uniqueEmail } from './harness';

const PASSWORD = 'support correct horse';

describe.skipIf(SKIP_E2E)('A support team member in the console', () => {
  const stories = setupStories();

  it('takes the actions a ticket needs, sees none of the rest, and is refused them by the server', async () => {
    const { page, story } = await stories.newPage();
    await story('admin-roles', async () => {
      const base = stories.product.url;
      const supportEmail = uniqueEmail('support');
      await runCli(stories.product.dataDir, ['create-admin', '--email', supportEmail, '--password', PASSWORD, '--role', 'support']);
      const playerEmail = uniqueEmail('roles-player');
      const registered = await fetch(`${base}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: playerEmail, password: 'player password 1' }),
      });
      expect(registered.status).toBe(201);

      await signInThroughUi(page, base, supportEmail, PASSWORD);
      await page.goto(`${base}/admin/users`);
      await field(page, 'Search').fill(playerEmail);
      await page.getByRole('cell', { name: playerEmail }).click();
      await page.waitForURL(/\/admin\/users\/[^/]+\/show$/);
      await control(page, 'Sign out everywhere').waitFor();
      // Staff see no license token (issue 36), and support may not download the license file.
      expect(await page.getByText('License Token').count()).toBe(0);
      expect(await control(page, 'Download License').count()).toBe(0);

      // What support may not do is not on the page, nor in the menu.
      expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      expect(await page.getByRole('menuitem', { name: 'Release' }).count()).toBe(0);
      await expectNoAxeViolations(page, "a user's page as support");

      // A ticket's actions: suspend with a reason, then a note.
      await control(page, 'Suspend').click();
      const suspend = page.getByRole('dialog');
      await suspend.getByLabel(/^Reason/).fill('Chargeback, ticket 1234');
      await suspend.getByRole('button', { name: 'Suspend', exact: true }).click();
      await page.getByText(`${playerEmail} is suspended.`).waitFor();
      const notes = page.getByRole('region', { name: 'Notes' });
      await notes.getByRole('textbox', { name: 'New note' }).fill('Refunded on 3 Nov, see ticket 1234');
      await notes.getByRole('button', { name: 'Save' }).click();
      await notes.getByRole('list', { name: 'Notes, newest first' }).getByText('Refunded on 3 Nov, see ticket 1234').waitFor();

      // The server refuses what the console does not show, with the same session.
      const refused = await page.evaluate(async () => {
        const answer = await fetch('/api/admin/users/export');
        return { status: answer.status, body: (await answer.json()) as unknown };
      });
      expect(refused).toEqual({ status: 403, body: { error: 'role_forbidden', message: 'Your role does not allow this' } });
      await page.goto(`${base}/admin/release`);
      expect(await page.getByRole('textbox', { name: /version/i }).count()).toBe(0);
    });
  });
});
