import { Chip, Link, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { BILLING_MESSAGES } from '../../../../contract/billing';
import { ERROR_CODES } from '../../../../contract/errors';
import type { Invoice } from '../../../../contract/accountInvoices';
import { useAccountInvoices } from '../../../api/accountInvoices';
import { HttpError } from '../../../api/client';
import { invoiceAmount, invoiceDate, invoiceLinkNames, invoiceStatusBadge } from './invoiceRules';
import { AccountPanel } from './AccountPanel';

const HEADING_ID = 'account-invoices-heading';
/** Narrow screens keep the table's cells tight; a wider table scrolls within its own box. */
const CELL = { px: { xs: 1, sm: 2 }, whiteSpace: 'nowrap' } as const;

/** One of Stripe's pages of the invoice, in a new tab: the dashboard stays where it was. */
function StripeLink({ href, label, children }: { href: string | null; label: string; children: ReactNode }) {
  if (!href) return null;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" aria-label={label}>
      {children}
    </Link>
  );
}

function InvoiceRow({ invoice }: { invoice: Invoice }) {
  const badge = invoiceStatusBadge(invoice.status);
  const names = invoiceLinkNames(invoice);
  return (
    <TableRow>
      <TableCell sx={CELL}>{invoiceDate(invoice)}</TableCell>
      <TableCell sx={CELL}>{invoice.number}</TableCell>
      <TableCell sx={CELL} align="right">
        {invoiceAmount(invoice)}
      </TableCell>
      <TableCell sx={CELL}>
        <Chip size="small" label={badge.label} color={badge.color} />
      </TableCell>
      <TableCell sx={CELL}>
        <Stack direction="row" spacing={2}>
          <StripeLink href={invoice.hostedInvoiceUrl} label={names.page}>
            View
          </StripeLink>
          <StripeLink href={invoice.invoicePdf} label={names.pdf}>
            PDF
          </StripeLink>
        </Stack>
      </TableCell>
    </TableRow>
  );
}

/** The invoices as a table named by the heading `labelledBy`: the account's, an organisation's. */
export function InvoiceTable({ invoices, labelledBy = HEADING_ID }: { invoices: Invoice[]; labelledBy?: string }) {
  return (
    // A region that scrolls sideways on a phone is reachable by keyboard (WCAG lets data tables scroll).
    <TableContainer role="region" aria-label="Invoice table" tabIndex={0} sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-labelledby={labelledBy}>
        <TableHead>
          <TableRow>
            <TableCell sx={CELL}>Date</TableCell>
            <TableCell sx={CELL}>Number</TableCell>
            <TableCell sx={CELL} align="right">
              Amount
            </TableCell>
            <TableCell sx={CELL}>Status</TableCell>
            <TableCell sx={CELL}>Documents</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {invoices.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** What a failed read says: billing not set up on this server has its own words (§8), anything else one line. */
const failure = (error: Error) =>
  error instanceof HttpError && error.code === ERROR_CODES.billingNotConfigured
    ? BILLING_MESSAGES.notConfigured
    : 'Unable to load your invoices';

/**
 * The Account section's Invoices panel (issue 27): the customer's Stripe invoices, newest first,
 * each with its date, number, amount, status and Stripe's page and PDF.
 */
export function InvoicesPanel() {
  const { data, isPending, error } = useAccountInvoices();

  return (
    <AccountPanel
      headingId={HEADING_ID}
      title="Invoices"
      loading={isPending && 'Loading your invoices'}
      placeholders={[96]}
      error={error ? failure(error) : data ? null : 'Unable to load your invoices'}
    >
      {data && data.invoices.length === 0 && (
        <Typography color="text.secondary">No invoices yet. Your subscription&apos;s invoices will be listed here.</Typography>
      )}
      {data && data.invoices.length > 0 && (
        <Stack spacing={2}>
          <Typography color="text.secondary">Each invoice opens on Stripe&apos;s site, in a new tab, as a page or a PDF.</Typography>
          <InvoiceTable invoices={data.invoices} />
          {data.hasMore && (
            <Typography variant="body2" color="text.secondary">
              These are your {data.invoices.length} most recent invoices. Older ones are in Stripe&apos;s billing portal: Manage, in
              Subscriptions.
            </Typography>
          )}
        </Stack>
      )}
    </AccountPanel>
  );
}
