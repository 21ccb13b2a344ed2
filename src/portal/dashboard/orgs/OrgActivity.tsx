import { Box, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Org } from '../../../../contract/orgs';
import { fetchOrgAudit, orgAuditKey } from '../../../api/orgs';
import { formatMoment } from '../../../ui/format';

/** The organisation's own audit log for its owner and admins (issue 38): who invited, removed, changed a role. */
export function OrgActivity({ org }: { org: Org }) {
  const audit = useQuery({ queryKey: orgAuditKey(org.id), queryFn: () => fetchOrgAudit(org.id) });
  return (
    <Box>
      <Typography component="h3" variant="subtitle1" gutterBottom>
        Activity
      </Typography>
      {audit.isPending && <Typography color="text.secondary">Loading the activity...</Typography>}
      {audit.isError && <Typography color="error">The activity could not be read: {audit.error.message}</Typography>}
      {audit.data && (
        <Box component="ol" aria-label={`Activity in ${org.name}`} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {audit.data.entries.map((entry) => (
            <Box component="li" key={entry.id} sx={{ py: 0.75, overflowWrap: 'anywhere' }}>
              <Typography variant="body2">{entry.text}</Typography>
              <Typography variant="body2" color="text.secondary">
                {[entry.actor ?? 'A deleted account', formatMoment(entry.at)].join(' · ')}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
