// Story (issue 27): an admin made with `create-admin` signs in with the one-time password it
// printed, must set a password of their own before anything else (the console included), and then
// reaches the console; a user reissues their license from the Account section, and the plugin's
// old token is refused from then on.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import {
  SKIP_E2E,
  control,
  field,
  registerThroughUi,
  runCli,
  setupStories,
  signInThroughUi,
  toast,
  uniqueEmail,
  waitForPath,
} from './harness';

const NEW_PASSWORD = 'my own admin password';

/** What `GET /api/license` answers the plugin holding `token`: its status and error code. */
async function pluginAsksWith(base: string, token: string): Promise<{ status: number; error?: string }> {
  const response = await fetch(`${base}/api/license`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, error: body.error };
}

/** The signed-in user's license token, from their own license file (as the plugin's hand-off gives it). */
async function licenseTokenOf(page: Page, base: string): Promise<string> {
  const { id } = (await (await page.request.get(`${base}/api/user`)).json()) as { id: string };
  const file = (await (await page.request.get(`${base}/api/sage/${id}/license`)).json()) as { payload: string };
  return (JSON.parse(file.payload) as { licenseToken: string }).licenseToken;
}

describe.skipIf(SKIP_E2E)('A customer looks after their own password and license', () => {
  const stories = setupStories();

  it('an admin with a one-time password must set their own, then reaches the console', async () => {
    const { page, story } = await stories.newPage();
    await story('one-time-password', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('boss');
      const printed = await runCli(stories.product.dataDir, ['create-admin', '--email', email]);
      const oneTime = /One-time password \(shown only now\): (\S+)/.exec(printed)?.[1];
      expect(oneTime, printed).toBeTruthy();

      await signInThroughUi(page, base, email, oneTime!);
      const form = page.getByRole('heading', { level: 1, name: 'Set your own password' });
      await form.waitFor();
      await expectNoAxeViolations(page, 'the one-time password form');

      // The console is closed until then: its address shows the same form.
      await page.goto(`${base}/admin`);
      await form.waitFor();
      expect(await page.getByText('Grove Users').count()).toBe(0);

      await field(page, 'Current password').fill(oneTime!);
      await field(page, 'New password').fill(NEW_PASSWORD);
      await field(page, 'Confirm new password').fill(NEW_PASSWORD);
      await control(page, 'Set my password').click();

      await page.getByText('Grove Users').first().waitFor();
      await waitForPath(page, '/admin');
      expect(await form.count()).toBe(0);

      // The one-time password is spent; the new one signs in, straight to the dashboard.
      await page.context().clearCookies();
      await signInThroughUi(page, base, email, NEW_PASSWORD);
      await page.getByRole('heading', { level: 1, name: 'General' }).waitFor();
    });
  });

  it('a user reissues their license: the plugin’s old token is refused', async () => {
    const { page, story } = await stories.newPage();
    await story('reissue-license', async () => {
      const base = stories.product.url;
      await registerThroughUi(page, base, uniqueEmail('reissue'), 'correct horse battery');
      const before = await licenseTokenOf(page, base);
      expect(await pluginAsksWith(base, before)).toEqual({ status: 200, error: undefined });

      await page.goto(`${base}/dashboard#account`);
      const panel = page.getByRole('region', { name: 'License' });
      await panel.waitFor();
      await panel.getByRole('button', { name: 'Reissue my license' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reissue your license?' });
      await dialog.getByText(/Every Sage plugin install must sign in again/).waitFor();
      await expectNoAxeViolations(page, 'the reissue confirmation');
      await dialog.getByRole('button', { name: 'Reissue license' }).click();
      await toast(page, 'License reissued').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await expectNoAxeViolations(page, 'the Account section');

      expect(await pluginAsksWith(base, before)).toEqual({ status: 401, error: 'license_revoked' });
      const after = await licenseTokenOf(page, base);
      expect(after).not.toBe(before);
      expect((await pluginAsksWith(base, after)).status).toBe(200);
    });
  });
});
