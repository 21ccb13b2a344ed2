import { INVOICE_LIST_LIMIT, type AccountInvoices } from '../../../contract/accountInvoices';
import type { Db } from '../../db';
import { createBillingMirror } from '../billing/mirror';
import { billingNotConfigured } from '../billing/notConfigured';
import type { StripeGateway } from '../billing/stripeGateway';

/**
 * The customer's invoices (issue 27), read from Stripe each time: they are Stripe's documents (its
 * numbers, pages and PDFs), and the mirror's webhooks do not carry them.
 */
export function createAccountInvoiceService(deps: { db: Db; gateway: StripeGateway | null }) {
  const mirror = createBillingMirror(deps.db);
  return {
    /** Newest first; none for a user who never reached checkout; 503 while billing is off. */
    async list(userId: string): Promise<AccountInvoices> {
      if (!deps.gateway) throw billingNotConfigured();
      const customer = await mirror.customerOf(userId);
      if (!customer) return { invoices: [], hasMore: false };
      const { invoices, hasMore } = await deps.gateway.listInvoices(customer.customer_id, INVOICE_LIST_LIMIT);
      return { hasMore, invoices: invoices.map((invoice) => ({ ...invoice, created: new Date(invoice.created * 1000).toISOString() })) };
    },
  };
}

export type AccountInvoiceService = ReturnType<typeof createAccountInvoiceService>;
