import { Button, LinearProgress, Stack } from '@mui/material';
import { useState } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminOrg } from '../../../contract/adminOrgs';
import { formatCount } from '../../ui/format';
import { useRefusalNotes } from '../RefusalNotes';
import { useStaffRefusal } from '../useStaffMay';
import { GrantOrgCreditsDialog } from './GrantOrgCreditsDialog';
import { Detail, Details, OrgSection } from './OrgSection';

/** The seats given of those bought, as a meter. */
function SeatMeter({ org }: { org: AdminOrg }) {
  const translate = useTranslate();
  const { assigned, bought } = org.seats;
  if (bought === 0) return <>{translate('admin.orgs.pool.noSeats')}</>;
  const text = translate('admin.orgs.pool.meter', { assigned: formatCount(assigned), bought: formatCount(bought) });
  return (
    <Stack spacing={0.5} sx={{ maxWidth: 360 }}>
      <span>{text}</span>
      <LinearProgress
        variant="determinate"
        value={Math.min(100, (assigned / bought) * 100)}
        aria-label={translate('admin.orgs.pool.meterLabel')}
        aria-valuetext={text}
        sx={{ height: 8, borderRadius: 4 }}
      />
    </Stack>
  );
}

/**
 * The seats and the shared pool, with Grant credits: admins only (support sees it switched off,
 * with the reason read with it, as every control a role may not use).
 */
export function OrgPoolSection() {
  const org = useRecordContext<AdminOrg>();
  const translate = useTranslate();
  const [granting, setGranting] = useState(false);
  const refusal = useStaffRefusal('grantOrgCredits');
  const { describedBy, notes } = useRefusalNotes([refusal]);
  if (!org) return null;
  return (
    <OrgSection title={translate('admin.orgs.pool.title')}>
      {() => (
        <>
          <Details>
            <Detail label={translate('admin.orgs.pool.seats')}>
              <SeatMeter org={org} />
            </Detail>
            <Detail label={translate('admin.orgs.pool.pool')}>
              {translate('admin.orgs.pool.credits', { credits: formatCount(org.pool) })}
            </Detail>
          </Details>
          <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              onClick={() => setGranting(true)}
              disabled={refusal !== null}
              aria-describedby={describedBy(refusal)}
            >
              {translate('admin.orgs.grant.label')}
            </Button>
            {notes}
          </Stack>
          {granting && <GrantOrgCreditsDialog org={org} onClose={() => setGranting(false)} />}
        </>
      )}
    </OrgSection>
  );
}
