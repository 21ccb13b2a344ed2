// Story (issues 28, 37): a member of the support team, made with `create-admin --role support`, signs
// in, finds a player, suspends them with a reason and writes a note; Edit, Delete, the license file
// and the export of every user are shown switched off with the reason, Release says who may release;
// the server refuses those calls too.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, control, field, runCli, setupStories, signInThroughUi, uniqueEmail } from './harness';

const PASSWORD = 'support correct horse';

describe.skipIf(SKIP_E2E)('A support team member in the console', () => {
  const stories = setupStories();

  it('takes the actions a ticket needs, is told why the rest is off, and is refused them by the server', async () => {
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
      const exportAll = page.getByRole('button', { name: 'Export', exact: true });
      await expect.poll(() => exportAll.isDisabled()).toBe(true);
      expect(await exportAll.getAttribute('aria-describedby')).toBeTruthy();
      await page.getByText('Only admins can export every user').waitFor();
      // The story opens the row the search found: the list asks again 0.5 s after the last key.
      const searched = page.waitForResponse(
        (answer) => answer.url().includes('/api/admin/users?') && answer.url().includes('roles-player'),
      );
      await field(page, 'Search').fill(playerEmail);
      await searched;
      await page.getByRole('cell', { name: playerEmail }).click();
      await page.waitForURL(/\/admin\/users\/[^/]+\/show$/);
      await control(page, 'Sign out everywhere').waitFor();
      // The user list is gone: the user's page is the page.
      await field(page, 'Search').waitFor({ state: 'detached' });
      // Staff see no license token (issue 36), and support may not download the license file.
      expect(await page.getByText('License Token').count()).toBe(0);

      // What support may not do is on the page switched off, each with its reason (issue 37).
      const refused = [
        [page.getByRole('link', { name: 'Edit', exact: true }), 'Only admins can edit users'],
        [page.getByRole('button', { name: 'Delete', exact: true }), 'Only admins can delete users'],
        [page.getByRole('button', { name: 'Download License', exact: true }), 'Only admins can download licenses'],
      ] as const;
      for (const [refusedControl, reason] of refused) {
        await expect
          .poll(() => refusedControl.getAttribute('aria-disabled').then((a) => a ?? refusedControl.getAttribute('disabled')))
          .not.toBeNull();
        const describedBy = await refusedControl.getAttribute('aria-describedby');
        expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(reason);
        await page.getByText(reason, { exact: true }).waitFor();
      }
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
      const refusedExport = await page.evaluate(async () => {
        const answer = await fetch('/api/admin/users/export');
        return { status: answer.status, body: (await answer.json()) as unknown };
      });
      expect(refusedExport).toEqual({ status: 403, body: { error: 'role_forbidden', message: 'Your role does not allow this' } });
      // Release is in the menu; its page says who may release, with no form (issue 37).
      await page.getByRole('menuitem', { name: 'Release' }).click();
      await page.getByText('Only admins can release builds').waitFor();
      expect(await page.getByRole('textbox', { name: /version/i }).count()).toBe(0);
      expect(await page.getByText(/not found/i).count()).toBe(0);
    });
  });
});
