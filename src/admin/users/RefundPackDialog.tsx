import { DialogContentText } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import type { AdminUser } from '../../../contract/admin';
import { CREDIT_PACK_REFUND_ERRORS, type CreditPackPurchase } from '../../../contract/usage';
import { refundCreditPack } from '../../api/admin';
import { HttpError } from '../../api/client';
import { ConfirmActionDialog } from '../ConfirmActionDialog';
import { useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { accountDetailsQueryKey, usageQueryKey } from './usageKeys';
import { packCreditsUsed } from './usageRules';
import { formatCount, formatDateTime } from '../../ui/format';

/** Refusals about the purchase itself (already refunded, nothing at Stripe to refund) are said in the dialog. */
const REFUSALS: readonly string[] = Object.values(CREDIT_PACK_REFUND_ERRORS);
const isRefusal = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.code !== undefined && REFUSALS.includes(error.code);

/**
 * Confirms a credit pack's refund (issue 26): Stripe refunds the payment, and the pack's unspent
 * credits leave the balance; what was already used stays used. The figures are the purchase's as
 * listed; the toast gives what the server actually took back.
 */
export function RefundPackDialog({ user, purchase, onClose }: { user: AdminUser; purchase: CreditPackPurchase; onClose: () => void }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const queryClient = useQueryClient();
  const notifySuccess = useNotifySuccess();

  const refund = useMutation({
    mutationFn: () => adminCall(refundCreditPack(user.id, purchase.id)),
    onSuccess: ({ reversed, credits }) => {
      notifySuccess('admin.usage.packs.done', { reversed: formatCount(reversed), credits: formatCount(credits) });
      void queryClient.invalidateQueries({ queryKey: usageQueryKey(user.id) });
      void queryClient.invalidateQueries({ queryKey: accountDetailsQueryKey(user.id) });
      onClose();
    },
    onError: (error) => {
      // The list was out of date: read it again so it shows the purchase as it is.
      if (isRefusal(error)) void queryClient.invalidateQueries({ queryKey: usageQueryKey(user.id) });
    },
  });

  return (
    <ConfirmActionDialog
      title={translate('admin.usage.packs.confirmTitle', { name: user.email ?? user.username })}
      body={
        <>
          <DialogContentText gutterBottom>
            {translate('admin.usage.packs.confirmPayment', {
              credits: formatCount(purchase.credits),
              date: formatDateTime(purchase.createdAt),
            })}
          </DialogContentText>
          <DialogContentText>
            {translate('admin.usage.packs.confirmCredits', {
              reversed: formatCount(purchase.unspent),
              used: formatCount(packCreditsUsed(purchase)),
            })}
          </DialogContentText>
        </>
      }
      onConfirm={() => refund.mutate()}
      confirmLabel={translate('admin.usage.packs.confirm')}
      confirmColor="error"
      pending={refund.isPending}
      confirmDisabled={isRefusal(refund.error)}
      error={
        refund.error && {
          title: isRefusal(refund.error) ? undefined : translate('admin.usage.packs.refundFailed'),
          message: refund.error.message,
        }
      }
      onClose={onClose}
    />
  );
}
