import { describe, expect, it } from 'vitest';
import { INVOICE_LIST_LIMIT, type AccountInvoices } from '../../contract/accountInvoices';
import { seedCatalogue, signedInUser, subscribe, useBillingServer, type Customer } from './billingFlow';
import { databases, errorBody, useTestServer } from './harness';

const invoicesOf = async (customer: Customer) => {
  const response = await customer.client.get('/api/account/invoices');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AccountInvoices>();
};

describe.each(databases)('the account invoices on $label', (database) => {
  const { server, stripe } = useBillingServer(database);

  it('lists the invoices of a subscription, newest first, with their number, amount, status and Stripe pages', async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    expect(await invoicesOf(buyer)).toEqual({ invoices: [], hasMore: false });

    // A trial with a card: the trial's invoice is for nothing, the first period after it is paid.
    const subscriptionId = await subscribe(stripe(), buyer, catalogue, { withPaymentMethod: true });
    const renewal = await stripe().renewSubscription(subscriptionId);
    expect(renewal.events.map((e) => e.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect(renewal.subscription.status).toBe('active');

    const { invoices, hasMore } = await invoicesOf(buyer);
    expect(hasMore).toBe(false);
    const customer = stripe().customers.get(renewal.subscription.customer);
    const [paid, trial] = invoices;
    expect(invoices).toHaveLength(2);
    expect(paid).toEqual({
      id: renewal.invoice?.id,
      number: `${customer?.invoice_prefix}-0002`,
      created: new Date((renewal.invoice?.created ?? 0) * 1000).toISOString(),
      total: 1999,
      amountPaid: 1999,
      currency: 'usd',
      status: 'paid',
      hostedInvoiceUrl: `${stripe().url}/invoice/${renewal.invoice?.id}`,
      invoicePdf: `${stripe().url}/invoice/${renewal.invoice?.id}/pdf`,
    });
    expect(trial).toMatchObject({ number: `${customer?.invoice_prefix}-0001`, total: 0, amountPaid: 0, status: 'paid' });

    // The links are Stripe's pages: the invoice's page and its PDF.
    const page = await fetch(paid?.hostedInvoiceUrl ?? '');
    expect(await page.text()).toContain(`Invoice ${paid?.number}`);
    const pdf = await fetch(paid?.invoicePdf ?? '');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(bytes.startsWith('%PDF-1.4')).toBe(true);
    expect(bytes).toContain(`(Invoice ${paid?.number})`);
    expect(bytes.trimEnd().endsWith('%%EOF')).toBe(true);

    // Another customer sees none of them.
    expect(await invoicesOf(await signedInUser(server(), 'other'))).toEqual({ invoices: [], hasMore: false });
  });

  it(`lists the newest ${INVOICE_LIST_LIMIT} and says there are older ones`, async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInUser(server());
    const subscriptionId = await subscribe(stripe(), buyer, catalogue, { withPaymentMethod: true });
    stripe().deliverTo(null); // the renewals' webhooks are beside the point here
    for (let i = 0; i < INVOICE_LIST_LIMIT; i++) await stripe().renewSubscription(subscriptionId);
    const { invoices, hasMore } = await invoicesOf(buyer);
    expect(hasMore).toBe(true);
    expect(invoices).toHaveLength(INVOICE_LIST_LIMIT);
    const sequence = invoices.map((invoice) => Number(invoice.number?.split('-').pop()));
    expect(sequence).toEqual([...sequence].sort((a, b) => b - a));
    expect(sequence[0]).toBe(INVOICE_LIST_LIMIT + 1);
  });

  it('is closed to strangers', async () => {
    const response = await server().client().get('/api/account/invoices');
    expect(response.statusCode).toBe(401);
  });
});

describe.each(databases)('the account invoices without Stripe on $label', (database) => {
  const server = useTestServer(database);

  it('says billing is not set up on this server, as every billing call does without Stripe keys', async () => {
    const buyer = await signedInUser(server());
    const response = await buyer.client.get('/api/account/invoices');
    expect(response.statusCode).toBe(503);
    expect(errorBody(response)).toEqual({ error: 'billing_not_configured', message: 'Billing is not set up on this server' });
  });
});
