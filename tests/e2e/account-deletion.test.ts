// Story (issue 27): a customer with a subscription downloads their data, then deletes their account
// from the Account section.
// They confirm with their username and password, land signed out on /download, can no longer sign
// in, the plugin's license token is refused, and Stripe (the Stripe-compatible test server) shows
// the subscription cancelled at once.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, control, field, registerThroughUi, setupStoriesWithStripe, toast, uniqueEmail, waitForPath } from './harness';

const PASSWORD = 'correct horse battery';

/** The signed-in user's license token, from their own license file (as the plugin's hand-off gives it). */
async function licenseTokenOf(page: Page, base: string): Promise<string> {
  const { id } = (await (await page.request.get(`${base}/api/user`)).json()) as { id: string };
  const file = (await (await page.request.get(`${base}/api/sage/${id}/license`)).json()) as { payload: string };
  return (JSON.parse(file.payload) as { licenseToken: string }).licenseToken;
}

/** The status `GET /api/license` answers the plugin holding `token`. */
async function pluginAsksWith(base: string, token: string): Promise<number> {
  return (await fetch(`${base}/api/license`, { headers: { authorization: `Bearer ${token}` } })).status;
}

describe.skipIf(SKIP_E2E)('A customer deletes their account', () => {
  const { stories, fixture } = setupStoriesWithStripe(async (stripe) => {
    const plan = await stripe.addProduct(
      { name: 'Sage Pro', description: 'Sage in every project', metadata: { popular: 'true', credits_amount: '1000' } },
      { emit: true },
    );
    await stripe.addPrice({ product: plan.id, unit_amount: 1999, currency: 'usd', recurring: { interval: 'month' } }, { emit: true });
  });

  it('downloads the data, then deletes the account: signed out on /download, no sign-in, no license, the subscription cancelled at Stripe', async () => {
    const { page, story } = await stories.newPage();
    await story('account-deletion', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('leaver');
      await registerThroughUi(page, base, email, PASSWORD);

      // A subscription, started at Stripe's checkout.
      await page.goto(`${base}/dashboard#subscriptions`);
      await control(page, 'View Available Plans').click();
      await waitForPath(page, '/products-checkout');
      await control(page, 'Start Free Trial').click();
      await page.waitForURL((url) => url.href.startsWith(`${fixture().url}/checkout/`));
      await control(page, 'Start trial').click();
      await waitForPath(page, '/dashboard');
      await page.getByText('Trial Active', { exact: true }).waitFor();
      const customer = [...fixture().customers.values()].find((c) => c.email === email);
      const subscription = [...fixture().subscriptions.values()].find((s) => s.customer === customer?.id);
      expect(subscription?.status).toBe('trialing');
      const token = await licenseTokenOf(page, base);
      expect(await pluginAsksWith(base, token)).toBe(200);

      // Account, Your data: the whole file downloads before anything is deleted.
      await page.goto(`${base}/dashboard#account`);
      const download = page.waitForEvent('download');
      await page.getByRole('region', { name: 'Your data' }).getByRole('link', { name: 'Download my data' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^sage-data-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(fs.readFileSync(await file.path(), 'utf8')) as Record<string, unknown>;
      expect(JSON.stringify(data)).toContain(email);
      expect(JSON.stringify(data)).not.toContain(token);

      // Account, Delete account: the panel says what goes and what stays; the dialog asks to confirm.
      const panel = page.getByRole('region', { name: 'Delete account' });
      await panel.getByText(/^Kept, without your name or e-mail address/).waitFor();
      await panel.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      // In the dialog: the Account section has a Password panel of its own.
      const username = dialog.getByLabel(/^Your username\s*\*?$/);
      await username.waitFor();
      await expectNoAxeViolations(page, 'the Delete account dialog');
      const shown = /^Type (.+) to confirm\.$/.exec((await dialog.getByText(/^Type .+ to confirm\.$/).textContent()) ?? '')?.[1];
      expect(shown).toBe(email.split('@')[0]);
      await username.fill(shown!);
      await dialog.getByLabel(/^Password\s*\*?$/).fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();

      // Signed out, on the download page.
      await waitForPath(page, '/download');
      await page.getByRole('link', { name: 'Login' }).first().waitFor();
      expect((await page.request.get(`${base}/api/user`)).status()).toBe(401);

      // The account is gone: its e-mail and password no longer sign in.
      await page.goto(`${base}/login`);
      await field(page, 'Email').fill(email);
      await field(page, 'Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in with e-mail', exact: true }).click();
      await toast(page, 'Invalid email or password').waitFor();

      // The plugin's license is refused, and Stripe ended the subscription at once.
      expect(await pluginAsksWith(base, token)).toBe(401);
      expect(fixture().subscriptions.get(subscription!.id)?.status).toBe('canceled');
    });
  });
});
