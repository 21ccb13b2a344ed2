import { Alert, AlertTitle, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslate } from 'react-admin';
import type { AdminUser } from '../../../contract/admin';
import { CREDIT_PACK_REFUND_ERRORS, type CreditPackPurchase } from '../../../contract/usage';
import { refundCreditPack } from '../../api/admin';
import { HttpError } from '../../api/client';
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
  const titleId = useId();
  const contentId = useId();

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
    <Dialog open onClose={refund.isPending ? undefined : onClose} aria-labelledby={titleId} aria-describedby={contentId}>
      <DialogTitle id={titleId}>{translate('admin.usage.packs.confirmTitle', { name: user.email ?? user.username })}</DialogTitle>
      <DialogContent id={contentId}>
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
        {/* In the dialog, not a toast: the open dialog hides the rest of the page from screen readers. */}
        {refund.error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {!isRefusal(refund.error) && <AlertTitle>{translate('admin.usage.packs.refundFailed')}</AlertTitle>}
            {refund.error.message}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={refund.isPending}>
          {translate('ra.action.cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={() => refund.mutate()}
          loading={refund.isPending}
          disabled={isRefusal(refund.error)}
        >
          {translate('admin.usage.packs.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
