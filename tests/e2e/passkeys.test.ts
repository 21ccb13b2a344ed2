// Story (issue 40): a legacy user adds a passkey in Account, signs out, and signs in again with
// "Sign in with a passkey" and no password; once the passkey is removed (with the password) the
// same passkey is told it is unknown. The authenticator is Chromium's own virtual one (the DevTools
// protocol's WebAuthn domain): real ceremonies, real signatures, no person at a fingerprint reader.
// WebAuthn wants a host name for its relying party, so this product is reached as localhost.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES } from '../../contract/passkeys';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, control, field, registerThroughUi, setupStories, toast, uniqueEmail, waitForPath } from './harness';
import { expectNoHorizontalOverflow } from './screenWidth';

const PASSWORD = 'correct horse battery';
const PHONE = { width: 360, height: 740 };

/** A platform authenticator with user verification (a laptop's fingerprint reader), inside this page's Chromium. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    async credentials() {
      return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    },
  };
}

/** In Account: names a passkey and makes it with the browser's ceremony. */
async function addPasskey(page: Page, base: string, name: string) {
  await page.goto(`${base}/dashboard#account`);
  const panel = page.getByRole('region', { name: 'Passkeys' });
  await panel.getByText('You have no passkey yet.').waitFor();
  await field(page, 'Passkey name').fill(name);
  await panel.getByRole('button', { name: 'Add a passkey' }).click();
  await toast(page, 'Passkey added').waitFor();
  await panel.getByText(name, { exact: true }).waitFor();
  return panel;
}

async function signInWithPasskey(page: Page, base: string) {
  await page.goto(`${base}/login`);
  await control(page, 'Sign in with a passkey').click();
}

describe.skipIf(SKIP_E2E)('A legacy user signs in with a passkey', () => {
  const stories = setupStories({ hostname: 'localhost' });

  it('adds a passkey in Account, signs out, signs in with it; removed, it is unknown', async () => {
    const { page, story } = await stories.newPage();
    await story('passkey-sign-in', async () => {
      const base = stories.product.url;
      const authenticator = await virtualAuthenticator(page);
      const email = uniqueEmail('passkey');
      await registerThroughUi(page, base, email, PASSWORD);

      const panel = await addPasskey(page, base, 'Story laptop');
      await panel.getByText(/Never used/).waitFor();
      await expectNoAxeViolations(page, 'the Passkeys panel with a passkey');
      const [credential] = await authenticator.credentials();
      expect(credential?.isResidentCredential).toBe(true);
      expect(credential?.rpId).toBe('localhost');

      // Signed out, the passkey alone signs in: no e-mail, no password.
      await control(page, 'Logout').click();
      await control(page, 'Login').waitFor();
      await page.goto(`${base}/login`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
      await expectNoAxeViolations(page, 'the sign-in page');
      await control(page, 'Sign in with a passkey').click();
      await waitForPath(page, '/dashboard');
      const me = (await (await page.request.get(`${base}/api/user`)).json()) as { email: string };
      expect(me.email).toBe(email);

      // Removing it asks for the password.
      await page.goto(`${base}/dashboard#account`);
      // The sign-in shows as its last use: "Never used" is gone.
      await panel.getByRole('button', { name: 'Remove Story laptop' }).waitFor();
      expect(await panel.getByText('Never used').count()).toBe(0);
      await panel.getByRole('button', { name: 'Remove Story laptop' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove "Story laptop"?' });
      // The field is a required one: its label ends in the "*" marker.
      await dialog.getByLabel(/^Password\s*\*?$/).fill('not my password');
      await dialog.getByRole('button', { name: 'Remove passkey' }).click();
      await dialog.getByText(PASSKEY_MESSAGES.wrongPassword).waitFor();
      await expectNoAxeViolations(page, 'the remove dialog');
      await dialog.getByLabel(/^Password\s*\*?$/).fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Remove passkey' }).click();
      await toast(page, 'Passkey removed').waitFor();
      await panel.getByText('You have no passkey yet.').waitFor();

      // The device still holds it, but Sage no longer knows it.
      await control(page, 'Logout').click();
      await control(page, 'Login').waitFor();
      await signInWithPasskey(page, base);
      await page.getByRole('alert').getByText(PASSKEY_MESSAGES.unknown).waitFor();
      await expectNoAxeViolations(page, 'the sign-in page saying the passkey is unknown');
      expect((await page.request.get(`${base}/api/user`)).status()).toBe(401);
    });
  });

  it('on a 360 px phone: the panel and the sign-in page fit the screen and are accessible', async () => {
    const { page, story } = await stories.newPage(PHONE);
    await story('passkey-phone', async () => {
      const base = stories.product.url;
      await virtualAuthenticator(page);
      await registerThroughUi(page, base, uniqueEmail('passkey-phone'), PASSWORD);
      await addPasskey(page, base, 'A phone with a rather long passkey name');
      await expectNoAxeViolations(page, 'the Passkeys panel on a phone');
      await expectNoHorizontalOverflow(page, 'the Account section on a phone');

      await page.context().clearCookies();
      await page.goto(`${base}/login`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
      await expectNoAxeViolations(page, 'the sign-in page on a phone');
      await expectNoHorizontalOverflow(page, 'the sign-in page on a phone');
      await control(page, 'Sign in with a passkey').click();
      await waitForPath(page, '/dashboard');
    });
  });
});
