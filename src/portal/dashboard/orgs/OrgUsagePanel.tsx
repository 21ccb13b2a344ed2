import { Alert, Box, Button, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Org } from '../../../../contract/orgs';
import { USAGE_RANGES, type UsageRange } from '../../../../contract/usage';
import { fetchOrgUsage, orgUsageCsvPath, orgUsageKey } from '../../../api/orgBilling';
import { HistoryFigures } from '../UsageHistoryCard';
import { UsageTallyTable } from '../UsageTallyTable';

/** What the organisation paid for its members: by member, per day, by project and engine version; the period's CSV. */
export function OrgUsagePanel({ org }: { org: Org }) {
  const [days, setDays] = useState<UsageRange>(USAGE_RANGES[0]);
  const usage = useQuery({
    queryKey: orgUsageKey(org.id, days),
    queryFn: () => fetchOrgUsage(org.id, days),
    placeholderData: keepPreviousData,
  });
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId} aria-busy={usage.isFetching}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1 }}>
        <Typography id={titleId} component="h3" variant="h6">
          Usage
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={days}
          onChange={(_, value: UsageRange | null) => value && setDays(value)}
          aria-label={`Range of ${org.name}'s usage`}
        >
          {USAGE_RANGES.map((range) => (
            <ToggleButton key={range} value={range}>
              {range} days
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {usage.isPending && <Typography role="status">Loading the usage...</Typography>}
      {usage.isError && <Alert severity="error">The usage could not be read: {usage.error.message}</Alert>}
      {usage.data && (
        <Stack spacing={3}>
          <UsageTallyTable
            title="By member"
            column="Member"
            days={usage.data.days.length}
            rows={usage.data.byMember.map((row) => ({ key: row.name, uses: row.uses, units: row.units }))}
          />
          <HistoryFigures history={usage.data} titleId={titleId} />
          <Box>
            {/* A plain link: the browser downloads the file with the session cookie. */}
            <Button variant="outlined" href={orgUsageCsvPath(org.id)} download>
              Download this period&apos;s uses (CSV)
            </Button>
          </Box>
        </Stack>
      )}
    </Box>
  );
}
