import { Button, FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MAX_MONTHLY_LIMIT, type Org, type OrgMember } from '../../../../contract/orgs';
import { changeMember, orgKey } from '../../../api/orgs';
import { useToast } from '../../../ui/toast';

const FAILED = 'The change could not be made';

/** A limit as typed: empty is none; else a whole number within bounds, or NaN. */
function parsedLimit(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) && Number(trimmed) <= MAX_MONTHLY_LIMIT ? Number(trimmed) : NaN;
}

/** An admin's controls on a member: their seat, and their monthly limit on the shared pool. */
export function MemberSeat({ org, member }: { org: Org; member: OrgMember }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [limit, setLimit] = useState(member.monthlyLimit === null ? '' : String(member.monthlyLimit));
  const change = useMutation({
    mutationFn: (body: { seat?: boolean; monthlyLimit?: number | null }) => changeMember(org.id, member.userId, body),
    onSuccess: (changed, body) => {
      const description =
        body.seat !== undefined
          ? `${changed.name} ${changed.seat ? 'has a seat' : 'no longer has a seat'} in ${org.name}.`
          : changed.monthlyLimit === null
            ? `${changed.name} has no monthly limit.`
            : `${changed.name} may use ${changed.monthlyLimit} shared credits a month.`;
      toast({ title: body.seat !== undefined ? 'Seat changed' : 'Limit saved', description });
      void queryClient.invalidateQueries({ queryKey: orgKey(org.id) });
    },
    onError: (error) => toast({ title: 'Error', description: error.message || FAILED, variant: 'destructive' }),
  });
  const parsed = parsedLimit(limit);
  const limitValid = !Number.isNaN(parsed);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <FormControlLabel
        control={
          <Switch
            checked={member.seat}
            disabled={change.isPending}
            onChange={(event) => change.mutate({ seat: event.target.checked })}
            slotProps={{ input: { 'aria-label': `Seat for ${member.name}` } }}
          />
        }
        label="Seat"
      />
      <TextField
        size="small"
        label="Monthly limit"
        placeholder="No limit"
        value={limit}
        onChange={(event) => setLimit(event.target.value)}
        error={!limitValid}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-label': `Monthly limit of ${member.name}, in shared credits` } }}
        sx={{ width: 130 }}
      />
      <Button
        size="small"
        variant="outlined"
        disabled={!limitValid || parsed === member.monthlyLimit || change.isPending}
        onClick={() => change.mutate({ monthlyLimit: parsed })}
        aria-label={`Save limit for ${member.name}`}
      >
        Save limit
      </Button>
    </Stack>
  );
}
