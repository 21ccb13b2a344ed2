// Story (issue 27): a subscriber finds their invoices in the Account section, on a phone: the
// table fits the screen (it scrolls within its own box), and its PDF link is Stripe's PDF.
// Stripe is the Stripe-compatible test server, as in subscribe.test.ts.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, control, registerThroughUi, setupStoriesWithStripe, uniqueEmail, waitForPath } from './harness';

const PHONE = { width: 360, height: 740 };

describe.skipIf(SKIP_E2E)('A subscriber reads their invoices', () => {
  const { stories, fixture } = setupStoriesWithStripe(async (stripe) => {
    const plan = await stripe.addProduct({ name: 'Sage Pro', metadata: { credits_amount: '1000' } }, { emit: true });
    await stripe.addPrice({ product: plan.id, unit_amount: 19999, currency: 'usd', recurring: { interval: 'year' } }, { emit: true });
  });

  it('starts a trial, and finds its invoice and PDF in the Account section on a phone', async () => {
    const { page, story } = await stories.newPage(PHONE);
    await story('account-invoices', async () => {
      const base = stories.product.url;
      await registerThroughUi(page, base, uniqueEmail('invoices'), 'correct horse battery');

      // No invoices before the first checkout.
      await page.goto(`${base}/dashboard#account`);
      const panel = page.getByRole('region', { name: 'Invoices' });
      await panel.getByText("No invoices yet. Your subscription's invoices will be listed here.", { exact: true }).waitFor();

      // The trial's checkout at Stripe makes the first invoice (nothing to pay during the trial).
      await page.goto(`${base}/products-checkout?client=web`);
      await control(page, 'Start Free Trial').click();
      await page.waitForURL((url) => url.href.startsWith(`${fixture().url}/checkout/`));
      await control(page, 'Start trial').click();
      await waitForPath(page, '/dashboard');

      await page.goto(`${base}/dashboard#account`);
      const [invoice] = [...fixture().invoices.values()].slice(-1);
      const number = invoice?.number ?? '';
      const table = panel.getByRole('table', { name: 'Invoices' });
      await table.getByRole('cell', { name: number, exact: true }).waitFor();
      await table.getByRole('cell', { name: '$0.00', exact: true }).waitFor();
      await table.getByText('Paid', { exact: true }).waitFor();
      await expectNoAxeViolations(page, 'the Invoices panel on a phone');
      const widths = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
        '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
      );
      expect(widths.scrollWidth, 'the page is wider than the phone').toBeLessThanOrEqual(widths.innerWidth);

      // Its PDF is Stripe's, opened in a new tab.
      const link = panel.getByRole('link', { name: `Invoice ${number} PDF` });
      expect(await link.getAttribute('target')).toBe('_blank');
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).toBe(invoice?.invoice_pdf);
      const pdf = await page.request.get(href);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
    });
  });
});
