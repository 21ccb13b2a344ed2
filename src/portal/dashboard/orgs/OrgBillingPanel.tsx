import { Alert, Box, Divider, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import type { Org } from '../../../../contract/orgs';
import { fetchOrgBilling, fetchOrgInvoices, orgBillingKey, orgInvoicesKey, refreshOrgBilling } from '../../../api/orgBilling';
import { orgKey } from '../../../api/orgs';
import { InvoiceTable } from '../account/InvoicesPanel';
import { BillingDetailsForm } from './BillingDetailsForm';
import { OrgPlan } from './OrgPlan';
import { OrgTopUp } from './OrgTopUp';

/**
 * Back from Stripe's Checkout (`?org=…&session_id=…`): the outcome is read now rather than when its
 * webhook comes, then the address is put back as it was.
 */
function useCheckoutReturn(org: Org) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.get('org') !== org.id) return;
    const sessionId = params.get('session_id') ?? undefined;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.hash}`);
    void refreshOrgBilling(org.id, sessionId)
      .then((billing) => queryClient.setQueryData(orgBillingKey(org.id), billing))
      .finally(() => queryClient.invalidateQueries({ queryKey: orgKey(org.id) }));
  }, [org.id, queryClient]);
}

function OrgInvoices({ org }: { org: Org }) {
  const headingId = useId();
  const invoices = useQuery({ queryKey: orgInvoicesKey(org.id), queryFn: () => fetchOrgInvoices(org.id) });
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} component="h4" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Invoices
      </Typography>
      {invoices.isPending && <Typography role="status">Loading the invoices...</Typography>}
      {invoices.isError && <Alert severity="error">The invoices could not be read: {invoices.error.message}</Alert>}
      {invoices.data?.invoices.length === 0 && <Typography color="text.secondary">No invoices yet.</Typography>}
      {invoices.data && invoices.data.invoices.length > 0 && <InvoiceTable invoices={invoices.data.invoices} labelledBy={headingId} />}
    </Box>
  );
}

/** The organisation's bill (owner, billing): the plan and its seats, the shared pool, the company on its invoices, the invoices. */
export function OrgBillingPanel({ org }: { org: Org }) {
  useCheckoutReturn(org);
  const headingId = useId();
  const billing = useQuery({ queryKey: orgBillingKey(org.id), queryFn: () => fetchOrgBilling(org.id) });
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} component="h3" variant="h6" gutterBottom>
        Plan and billing
      </Typography>
      {billing.isPending && <Typography role="status">Loading the plan...</Typography>}
      {billing.isError && <Alert severity="error">The plan could not be read: {billing.error.message}</Alert>}
      {billing.data && (
        <Stack spacing={3}>
          <OrgPlan org={org} billing={billing.data} />
          <Divider />
          <OrgTopUp org={org} />
          <Divider />
          <BillingDetailsForm org={org} details={billing.data.details} />
          {billing.data.details && <OrgInvoices org={org} />}
        </Stack>
      )}
    </Box>
  );
}
