import { Box, Button, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { AdminUser } from '../../../contract/admin';
import type { CreditPackPurchase } from '../../../contract/usage';
import { fetchCreditPacks } from '../../api/admin';
import { useNotifyError } from '../notify';
import { TableScroller } from '../TableScroller';
import { useAdminCall } from '../useAdminCall';
import { useRefusalNotes } from '../RefusalNotes';
import { useStaffRefusal } from '../useStaffMay';
import { RefundPackDialog } from './RefundPackDialog';
import { usageQueryKey } from './usageKeys';
import { formatCount, formatDateTime } from '../../ui/format';

function PurchaseTable({
  purchases,
  titleId,
  onRefund,
  refusedBy,
}: {
  purchases: CreditPackPurchase[];
  titleId: string;
  onRefund: (purchase: CreditPackPurchase) => void;
  /** For a role that may not refund: the id of the reason, read with each Refund, switched off. */
  refusedBy?: string;
}) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.usage.packs.${key}`, options);
  return (
    <TableScroller title={t('title')}>
      <Table size="small" aria-labelledby={titleId}>
        <TableHead>
          <TableRow>
            <TableCell>{t('bought')}</TableCell>
            <TableCell>{t('pack')}</TableCell>
            <TableCell align="right">{t('credits')}</TableCell>
            <TableCell align="right">{t('unspent')}</TableCell>
            <TableCell>{t('refund')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {purchases.map((purchase) => (
            <TableRow key={purchase.id}>
              <TableCell>
                <time dateTime={purchase.createdAt}>{formatDateTime(purchase.createdAt)}</time>
              </TableCell>
              <TableCell>{purchase.reason}</TableCell>
              <TableCell align="right">{formatCount(purchase.credits)}</TableCell>
              <TableCell align="right">{formatCount(purchase.unspent)}</TableCell>
              <TableCell>
                {purchase.refundedAt ? (
                  t('refunded', { date: formatDateTime(purchase.refundedAt) })
                ) : (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => onRefund(purchase)}
                    disabled={refusedBy !== undefined}
                    aria-describedby={refusedBy}
                  >
                    {t('refund')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableScroller>
  );
}

/** The user's credit packs bought through Checkout, each refundable once (issue 26). */
export function CreditPacks({ user }: { user: AdminUser }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();
  const [refunding, setRefunding] = useState<CreditPackPurchase | null>(null);
  const refusal = useStaffRefusal('refundCredits', { role: user.role });
  const { describedBy, notes } = useRefusalNotes([refusal]);
  const packs = useQuery({
    queryKey: [...usageQueryKey(user.id), 'packs'],
    queryFn: () => adminCall(fetchCreditPacks(user.id)),
  });
  const { error } = packs;
  useEffect(() => {
    if (error) notifyError({ message: 'admin.usage.packs.failed', error });
  }, [error, notifyError]);
  const titleId = useId();

  return (
    <Box component="section" aria-labelledby={titleId}>
      <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }} gutterBottom>
        {translate('admin.usage.packs.title')}
      </Typography>
      {packs.isPending ? (
        <CircularProgress size={24} aria-label={translate('ra.message.loading')} />
      ) : packs.isError ? (
        <Typography color="error">{translate('admin.usage.packs.failed')}</Typography>
      ) : packs.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('admin.usage.packs.none')}
        </Typography>
      ) : (
        <>
          <PurchaseTable purchases={packs.data} titleId={titleId} onRefund={setRefunding} refusedBy={describedBy(refusal)} />
          {notes}
        </>
      )}
      {refunding && <RefundPackDialog user={user} purchase={refunding} onClose={() => setRefunding(null)} />}
    </Box>
  );
}
