import type { Invoice } from '../../../../contract/accountInvoices';
import { formatDate, formatMoney } from '../../../ui/format';

/** When Stripe made the invoice, as the subscription card writes dates (§2: `MMM dd, yyyy`). */
export const invoiceDate = (invoice: Pick<Invoice, 'created'>): string => formatDate(invoice.created);

/** The invoice's total in its own currency (§9: minor units in the currency's own decimals). */
export const invoiceAmount = (invoice: Pick<Invoice, 'total' | 'currency'>): string => formatMoney(invoice.total, invoice.currency);

export interface InvoiceStatusBadge {
  label: string;
  color: 'success' | 'warning' | 'default' | 'error';
}

/** Stripe's invoice statuses in words; any other as Stripe spells it (as the subscription badges do). */
export function invoiceStatusBadge(status: string): InvoiceStatusBadge {
  switch (status) {
    case 'paid':
      return { label: 'Paid', color: 'success' };
    case 'open':
      return { label: 'Due', color: 'warning' };
    case 'void':
      return { label: 'Void', color: 'default' };
    case 'uncollectible':
      return { label: 'Uncollectible', color: 'error' };
    default:
      return { label: status, color: 'default' };
  }
}

/** The names of an invoice's links for a screen reader, told apart by its number (else its date). */
export function invoiceLinkNames(invoice: Pick<Invoice, 'number' | 'created'>): { page: string; pdf: string } {
  const which = invoice.number ?? `of ${invoiceDate(invoice)}`;
  return { page: `View invoice ${which}`, pdf: `Invoice ${which} PDF` };
}
