import { z } from 'zod';

/** The customer's Stripe invoices (issue 27), read from Stripe when asked: the mirror keeps none. */

/** How many of the newest invoices are listed; older ones are in Stripe's billing portal. */
export const INVOICE_LIST_LIMIT = 24;

/** One invoice as Stripe describes it. Amounts in minor units of `currency`. */
export const invoiceSchema = z.object({
  id: z.string(),
  /** Stripe's number (`SAGE-0001`); null only for a draft, which is never listed. */
  number: z.string().nullable(),
  /** ISO 8601: when Stripe made it. */
  created: z.string(),
  total: z.number().int(),
  amountPaid: z.number().int(),
  /** Lower-case ISO 4217, as Stripe spells it (`usd`). */
  currency: z.string(),
  /** Stripe's status: `open`, `paid`, `void` or `uncollectible`. */
  status: z.string(),
  /** Stripe's page of the invoice, and its PDF. */
  hostedInvoiceUrl: z.string().nullable(),
  invoicePdf: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** `GET /api/account/invoices`: newest first; `hasMore` when older ones were left out. */
export const accountInvoicesSchema = z.object({
  invoices: z.array(invoiceSchema),
  hasMore: z.boolean(),
});
export type AccountInvoices = z.infer<typeof accountInvoicesSchema>;
