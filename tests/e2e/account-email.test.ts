// Story (issue 27): a customer changes their e-mail from the Account section. A link goes to the
// new address; until it is opened the old address still signs in. Following the link from the mail
// brings them back to the dashboard, which says the address changed and shows the new one, and the
// new address is the one that signs in from then on. Opened in a browser that is not signed in
// (a phone), the link lands on the sign-in page, which says the same, and signs in with the new address.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EMAIL_CHANGE_OUTCOMES } from '../../contract/accountEmail';
import { expectNoAxeViolations } from './axe';
import {
  SKIP_E2E,
  control,
  field,
  readMailLink,
  registerThroughUi,
  setupStories,
  signInThroughUi,
  toast,
  transitionsEnded,
  uniqueEmail,
  waitForPath,
} from './harness';

const PASSWORD = 'correct horse battery';

/**
 * On the dashboard's E-mail panel: asks for the change to `newEmail`, and waits for the link to be
 * sent. The browser signed in minutes ago, so the panel asks for no password (decision 034).
 */
async function askForChange(page: Page, panel: Locator, newEmail: string) {
  await field(page, 'New e-mail').fill(newEmail);
  expect(await panel.getByLabel(/^Current password/).count()).toBe(0);
  await control(page, 'Send link').click();
  await toast(page, 'Check your new inbox').waitFor();
}

describe.skipIf(SKIP_E2E)('A customer changes their e-mail', () => {
  const stories = setupStories();

  it('asks for a link at the new address, follows it from the mail, and sees the new address on the dashboard', async () => {
    const { page, story } = await stories.newPage();
    await story('change-email', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('before');
      const newEmail = uniqueEmail('after');
      await registerThroughUi(page, base, email, PASSWORD);

      // My account: the E-mail panel shows my address, not yet verified.
      await page.goto(`${base}/dashboard#account`);
      const panel = page.getByRole('region', { name: 'E-mail' });
      await panel.getByText(email, { exact: true }).waitFor();
      await panel.getByText('Not verified', { exact: true }).waitFor();
      await expectNoAxeViolations(page, 'the Account section with the E-mail panel');

      // I ask for the change (I signed in here just now: no password asked); a link goes to the new address.
      await askForChange(page, panel, newEmail);
      await panel
        .getByRole('status')
        .filter({ hasText: `A link was sent to ${newEmail}.` })
        .waitFor();
      // The fields fade back from disabled: axe reads their colours once they have.
      await transitionsEnded(page);
      await expectNoAxeViolations(page, 'the E-mail panel with a change waiting');

      // Until I open it, my old address is still the one that signs in.
      const check = await page.context().browser()!.newContext();
      const other = await check.newPage();
      await signInThroughUi(other, base, email, PASSWORD);
      await check.close();

      // I open the link from the mail: back on the dashboard, the change is said and shown.
      const link = await readMailLink(stories.product.dataDir, newEmail, '/api/account/email/confirm?token=');
      await page.goto(link);
      await waitForPath(page, '/dashboard');
      await toast(page, 'E-mail changed').waitFor();
      await page.waitForURL((url) => !url.search.includes('emailChange') && url.hash === '#account');
      await panel.getByText(newEmail, { exact: true }).waitFor();
      await panel.getByText('Verified', { exact: true }).waitFor();
      expect(await panel.getByRole('status').count()).toBe(0);

      // The new address signs in from now on.
      await page.context().clearCookies();
      await signInThroughUi(page, base, newEmail, PASSWORD);
    });
  });

  it('opens the link on a phone that is not signed in: the sign-in page says the address changed, and it signs in with it', async () => {
    const { page, story } = await stories.newPage();
    await story('change-email-signed-out', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('before');
      const newEmail = uniqueEmail('after');
      await registerThroughUi(page, base, email, PASSWORD);
      await page.goto(`${base}/dashboard#account`);
      const panel = page.getByRole('region', { name: 'E-mail' });
      await panel.getByText(email, { exact: true }).waitFor();
      await askForChange(page, panel, newEmail);

      // On the phone, never signed in here: the sign-in page says the change was made, and has the focus on it.
      const link = await readMailLink(stories.product.dataDir, newEmail, '/api/account/email/confirm?token=');
      const phoneBrowser = await page
        .context()
        .browser()!
        .newContext({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
      try {
        const phone = await phoneBrowser.newPage();
        await phone.goto(link);
        await waitForPath(phone, '/login');
        await phone.getByRole('status', { name: 'E-mail changed' }).filter({ hasText: EMAIL_CHANGE_OUTCOMES.changed.message }).waitFor();
        await phone.getByRole('heading', { level: 2, name: 'E-mail changed' }).waitFor();
        await phone.locator('[role="status"]:focus').filter({ hasText: 'E-mail changed' }).waitFor();
        await expectNoAxeViolations(phone, 'the sign-in page after an e-mail change link, signed out');

        // The link works once: opened again, the page says so.
        await phone.goto(link);
        await waitForPath(phone, '/login');
        await phone
          .getByRole('alert', { name: 'E-mail not changed' })
          .filter({ hasText: EMAIL_CHANGE_OUTCOMES.invalid_token.message })
          .waitFor();
        await expectNoAxeViolations(phone, 'the sign-in page after a used e-mail change link, signed out');

        // The way on is the form under it: the new address signs in.
        await field(phone, 'Email').fill(newEmail);
        await field(phone, 'Password').fill(PASSWORD);
        await phone.getByRole('button', { name: 'Sign in with e-mail', exact: true }).click();
        await waitForPath(phone, '/dashboard');
      } finally {
        await phoneBrowser.close();
      }
    });
  });
});
