import { Box, Button, Divider, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { orgInputSchema, orgMay, ORG_ROLE_WORDS, type Org, type OrgInput } from '../../../../contract/orgs';
import { createOrg, deleteOrg, fetchMembers, fetchOrgs, orgMembersKey, ORGS_QUERY_KEY } from '../../../api/orgs';
import { useCurrentUser } from '../../../authProvider/session';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { useToast } from '../../../ui/toast';
import { FormTextField } from '../../forms/FormTextField';
import { useContractForm, useProblemToast } from '../../forms/contractForm';
import { AccountPanel } from '../account/AccountPanel';
import { OrgActivity } from './OrgActivity';
import { OrgInvitations } from './OrgInvitations';
import { OrgMembers } from './OrgMembers';
import { OrgBillingPanel } from './OrgBillingPanel';
import { OrgUsagePanel } from './OrgUsagePanel';
import { seatMeterText } from './orgPlanRules';

const DELETE_FAILED = 'The organisation could not be deleted';

/** One organisation: its members, its invitations for those who manage them, and the owner's Delete. */
function OrgPanel({ org, viewerId }: { org: Org; viewerId: string }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const members = useQuery({ queryKey: orgMembersKey(org.id), queryFn: () => fetchMembers(org.id) });
  const remove = useMutation({
    mutationFn: () => deleteOrg(org.id),
    onSuccess: () => {
      setDeleting(false);
      toast({ title: 'Organisation deleted', description: `${org.name} and its memberships are gone.` });
      void queryClient.invalidateQueries({ queryKey: ORGS_QUERY_KEY });
    },
  });
  const headingId = `org-${org.id}-heading`;
  return (
    <AccountPanel
      headingId={headingId}
      title={org.name}
      intro={
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          You are {ORG_ROLE_WORDS[org.role]}. {org.members === 1 ? '1 member' : `${org.members} members`}.
          {org.seats.bought > 0 && ` ${seatMeterText(org)}.`}
        </Typography>
      }
      loading={members.isPending && `Loading the members of ${org.name}`}
      error={members.isError ? `The members could not be read: ${members.error.message}` : null}
    >
      {members.data && (
        <Stack spacing={3}>
          <OrgMembers org={org} members={members.data.members} viewerId={viewerId} />
          {orgMay(org.role, 'manageBilling') && (
            <>
              <Divider />
              <OrgBillingPanel org={org} />
            </>
          )}
          {orgMay(org.role, 'readUsage') && (
            <>
              <Divider />
              <OrgUsagePanel org={org} />
            </>
          )}
          {orgMay(org.role, 'manageMembers') && (
            <>
              <Divider />
              <OrgInvitations org={org} />
            </>
          )}
          {orgMay(org.role, 'readAudit') && (
            <>
              <Divider />
              <OrgActivity org={org} />
            </>
          )}
          {orgMay(org.role, 'deleteOrg') && (
            <Box>
              <Button color="error" variant="outlined" onClick={() => setDeleting(true)}>
                Delete organisation
              </Button>
            </Box>
          )}
        </Stack>
      )}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${org.name}?`}
        text={`${org.name} is deleted at once, with every membership and invitation. This cannot be undone.`}
        confirmLabel="Delete organisation"
        busyLabel="Deleting..."
        busy={remove.isPending}
        error={remove.error}
        failedText={DELETE_FAILED}
        onConfirm={() => remove.mutate()}
        onClose={() => {
          remove.reset();
          setDeleting(false);
        }}
      />
    </AccountPanel>
  );
}

/** A name, and the organisation is made with the user as its owner. */
function CreateOrgPanel() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const showProblem = useProblemToast();
  const { register, handleSubmit, reset } = useContractForm<OrgInput, OrgInput>(orgInputSchema);
  const create = useMutation({
    mutationFn: (values: OrgInput) => createOrg(values.name),
    onSuccess: (org) => {
      reset({ name: '' });
      toast({ title: 'Organisation created', description: `You own ${org.name}. Invite its people by e-mail.` });
      void queryClient.invalidateQueries({ queryKey: ORGS_QUERY_KEY });
    },
    onError: (error) =>
      toast({ title: 'Error', description: error.message || 'The organisation could not be created', variant: 'destructive' }),
  });
  const onSubmit = handleSubmit((values) => {
    if (!create.isPending) create.mutate(values);
  }, showProblem);
  return (
    <AccountPanel
      headingId="org-create-heading"
      title="Create an organisation"
      intro={
        <Typography color="text.secondary">
          A studio's people in one place: you own it, invite them by e-mail and give each a role.
        </Typography>
      }
    >
      <Box component="form" onSubmit={onSubmit} aria-labelledby="org-create-heading">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, mt: 2 }}>
          <FormTextField label="Name" field={register('name')} required fullWidth disabled={create.isPending} autoComplete="organization" />
          <Button
            type="submit"
            variant="contained"
            loading={create.isPending}
            sx={{ alignSelf: { xs: 'flex-start', sm: 'center' }, flexShrink: 0 }}
          >
            Create
          </Button>
        </Stack>
      </Box>
    </AccountPanel>
  );
}

/** The dashboard's Organisations section (issue 38): the user's studios, and a new one. */
export function OrganisationsSection() {
  const user = useCurrentUser();
  const orgs = useQuery({ queryKey: ORGS_QUERY_KEY, queryFn: fetchOrgs });
  const viewerId = user.data?.id;
  return (
    <Stack spacing={3}>
      <Typography component="h1" variant="h4">
        Organisations
      </Typography>
      {orgs.isPending && (
        <Typography role="status" color="text.secondary">
          Loading your organisations...
        </Typography>
      )}
      {orgs.isError && <Typography color="error">Your organisations could not be read: {orgs.error.message}</Typography>}
      {orgs.data?.orgs.length === 0 && (
        <Typography color="text.secondary">
          You are not in any organisation. Create one, or open the link of an invitation you were sent.
        </Typography>
      )}
      {viewerId && orgs.data?.orgs.map((org) => <OrgPanel key={org.id} org={org} viewerId={viewerId} />)}
      <CreateOrgPanel />
    </Stack>
  );
}
