// Stories (issue 39): a player who bought a credit pack turns on automatic top-up in the dashboard's
// Usage section. Twenty of their plugin's queries at once take the credits under the threshold:
// one pack is bought, and the dashboard shows the new credits and the top-up. Another player's card
// asks its holder to confirm every payment: top-up pauses, the dashboard says why, and the mail
// with a link to buy by hand arrives. Stripe is the Stripe-compatible test server.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import {
  SKIP_E2E,
  control,
  field,
  readMailLink,
  registerThroughUi,
  setupStoriesWithStripe,
  toast,
  uniqueEmail,
  waitForPath,
} from './harness';

const PASSWORD = 'player password 1';

describe.skipIf(SKIP_E2E)('Automatic top-up', () => {
  const { stories, fixture } = setupStoriesWithStripe(async (stripe) => {
    const pack = await stripe.addProduct(
      { name: 'Query pack', description: '500 more queries', metadata: { credits_amount: '500' } },
      { emit: true },
    );
    await stripe.addPrice({ product: pack.id, unit_amount: 999, currency: 'usd', recurring: null }, { emit: true });
  });

  /** The plugin's own call: one use of `units`, by the license token. */
  const spend = (token: string, units: number) =>
    fetch(`${stories.product.url}/api/ingest/usage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: crypto.randomUUID(), units, projectId: 'ShooterGame', engineVersion: '5.6' }),
    });

  /** A new player who bought the pack at Stripe's Checkout with `card`; answers their id and license token. */
  async function playerWithPack(page: Page, email: string, card: RegExp): Promise<{ userId: string; token: string }> {
    const base = stories.product.url;
    await registerThroughUi(page, base, email, PASSWORD);
    const me = (await (await page.request.get(`${base}/api/user`)).json()) as { id: string };
    const license = (await (await page.request.get(`${base}/api/sage/${me.id}/license`)).json()) as { payload: string };
    await page.goto(`${base}/products-checkout?client=web`);
    await control(page, 'Purchase Now').click();
    await page.waitForURL((url) => url.href.startsWith(`${fixture().url}/checkout/`));
    await page.getByLabel(card).check();
    await control(page, 'Pay').click();
    await waitForPath(page, '/dashboard');
    return { userId: me.id, token: (JSON.parse(license.payload) as { licenseToken: string }).licenseToken };
  }

  /** Turns top-up on in the Usage section: under 450 credits, the pack, at most $30 a month. */
  async function turnOnTopUp(page: Page) {
    await page.goto(`${stories.product.url}/dashboard#usage`);
    const card = page.getByRole('region', { name: 'Automatic top-up' });
    await card.getByText('Automatic top-up is off.').waitFor();
    await card.getByRole('switch', { name: 'Top up automatically when my credits run low' }).check();
    await field(page, 'When credits fall below').fill('450');
    await card.getByRole('combobox', { name: /Credit pack to buy/ }).selectOption({ label: 'Query pack: 500 credits for $9.99' });
    await field(page, 'Monthly cap (USD)').fill('30');
    await card.getByRole('button', { name: 'Save top-up settings' }).click();
    await toast(page, 'Automatic top-up saved').waitFor();
    await card
      .getByText('When your credits fall below 450, Sage buys 500 credits for $9.99 with your saved card, at most $30.00 a month.')
      .waitFor();
    return card;
  }

  const creditsLeft = (page: Page) => page.getByRole('definition').filter({ hasText: 'Pack credits never expire.' });

  it('buys one pack when twenty queries at once take the credits under the threshold, and shows the new credits', async () => {
    const { page, story } = await stories.newPage({ width: 1280, height: 900 });
    await story('top-up-once', async () => {
      const { userId, token } = await playerWithPack(page, uniqueEmail('top-up'), /ending in 4242/);
      const card = await turnOnTopUp(page);
      await creditsLeft(page).getByText('500', { exact: true }).waitFor();
      await expectNoAxeViolations(page, '/dashboard#usage with automatic top-up on');

      // 500 credits, 20 queries of 5 at once: 400 left, one crossing of 450, one pack of 500.
      const answers = await Promise.all(Array.from({ length: 20 }, () => spend(token, 5)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      await expect
        .poll(
          async () => {
            await page.reload();
            await card.getByText(/^This month: /).waitFor();
            return creditsLeft(page).textContent();
          },
          { timeout: 30_000, interval: 500 },
        )
        .toContain('900');
      await card.getByText('This month: $9.99 of $30.00').waitFor();
      await card.getByText(/^Last top-up: 500 credits for \$9\.99 on /).waitFor();
      const invoices = [...fixture().invoices.values()].filter((i) => i.metadata.user_id === userId);
      expect(invoices.map((i) => [i.description, i.status, i.total])).toEqual([['Automatic top-up: Query pack', 'paid', 999]]);
      await expectNoAxeViolations(page, '/dashboard#usage after a top-up');
    });
  });

  it('pauses top-up when the card needs its holder, says so, and mails a link to buy by hand', async () => {
    const { page, story } = await stories.newPage({ width: 1280, height: 900 });
    await story('top-up-paused', async () => {
      const email = uniqueEmail('top-up-sca');
      const { token } = await playerWithPack(page, email, /ending in 3184/);
      const card = await turnOnTopUp(page);

      expect((await spend(token, 60)).status).toBe(201);
      const paused = card.getByRole('alert');
      await expect
        .poll(
          async () => {
            await page.reload();
            await card.getByText(/^This month: /).waitFor();
            return paused.count();
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBe(1);
      await paused.getByText('Automatic top-up is paused').waitFor();
      await paused.getByText(/Paused: your card needs you to confirm the payment\. Buy credits by hand/).waitFor();
      expect(await card.getByRole('switch', { name: 'Top up automatically when my credits run low' }).isChecked()).toBe(true);
      await card.getByText(/^Your bank asked you to confirm a top-up of 500 credits for \$9\.99 on /).waitFor();
      await creditsLeft(page).getByText('440', { exact: true }).waitFor();
      await expectNoAxeViolations(page, '/dashboard#usage with top-up paused');

      const link = await readMailLink(stories.product.dataDir, email, '/products-checkout');
      expect(link).toBe(`${stories.product.url}/products-checkout`);

      // Buying by hand is one click away, and top-up can be turned back on.
      await paused.getByRole('button', { name: 'Turn top-up back on' }).click();
      await toast(page, 'Automatic top-up saved').waitFor();
      await card.getByRole('alert').waitFor({ state: 'detached' });
    });
  });
});
