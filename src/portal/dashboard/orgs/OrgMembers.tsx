import { Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { orgMay, ORG_ROLE_NAMES, ORG_ROLE_WORDS, type AssignableOrgRole, type Org, type OrgMember } from '../../../../contract/orgs';
import { changeMemberRole, orgKey, ORGS_QUERY_KEY, removeMember, transferOwnership } from '../../../api/orgs';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { formatDate } from '../../../ui/format';
import { useToast } from '../../../ui/toast';
import { memberActions, memberUsageText } from './memberActions';
import { MemberSeat } from './MemberSeat';

const FAILED = 'The change could not be made';

type Confirming = { kind: 'remove' | 'leave' | 'makeOwner'; member: OrgMember } | null;

const CONFIRM_TEXT = {
  remove: (org: Org, m: OrgMember) => ({
    title: `Remove ${m.name}?`,
    text: `${m.name} leaves ${org.name} at once. You can invite them again later.`,
    confirmLabel: 'Remove',
    busyLabel: 'Removing...',
  }),
  leave: (org: Org) => ({
    title: `Leave ${org.name}?`,
    text: `You leave ${org.name} at once. To come back you need a new invitation.`,
    confirmLabel: 'Leave',
    busyLabel: 'Leaving...',
  }),
  makeOwner: (org: Org, m: OrgMember) => ({
    title: `Make ${m.name} the owner?`,
    text: `${m.name} becomes the owner of ${org.name}, and you become an admin. Only the new owner can give ownership back.`,
    confirmLabel: 'Make owner',
    busyLabel: 'Transferring...',
  }),
};

/** The members of an organisation, each with the controls the viewer's role allows on them. */
export function OrgMembers({ org, members, viewerId }: { org: Org; members: OrgMember[]; viewerId: string }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const viewer = { userId: viewerId, role: org.role };
  const mayManageSeats = orgMay(org.role, 'manageSeats');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ORGS_QUERY_KEY });

  const role = useMutation({
    mutationFn: ({ member, to }: { member: OrgMember; to: AssignableOrgRole }) => changeMemberRole(org.id, member.userId, to),
    onSuccess: (changed) => {
      toast({ title: 'Role changed', description: `${changed.name} is now ${ORG_ROLE_WORDS[changed.role]} of ${org.name}.` });
      void queryClient.invalidateQueries({ queryKey: orgKey(org.id) });
    },
    onError: (error) => toast({ title: 'Error', description: error.message || FAILED, variant: 'destructive' }),
  });
  const confirmed = useMutation({
    mutationFn: ({ kind, member }: NonNullable<Confirming>) =>
      kind === 'makeOwner' ? transferOwnership(org.id, member.userId) : removeMember(org.id, member.userId),
    onSuccess: () => {
      setConfirming(null);
      void refresh();
    },
  });

  const dialog = confirming ? CONFIRM_TEXT[confirming.kind](org, confirming.member) : null;
  return (
    <>
      <Box component="ul" aria-label={`Members of ${org.name}`} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {members.map((member) => {
          const actions = memberActions(viewer, member);
          const you = member.userId === viewerId;
          return (
            <Box
              component="li"
              key={member.userId}
              sx={{
                display: 'flex',
                flexDirection: { xs: 'column', sm: 'row' },
                gap: 1.5,
                py: 1.5,
                justifyContent: 'space-between',
                alignItems: { xs: 'stretch', sm: 'center' },
                borderTop: 1,
                borderColor: 'divider',
                '&:first-of-type': { borderTop: 0 },
              }}
            >
              <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                <Typography sx={{ fontWeight: 500 }}>
                  {member.name}
                  {you ? ' (you)' : ''}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {[member.email, `joined ${formatDate(member.joinedAt)}`].filter(Boolean).join(' · ')}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {memberUsageText(member)}
                </Typography>
              </Box>
              {mayManageSeats && <MemberSeat org={org} member={member} />}
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0, flexWrap: 'wrap', rowGap: 1 }}>
                {actions.roles.length > 0 ? (
                  <TextField
                    select
                    size="small"
                    label={`Role of ${member.name}`}
                    value={member.role}
                    disabled={role.isPending}
                    onChange={(event) => role.mutate({ member, to: event.target.value as AssignableOrgRole })}
                    sx={{ minWidth: 140 }}
                  >
                    {actions.roles.map((option) => (
                      <MenuItem key={option} value={option}>
                        {ORG_ROLE_NAMES[option]}
                      </MenuItem>
                    ))}
                  </TextField>
                ) : (
                  <Typography variant="body2">{ORG_ROLE_NAMES[member.role]}</Typography>
                )}
                {actions.makeOwner && (
                  <Button
                    size="small"
                    onClick={() => setConfirming({ kind: 'makeOwner', member })}
                    aria-label={`Make owner: ${member.name}`}
                  >
                    Make owner
                  </Button>
                )}
                {actions.remove && (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setConfirming({ kind: 'remove', member })}
                    aria-label={`Remove ${member.name}`}
                  >
                    Remove
                  </Button>
                )}
                {actions.leave && (
                  <Button size="small" color="error" onClick={() => setConfirming({ kind: 'leave', member })}>
                    Leave
                  </Button>
                )}
              </Stack>
            </Box>
          );
        })}
      </Box>
      {dialog && confirming && (
        <ConfirmDialog
          open
          {...dialog}
          busy={confirmed.isPending}
          error={confirmed.error}
          failedText={FAILED}
          onConfirm={() => confirmed.mutate(confirming)}
          onClose={() => {
            confirmed.reset();
            setConfirming(null);
          }}
        />
      )}
    </>
  );
}
