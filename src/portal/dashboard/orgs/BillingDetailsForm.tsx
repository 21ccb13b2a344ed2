import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { billingDetailsSchema, type BillingDetails, type BillingDetailsInput, type OrgBilling } from '../../../../contract/orgBilling';
import type { Org } from '../../../../contract/orgs';
import { orgBillingKey, saveBillingDetails } from '../../../api/orgBilling';
import { useToast } from '../../../ui/toast';
import { FormTextField } from '../../forms/FormTextField';
import { useContractForm, useProblemToast } from '../../forms/contractForm';

type Values = BillingDetailsInput;

const asValues = (details: OrgBilling['details']): Required<Values> => ({
  companyName: details?.companyName ?? '',
  addressLine1: details?.addressLine1 ?? '',
  addressLine2: details?.addressLine2 ?? '',
  city: details?.city ?? '',
  postalCode: details?.postalCode ?? '',
  region: details?.region ?? '',
  country: details?.country ?? '',
  taxId: details?.taxId ?? '',
});

/** The company every invoice of the organisation names (decision 041): saved here and on its Stripe customer. */
export function BillingDetailsForm({ org, details }: { org: Org; details: OrgBilling['details'] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const showProblem = useProblemToast();
  const { register, handleSubmit, reset } = useContractForm<Values, BillingDetails>(billingDetailsSchema);
  useEffect(() => reset(asValues(details)), [details, reset]);
  const save = useMutation({
    mutationFn: (values: BillingDetails) =>
      saveBillingDetails(org.id, {
        ...values,
        addressLine2: values.addressLine2 ?? undefined,
        region: values.region ?? undefined,
        taxId: values.taxId ?? undefined,
      }),
    onSuccess: (billing) => {
      queryClient.setQueryData(orgBillingKey(org.id), billing);
      toast({ title: 'Billing details saved', description: `${org.name}'s next invoices carry them.` });
    },
    onError: (error) =>
      toast({ title: 'Error', description: error.message || 'The billing details could not be saved', variant: 'destructive' }),
  });
  const onSubmit = handleSubmit((values) => {
    if (!save.isPending) save.mutate(values);
  }, showProblem);
  const field = (name: keyof Values) => register(name);
  return (
    <Box component="form" onSubmit={onSubmit} aria-label={`Billing details of ${org.name}`}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Every invoice names the company, its address and its VAT or tax ID.
      </Typography>
      <Stack spacing={2}>
        <FormTextField
          label="Company name"
          field={field('companyName')}
          required
          fullWidth
          autoComplete="organization"
          disabled={save.isPending}
        />
        <FormTextField
          label="Address"
          field={field('addressLine1')}
          required
          fullWidth
          autoComplete="address-line1"
          disabled={save.isPending}
        />
        <FormTextField
          label="Address line 2"
          field={field('addressLine2')}
          fullWidth
          autoComplete="address-line2"
          disabled={save.isPending}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            label="Postal code"
            field={field('postalCode')}
            required
            fullWidth
            autoComplete="postal-code"
            disabled={save.isPending}
          />
          <FormTextField label="City" field={field('city')} required fullWidth autoComplete="address-level2" disabled={save.isPending} />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField label="Region" field={field('region')} fullWidth autoComplete="address-level1" disabled={save.isPending} />
          <FormTextField
            label="Country (two-letter code)"
            field={field('country')}
            required
            fullWidth
            autoComplete="country"
            disabled={save.isPending}
            helperText="DE, FR, GB, US…"
          />
        </Stack>
        <FormTextField
          label="VAT or tax ID"
          field={field('taxId')}
          fullWidth
          autoComplete="off"
          disabled={save.isPending}
          helperText="Optional. An EU VAT number starts with its country's code."
        />
        <Box>
          <Button type="submit" variant="contained" loading={save.isPending}>
            Save billing details
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
