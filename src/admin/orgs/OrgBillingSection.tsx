import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminOrg } from '../../../contract/adminOrgs';
import { statusBadge } from '../../billing/subscriptionRules';
import { formatCount, formatMoney } from '../../ui/format';
import { Detail, Details, Moment, OrgSection } from './OrgSection';

/** The organisation's plan (its live subscription) and the company details every invoice of it carries. */
export function OrgBillingSection() {
  const org = useRecordContext<AdminOrg>();
  const translate = useTranslate();
  if (!org) return null;
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.orgs.subscription.${key}`, options);
  const { subscription, details } = org;
  const badge = subscription ? statusBadge(subscription.status) : null;
  return (
    <OrgSection title={t('title')}>
      {() => (
        <Details>
          <Detail label={t('plan')}>{subscription?.plan ?? t('none')}</Detail>
          {subscription && badge && (
            <>
              <Detail label={t('status')}>
                <Chip size="small" label={badge.label} color={badge.color} />
              </Detail>
              <Detail label={t('seats')}>{formatCount(subscription.seats)}</Detail>
              <Detail label={t('price')}>
                {subscription.unitAmount === null ? '—' : formatMoney(subscription.unitAmount, subscription.currency)}
              </Detail>
              <Detail label={t('allowance')}>
                {subscription.allowancePerSeat === null ? t('unlimited') : formatCount(subscription.allowancePerSeat)}
              </Detail>
              <Detail label={t('periodEnd')}>{subscription.currentPeriodEnd ? <Moment iso={subscription.currentPeriodEnd} /> : '—'}</Detail>
              <Detail label={t('renewal')}>{subscription.cancelAtPeriodEnd ? t('ends') : t('renews')}</Detail>
            </>
          )}
          <Detail label={t('company')}>{details?.companyName ?? t('noDetails')}</Detail>
          {details && (
            <>
              <Detail label={t('address')}>
                {[details.addressLine1, details.addressLine2, `${details.postalCode} ${details.city}`, details.region, details.country]
                  .filter(Boolean)
                  .join(', ')}
              </Detail>
              <Detail label={t('taxId')}>{details.taxId ?? '—'}</Detail>
            </>
          )}
          <Detail label={t('customer')}>{org.customerId ?? '—'}</Detail>
        </Details>
      )}
    </OrgSection>
  );
}
