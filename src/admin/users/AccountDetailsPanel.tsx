import { Box, Chip, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AccountDetails, AdminSubscription, AdminUser } from '../../../contract/admin';
import { fetchAccountDetails } from '../../api/admin';
import { intervalLabel } from '../../billing/plans';
import { statusBadge } from '../../billing/subscriptionRules';
import { TableScroller } from '../TableScroller';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { formatCount, formatDateTime, formatMoney } from '../../ui/format';
import { accountDetailsQueryKey } from './usageKeys';

/** `$19.99/month`, `$4.99` for a one-time price, `—` for a price Stripe computes. */
function priceOf(subscription: AdminSubscription): string {
  if (subscription.unitAmount === null) return '—';
  const amount = formatMoney(subscription.unitAmount, subscription.currency);
  if (!subscription.interval) return amount;
  return `${amount}/${intervalLabel({ interval: subscription.interval, interval_count: subscription.intervalCount ?? 1 })}`;
}

const dateOrDash = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

function Subscriptions({ subscriptions }: { subscriptions: AdminSubscription[] }) {
  const translate = useTranslate();
  if (subscriptions.length === 0) return <Typography color="text.secondary">{translate('admin.account.noSubscriptions')}</Typography>;
  return (
    <TableScroller title={translate('admin.account.subscriptions')}>
      <Table size="small" aria-labelledby="account-subscriptions-title">
        <TableHead>
          <TableRow>
            <TableCell>{translate('admin.account.product')}</TableCell>
            <TableCell>{translate('admin.account.status')}</TableCell>
            <TableCell>{translate('admin.account.price')}</TableCell>
            <TableCell>{translate('admin.account.periodEnd')}</TableCell>
            <TableCell>{translate('admin.account.trialEnd')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {subscriptions.map((subscription) => {
            const badge = statusBadge(subscription.status);
            return (
              <TableRow key={subscription.id}>
                <TableCell>{subscription.productName}</TableCell>
                <TableCell>
                  <Chip size="small" label={badge.label} color={badge.color} />
                </TableCell>
                <TableCell>{priceOf(subscription)}</TableCell>
                <TableCell>{dateOrDash(subscription.currentPeriodEnd)}</TableCell>
                <TableCell>{dateOrDash(subscription.trialEnd)}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableScroller>
  );
}

function Details({ details }: { details: AccountDetails }) {
  const translate = useTranslate();
  const lastSignIn = details.lastSignInAt
    ? translate('admin.account.signedInWith', {
        time: formatDateTime(details.lastSignInAt),
        method: translate(`admin.account.method.${details.lastSignInMethod ?? 'unknown'}`),
      })
    : translate('admin.account.never');
  return (
    <>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1, m: 0, mb: 2 }}>
        <Detail label={translate('admin.account.activeSessions')}>{formatCount(details.activeSessions)}</Detail>
        <Detail label={translate('admin.account.lastSignIn')}>
          {details.lastSignInAt ? <time dateTime={details.lastSignInAt}>{lastSignIn}</time> : lastSignIn}
        </Detail>
        <Detail label={translate('admin.account.creditBalance')}>{formatCount(details.creditBalance)}</Detail>
        <Detail label={translate('admin.account.storedMessages')}>{formatCount(details.storedMessages)}</Detail>
        <Detail label={translate('admin.account.organisations')}>
          {details.memberships.length === 0
            ? translate('admin.account.noOrganisations')
            : details.memberships
                .map((m) => translate('admin.account.membership', { name: m.name, role: m.role, date: formatDateTime(m.joinedAt) }))
                .join('; ')}
        </Detail>
        {details.suspension && (
          <>
            <Detail label={translate('admin.account.suspendedSince')}>{formatDateTime(details.suspension.suspendedAt)}</Detail>
            <Detail label={translate('admin.account.suspensionReason')}>{details.suspension.reason}</Detail>
          </>
        )}
      </Box>
      <Typography id="account-subscriptions-title" component="h3" variant="subtitle1" gutterBottom>
        {translate('admin.account.subscriptions')}
      </Typography>
      <Subscriptions subscriptions={details.subscriptions} />
    </>
  );
}

/** Issue 14: the account's sessions, last sign-in, subscriptions, credits and stored messages. */
export function AccountDetailsPanel() {
  const user = useRecordContext<AdminUser>();
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const adminCall = useAdminCall();
  const details = useQuery({
    queryKey: accountDetailsQueryKey(user?.id ?? ''),
    queryFn: () => adminCall(fetchAccountDetails(user!.id)),
    enabled: Boolean(user),
  });
  const { error } = details;
  useEffect(() => {
    if (error) notifyError({ message: 'admin.account.failed', error });
  }, [error, notifyError]);

  return (
    <Box component="section" aria-labelledby="account-details-title" sx={{ p: 2 }}>
      <Typography id="account-details-title" component="h2" variant="h6" gutterBottom>
        {translate('admin.account.title')}
      </Typography>
      {details.isPending ? (
        <CircularProgress size={24} aria-label={translate('ra.message.loading')} />
      ) : details.isError ? (
        <Typography color="error">{translate('admin.account.failed')}</Typography>
      ) : (
        <Details details={details.data} />
      )}
    </Box>
  );
}
