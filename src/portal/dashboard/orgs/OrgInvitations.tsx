import { Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invitationInputSchema, type Invitation } from '../../../../contract/orgInvitations';
import { ASSIGNABLE_ORG_ROLES, ORG_ROLE_NAMES, roleGrantRefusal, type AssignableOrgRole, type Org } from '../../../../contract/orgs';
import { fetchInvitations, inviteMember, orgInvitationsKey, orgKey, resendInvitation, revokeInvitation } from '../../../api/orgs';
import { formatDate } from '../../../ui/format';
import { useToast } from '../../../ui/toast';
import { FormTextField } from '../../forms/FormTextField';
import { useContractForm, useProblemToast } from '../../forms/contractForm';

const FAILED = 'The invitation could not be changed';

interface InviteValues {
  email: string;
  role?: AssignableOrgRole;
}
interface InviteInput {
  email: string;
  role: AssignableOrgRole;
}

/** An address and a role: a link goes to the address, valid 7 days (decision 039). */
function InviteForm({ org }: { org: Org }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const showProblem = useProblemToast();
  const roles = ASSIGNABLE_ORG_ROLES.filter((role) => roleGrantRefusal(org.role, role) === null);
  const { register, handleSubmit, reset, watch, setValue } = useContractForm<InviteValues, InviteInput>(invitationInputSchema);
  const invite = useMutation({
    mutationFn: (values: InviteInput) => inviteMember(org.id, values),
    onSuccess: (sent) => {
      reset({ email: '', role: 'member' });
      toast({ title: 'Invitation sent', description: `We sent a link to ${sent.email}. It works for 7 days.` });
      void queryClient.invalidateQueries({ queryKey: orgKey(org.id) });
    },
    onError: (error) => toast({ title: 'Error', description: error.message || 'The invitation could not be sent', variant: 'destructive' }),
  });
  const role = watch('role') ?? 'member';
  const onSubmit = handleSubmit((values) => {
    if (!invite.isPending) invite.mutate(values);
  }, showProblem);
  return (
    <Box component="form" onSubmit={onSubmit} aria-label={`Invite someone to ${org.name}`}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <FormTextField
          label="E-mail"
          field={register('email')}
          type="email"
          required
          fullWidth
          disabled={invite.isPending}
          autoComplete="off"
        />
        <TextField
          select
          label="Role"
          value={role}
          onChange={(event) => setValue('role', event.target.value as AssignableOrgRole)}
          disabled={invite.isPending}
          sx={{ minWidth: 140 }}
        >
          {roles.map((option) => (
            <MenuItem key={option} value={option}>
              {ORG_ROLE_NAMES[option]}
            </MenuItem>
          ))}
        </TextField>
        <Button type="submit" variant="contained" loading={invite.isPending} sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}>
          Invite
        </Button>
      </Stack>
    </Box>
  );
}

/** The invitations not yet accepted, each resent or withdrawn; then the form for a new one. */
export function OrgInvitations({ org }: { org: Org }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const invitations = useQuery({ queryKey: orgInvitationsKey(org.id), queryFn: () => fetchInvitations(org.id) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: orgKey(org.id) });
  const change = useMutation({
    mutationFn: ({ kind, invitation }: { kind: 'resend' | 'revoke'; invitation: Invitation }) =>
      kind === 'resend' ? resendInvitation(org.id, invitation.id) : revokeInvitation(org.id, invitation.id),
    onSuccess: (_answer, { kind, invitation }) => {
      toast(
        kind === 'resend'
          ? { title: 'Invitation sent again', description: `A new link went to ${invitation.email}; the old one no longer works.` }
          : { title: 'Invitation withdrawn', description: `The link sent to ${invitation.email} no longer works.` },
      );
      void refresh();
    },
    onError: (error) => toast({ title: 'Error', description: error.message || FAILED, variant: 'destructive' }),
  });
  const pending = invitations.data?.invitations ?? [];
  return (
    <Stack spacing={2}>
      <Typography component="h3" variant="subtitle1">
        Invitations
      </Typography>
      {invitations.isError && <Typography color="error">The invitations could not be read: {invitations.error.message}</Typography>}
      {invitations.isSuccess && pending.length === 0 && <Typography color="text.secondary">No invitation is waiting.</Typography>}
      {pending.length > 0 && (
        <Box component="ul" aria-label={`Invitations to ${org.name}`} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {pending.map((invitation) => (
            <Box
              component="li"
              key={invitation.id}
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, py: 1, justifyContent: 'space-between', alignItems: 'center' }}
            >
              <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                <Typography>{invitation.email}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {ORG_ROLE_NAMES[invitation.role]} ·{' '}
                  {invitation.expired ? `expired ${formatDate(invitation.expiresAt)}` : `valid until ${formatDate(invitation.expiresAt)}`}
                </Typography>
              </Box>
              <Stack direction="row" spacing={1}>
                <Button
                  size="small"
                  disabled={change.isPending}
                  onClick={() => change.mutate({ kind: 'resend', invitation })}
                  aria-label={`Resend the invitation to ${invitation.email}`}
                >
                  Resend
                </Button>
                <Button
                  size="small"
                  color="error"
                  disabled={change.isPending}
                  onClick={() => change.mutate({ kind: 'revoke', invitation })}
                  aria-label={`Withdraw the invitation to ${invitation.email}`}
                >
                  Withdraw
                </Button>
              </Stack>
            </Box>
          ))}
        </Box>
      )}
      <InviteForm org={org} />
    </Stack>
  );
}
