import { zodResolver } from '@hookform/resolvers/zod';
import { DialogContentText, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { NumberInput, TextInput, useRefresh, useTranslate } from 'react-admin';
import type { FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';
import { orgCreditGrantSchema, type AdminOrg, type OrgCreditGrant } from '../../../contract/adminOrgs';
import { grantOrgCredits } from '../../api/adminOrgs';
import { formatCount } from '../../ui/format';
import { ConfirmActionDialog } from '../ConfirmActionDialog';
import { useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';

/** The contract's rule, the amount said as the field is named: a whole, positive number of credits. */
const grantFormSchema = z.object({
  amount: z
    .number({ error: 'Enter a whole number of credits' })
    .int('Enter a whole number of credits')
    .positive('Enter a positive number of credits')
    .pipe(orgCreditGrantSchema.shape.amount),
  reason: orgCreditGrantSchema.shape.reason,
});

/** react-admin's forms hold any record: the rule reads the fields it knows. */
const resolver = zodResolver(grantFormSchema as z.ZodType<FieldValues, FieldValues>) as Resolver<FieldValues>;

/** Text as typed: react-admin would make a cleared field null, which the contract reads as no text at all. */
const asTyped = (value: string) => value;

/**
 * Grants credits to the organisation's shared pool with a required reason (admins; issue 38), kept
 * in the audit log. On success a toast gives the pool after it and the page is read again.
 */
export function GrantOrgCreditsDialog({ org, onClose }: { org: AdminOrg; onClose: () => void }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const refresh = useRefresh();
  const notifySuccess = useNotifySuccess();

  const grant = useMutation({
    mutationFn: (values: OrgCreditGrant) => adminCall(grantOrgCredits(org.id, values)),
    onSuccess: (pool, values) => {
      notifySuccess('admin.orgs.grant.done', { amount: formatCount(values.amount), pool: formatCount(pool) });
      refresh();
      onClose();
    },
  });

  return (
    <ConfirmActionDialog
      title={translate('admin.orgs.grant.title', { name: org.name })}
      body={<DialogContentText sx={{ mb: 2 }}>{translate('admin.orgs.grant.pool', { credits: formatCount(org.pool) })}</DialogContentText>}
      fields={
        <Stack>
          <NumberInput source="amount" label="admin.orgs.grant.amount" min={1} step={1} />
          <TextInput source="reason" label="admin.orgs.grant.reason" parse={asTyped} helperText="admin.orgs.grant.reasonHelp" />
        </Stack>
      }
      form={{
        resolver,
        defaultValues: { amount: null, reason: '' },
        onSubmit: (values) => grant.mutate(values as OrgCreditGrant),
      }}
      confirmLabel={translate('admin.orgs.grant.submit')}
      pending={grant.isPending}
      error={grant.error && { title: translate('admin.orgs.grant.failed'), message: grant.error.message }}
      onClose={onClose}
    />
  );
}
