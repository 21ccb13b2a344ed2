// Story: a signed-in user chooses a plan, starts the free trial at Stripe's checkout, comes back to
// a dashboard that shows the trial, and opens the billing portal from it. Stripe is the
// Stripe-compatible test server: its hosted checkout page completes the session and sends the
// signed webhooks to the running product.
import { describe, it } from 'vitest';
import { SKIP_E2E, control, registerThroughUi, setupStoriesWithStripe, toast, uniqueEmail, waitForPath } from './harness';

describe.skipIf(SKIP_E2E)('A user starts a free trial and manages it', () => {
  // Stripe announces the catalogue to the product the way it does in production: by webhooks.
  const { stories, fixture } = setupStoriesWithStripe(async (stripe) => {
    const plan = await stripe.addProduct(
      { name: 'Sage Pro', description: 'Sage in every project', metadata: { popular: 'true', credits_amount: '1000' } },
      { emit: true },
    );
    await stripe.addPrice({ product: plan.id, unit_amount: 1999, currency: 'usd', recurring: { interval: 'month' } }, { emit: true });
    await stripe.addPrice({ product: plan.id, unit_amount: 19999, currency: 'usd', recurring: { interval: 'year' } }, { emit: true });
    const pack = await stripe.addProduct(
      { name: 'Query pack', description: '500 more queries', metadata: { credits_amount: '500' } },
      { emit: true },
    );
    await stripe.addPrice({ product: pack.id, unit_amount: 999, currency: 'usd', recurring: null }, { emit: true });
  });

  it('chooses a plan, starts the trial at checkout, sees it on the dashboard and opens the portal', async () => {
    const { page, story } = await stories.newPage();
    await story('subscribe-trial-portal', async () => {
      const base = stories.product.url;
      await registerThroughUi(page, base, uniqueEmail('trial'), 'correct horse battery');

      // My subscriptions: none yet, so the dashboard offers the plans.
      await page.goto(`${base}/dashboard#subscriptions`);
      await page.getByText('No Active Subscriptions', { exact: true }).waitFor();
      await control(page, 'View Available Plans').click();
      await waitForPath(page, '/products-checkout');
      await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
      await page.getByText('Most popular', { exact: true }).waitFor();

      // I start the free trial of Sage Pro (the yearly price is selected) and land on Stripe's checkout.
      await control(page, 'Start Free Trial').click();
      await page.waitForURL((url) => url.href.startsWith(`${fixture().url}/checkout/`));
      await page.getByText('Sage Pro').first().waitFor();
      await control(page, 'Start trial').click();

      // Back on the dashboard, the trial shows: the toast, the banner and a Trial card.
      await waitForPath(page, '/dashboard');
      await toast(page, 'Subscription Updated').waitFor();
      await page.getByText('Trial Active', { exact: true }).waitFor();
      await page.getByText('Trial', { exact: true }).waitFor();
      await page.getByText('Trial Ends', { exact: false }).first().waitFor();
      await page.waitForURL((url) => !url.search.includes('refresh=true'));

      // Manage opens Stripe's billing portal.
      await control(page, 'Manage').click();
      await page.waitForURL((url) => url.href.startsWith(`${fixture().url}/portal/`));
      await page.getByText('Billing portal').first().waitFor();
    });
  });
});
