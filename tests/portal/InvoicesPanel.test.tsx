import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AccountInvoices, Invoice } from '../../contract/accountInvoices';
import { InvoicesPanel } from '../../src/portal/dashboard/account/InvoicesPanel';
import { json, renderScreen, stubFetch } from './render';

const STRIPE = 'http://127.0.0.1:4242';

function invoice(number: string, overrides: Partial<Invoice> = {}): Invoice {
  const id = `in_${number}`;
  return {
    id,
    number,
    // Midday UTC: the same calendar date in every time zone the tests may run in.
    created: '2026-10-05T12:00:00.000Z',
    total: 1999,
    amountPaid: 1999,
    currency: 'usd',
    status: 'paid',
    hostedInvoiceUrl: `${STRIPE}/invoice/${id}`,
    invoicePdf: `${STRIPE}/invoice/${id}/pdf`,
    ...overrides,
  };
}

async function openPanel(answer: AccountInvoices | (() => Response)) {
  stubFetch({ 'GET /api/account/invoices': typeof answer === 'function' ? answer : () => json(answer) });
  renderScreen(<InvoicesPanel />, '/dashboard#account');
  return screen.findByRole('region', { name: 'Invoices' });
}

/** A table's rows as the text of their cells. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));

describe('Invoices panel (issue 27)', () => {
  it('lists the invoices: date, number, amount in its currency, status, and links to Stripe’s page and PDF', async () => {
    await openPanel({
      invoices: [
        invoice('SAGE-0003', { total: 1200, amountPaid: 0, currency: 'eur', status: 'open', created: '2026-11-05T12:00:00.000Z' }),
        invoice('SAGE-0002'),
        invoice('SAGE-0001', { total: 0, amountPaid: 0, created: '2026-09-21T12:00:00.000Z' }),
      ],
      hasMore: false,
    });
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(rowsOf(table)).toEqual([
      ['Date', 'Number', 'Amount', 'Status', 'Documents'],
      ['Nov 05, 2026', 'SAGE-0003', '€12.00', 'Due', 'ViewPDF'],
      ['Oct 05, 2026', 'SAGE-0002', '$19.99', 'Paid', 'ViewPDF'],
      ['Sep 21, 2026', 'SAGE-0001', '$0.00', 'Paid', 'ViewPDF'],
    ]);
    const view = screen.getByRole('link', { name: 'View invoice SAGE-0002' });
    expect(view).toHaveAttribute('href', `${STRIPE}/invoice/in_SAGE-0002`);
    expect(view).toHaveTextContent('View');
    const pdf = screen.getByRole('link', { name: 'Invoice SAGE-0002 PDF' });
    expect(pdf).toHaveAttribute('href', `${STRIPE}/invoice/in_SAGE-0002/pdf`);
    for (const link of [view, pdf]) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    // The table scrolls sideways within its own box on a phone, and the keyboard reaches it.
    expect(screen.getByRole('region', { name: 'Invoice table' })).toHaveAttribute('tabindex', '0');
    expect(screen.queryByText(/most recent invoices/)).not.toBeInTheDocument();
  });

  it('says when older invoices were left out', async () => {
    await openPanel({ invoices: [invoice('SAGE-0025'), invoice('SAGE-0024')], hasMore: true });
    expect(
      await screen.findByText(
        "These are your 2 most recent invoices. Older ones are in Stripe's billing portal: Manage, in Subscriptions.",
      ),
    ).toBeInTheDocument();
  });

  it('says when there is none yet', async () => {
    await openPanel({ invoices: [], hasMore: false });
    expect(await screen.findByText("No invoices yet. Your subscription's invoices will be listed here.")).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when billing is not set up on this server', async () => {
    await openPanel(() =>
      json({ error: 'billing_not_configured', message: 'Billing is not set up on this server' }, 503, 'Service Unavailable'),
    );
    expect(await screen.findByText('Billing is not set up on this server')).toBeInTheDocument();
    expect(screen.queryByText('Unable to load your invoices')).not.toBeInTheDocument();
  });

  it('says so when Stripe cannot be read', async () => {
    await openPanel(() => json({ error: 'payment_provider_error', message: 'The payment provider could not complete the request.' }, 502));
    expect(await screen.findByText('Unable to load your invoices')).toBeInTheDocument();
  });
});
