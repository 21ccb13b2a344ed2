// Story (issue 40): staff must have a second factor. An admin made with `create-admin` is told so;
// signed in by password, /admin walks them through the setup instead of opening; they turn two-step
// sign-in on in the Account section (the code computed here from the key shown, as an app would),
// see their recovery codes once, sign out, cannot reach /admin with the password alone, and get in
// with the code. axe clean at 1280 and 360 px.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../server/services/secondFactor/totp';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, control, field, runCli, setupStories, signInThroughUi, uniqueEmail, waitForPath } from './harness';
import { expectNoHorizontalOverflow } from './screenWidth';

const PASSWORD = 'a staff password of mine';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

/** axe and the screen's width, at 1280 and at 360 px. */
async function checkBothWidths(page: Page, where: string) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, `${where} at ${viewport.width} px`);
    await expectNoHorizontalOverflow(page, `${where} at ${viewport.width} px`);
  }
  await page.setViewportSize(DESKTOP);
}

describe.skipIf(SKIP_E2E)('Staff must have a second factor', () => {
  const stories = setupStories({ env: () => ({ STAFF_SECOND_FACTOR: 'required' }) });

  it('an admin enrols TOTP in Account, signs out, cannot reach /admin without the code, signs in with it', async () => {
    const { page, story } = await stories.newPage();
    await story('second-factor', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('staff');
      const printed = await runCli(stories.product.dataDir, ['create-admin', '--email', email, '--password', PASSWORD]);
      expect(printed).toMatch(/Before opening the console, the account must set up a second factor/);

      await signInThroughUi(page, base, email, PASSWORD);
      // The console walks them through the setup instead of opening.
      await page.goto(`${base}/admin`);
      await page.getByRole('heading', { level: 1, name: 'Set up two-step sign-in' }).waitFor();
      expect(await page.getByText('Grove Users').count()).toBe(0);
      await checkBothWidths(page, 'the console’s second-factor setup');

      // They set it up in the Account section.
      await page.goto(`${base}/dashboard#account`);
      const panel = page.getByRole('region', { name: 'Two-step sign-in' });
      await panel.getByRole('button', { name: 'Set up authenticator app' }).click();
      await panel.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
      const secret = (await panel.getByLabel('Setup key').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await checkBothWidths(page, 'the Account section’s setup');
      await field(page, 'Authentication code').fill(totpCode(secret, Date.now()));
      await panel.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      const codes = panel.getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      expect(await codes.getByRole('listitem').count()).toBe(10);
      await checkBothWidths(page, 'the recovery codes');
      await panel.getByRole('button', { name: 'Done' }).click();
      await panel.getByText(/On with an authenticator app/).waitFor();
      expect(await codes.count()).toBe(0);

      // Signed out, the password alone opens nothing.
      await page.context().clearCookies();
      await page.goto(`${base}/login`);
      await field(page, 'Email').fill(email);
      await field(page, 'Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in with e-mail', exact: true }).click();
      await field(page, 'Authentication code').waitFor();
      await checkBothWidths(page, 'the sign-in’s code step');
      const console = await page.context().newPage();
      await console.goto(`${base}/admin`);
      await console.waitForURL((u) => u.pathname !== '/admin');
      expect(await console.getByText('Grove Users').count()).toBe(0);
      await console.close();

      // The next code of the app (the one of this step was used to turn it on) signs in.
      await field(page, 'Authentication code').fill(totpCode(secret, Date.now() + 30_000));
      await control(page, 'Verify').click();
      await waitForPath(page, '/dashboard');
      await page.goto(`${base}/admin`);
      await page.getByText('Grove Users').first().waitFor();
    });
  });
});
