import { zodResolver } from '@hookform/resolvers/zod';
import { DialogContentText, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NumberInput, RadioButtonGroupInput, TextInput, useTranslate } from 'react-admin';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import type { AdminUser } from '../../../contract/admin';
import { USAGE_ERRORS } from '../../../contract/usage';
import { adjustCredits } from '../../api/admin';
import { HttpError } from '../../api/client';
import { ConfirmActionDialog } from '../ConfirmActionDialog';
import { useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { accountDetailsQueryKey, usageQueryKey } from './usageKeys';
import { ADJUSTMENT_DIRECTIONS, creditAdjustmentFormSchema, toAdjustment, type CreditAdjustmentForm } from './usageRules';
import { formatCount } from '../../ui/format';

/** react-admin's forms hold any record: the rule reads the fields it knows. */
const resolver = zodResolver(creditAdjustmentFormSchema as z.ZodType<FieldValues, FieldValues>) as Resolver<FieldValues>;

const DIRECTION_CHOICES = ADJUSTMENT_DIRECTIONS.map((id) => ({ id, name: `admin.usage.adjust.${id}` }));

/** A deduction below zero: the server's message says it all (the balance), with no "failed" title above it. */
const isInsufficient = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.code === USAGE_ERRORS.insufficientCredits;

/** Text as typed: react-admin would make a cleared field null, which the contract reads as no text at all. */
const asTyped = (value: string) => value;

/**
 * Grants pack credits to a user or deducts them, with a reason kept in the audit log (issue 26).
 * On success a toast gives the new balance and the user's Usage and Account figures are read again.
 */
export function CreditAdjustmentDialog({ user, balance, onClose }: { user: AdminUser; balance: number; onClose: () => void }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const queryClient = useQueryClient();
  const notifySuccess = useNotifySuccess();

  const adjust = useMutation({
    mutationFn: (values: CreditAdjustmentForm) => adminCall(adjustCredits(user.id, toAdjustment(values))),
    onSuccess: (credits, values) => {
      notifySuccess(`admin.usage.adjust.${values.direction === 'grant' ? 'granted' : 'deducted'}`, {
        amount: formatCount(values.amount),
        credits: formatCount(credits),
      });
      void queryClient.invalidateQueries({ queryKey: usageQueryKey(user.id) });
      void queryClient.invalidateQueries({ queryKey: accountDetailsQueryKey(user.id) });
      onClose();
    },
  });

  return (
    <ConfirmActionDialog
      title={translate('admin.usage.adjust.title', { name: user.email ?? user.username })}
      body={
        <DialogContentText sx={{ mb: 2 }}>{translate('admin.usage.adjust.balance', { credits: formatCount(balance) })}</DialogContentText>
      }
      fields={
        <Stack>
          <RadioButtonGroupInput
            source="direction"
            label="admin.usage.adjust.direction"
            choices={DIRECTION_CHOICES}
            row
            helperText={false}
          />
          <NumberInput source="amount" label="admin.usage.adjust.amount" min={1} step={1} />
          <TextInput source="reason" label="admin.usage.adjust.reason" parse={asTyped} helperText="admin.usage.adjust.reasonHelp" />
        </Stack>
      }
      form={{
        resolver,
        defaultValues: { direction: 'grant', amount: null, reason: '' },
        onSubmit: (values) => adjust.mutate(values as CreditAdjustmentForm),
      }}
      confirmLabel={translate('admin.usage.adjust.submit')}
      pending={adjust.isPending}
      error={
        adjust.error && {
          title: isInsufficient(adjust.error) ? undefined : translate('admin.usage.adjust.failed'),
          message: adjust.error.message,
        }
      }
      onClose={onClose}
    />
  );
}
