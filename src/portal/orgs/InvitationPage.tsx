import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { INVITATION_ERRORS, type InvitationPreview } from '../../../contract/orgInvitations';
import { ORG_ROLE_WORDS } from '../../../contract/orgs';
import { HttpError } from '../../api/client';
import { acceptInvitation, fetchInvitation } from '../../api/orgs';
import { useCurrentUser } from '../../authProvider/session';
import { BusyLine, PageCard } from '../../ui/PageCard';
import { forgetInvitation, rememberInvitation } from './pendingInvitation';

const sameAddress = (a: string | null | undefined, b: string) => a?.trim().toLowerCase() === b.toLowerCase();

function ToDashboard() {
  return (
    <Stack direction="row">
      <Button variant="contained" component={RouterLink} to="/dashboard">
        Go to Dashboard
      </Button>
    </Stack>
  );
}

/** Who asked whom to join what, as the mail said it. */
function Invited({ invitation }: { invitation: InvitationPreview }) {
  const who = invitation.invitedBy ?? 'A member of the organisation';
  return (
    <Typography>
      {who} invited {invitation.email} to join {invitation.orgName} on Sage as {ORG_ROLE_WORDS[invitation.role]}.
    </Typography>
  );
}

/** A pending invitation: accepted by the invited address's account, or signed in to first. */
function PendingInvitation({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const user = useCurrentUser();
  const accept = useMutation({ mutationFn: () => acceptInvitation(token), onSuccess: forgetInvitation });
  const signedOut = user.data === null;
  useEffect(() => {
    if (signedOut) rememberInvitation(token);
  }, [signedOut, token]);

  if (accept.isSuccess) {
    return (
      <PageCard title={`You joined ${accept.data.orgName}`}>
        <Typography>
          You are {ORG_ROLE_WORDS[accept.data.role]} of {accept.data.orgName}.
        </Typography>
        <ToDashboard />
      </PageCard>
    );
  }
  return (
    <PageCard title={`Join ${invitation.orgName}`}>
      <Invited invitation={invitation} />
      {user.isPending && (
        <Box role="status">
          <BusyLine>Loading...</BusyLine>
        </Box>
      )}
      {signedOut && (
        <>
          <Typography>
            Sign in or create an account with {invitation.email} to accept. You come back here once you are signed in.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Button variant="contained" component={RouterLink} to="/login">
              Sign in
            </Button>
            <Button variant="outlined" component={RouterLink} to="/login?mode=register">
              Create account
            </Button>
          </Stack>
        </>
      )}
      {user.data && !sameAddress(user.data.email, invitation.email) && (
        <>
          <Alert severity="warning">
            You are signed in as {user.data.email ?? user.data.username}. This invitation was sent to {invitation.email}: sign in with the
            account of that address to accept it.
          </Alert>
          <Stack direction="row">
            <Button variant="outlined" component={RouterLink} to="/logout">
              Sign out
            </Button>
          </Stack>
        </>
      )}
      {user.data && sameAddress(user.data.email, invitation.email) && (
        <>
          {accept.isError && <Alert severity="error">{accept.error.message}</Alert>}
          <Stack direction="row">
            <Button variant="contained" loading={accept.isPending} onClick={() => accept.mutate()}>
              Accept invitation
            </Button>
          </Stack>
        </>
      )}
    </PageCard>
  );
}

const ENDED = {
  accepted: { title: 'Invitation already accepted', text: INVITATION_ERRORS.accepted.message },
  revoked: { title: 'Invitation withdrawn', text: INVITATION_ERRORS.revoked.message },
  expired: { title: 'Invitation expired', text: INVITATION_ERRORS.expired.message },
} as const;

/** /invitations/{token}: an invitation to an organisation, from its mail (issue 38). */
export function InvitationPage() {
  const { token = '' } = useParams();
  const invitation = useQuery({ queryKey: ['invitation', token], queryFn: () => fetchInvitation(token), retry: false });
  const state = invitation.data?.state;
  useEffect(() => {
    if (state !== undefined && state !== 'pending') forgetInvitation();
  }, [state]);

  if (invitation.isPending) {
    return (
      <PageCard title="Invitation">
        <Box role="status">
          <BusyLine>Loading...</BusyLine>
        </Box>
      </PageCard>
    );
  }
  if (invitation.isError) {
    const invalid = invitation.error instanceof HttpError && invitation.error.status === 404;
    return (
      <PageCard title={invalid ? 'Invitation not valid' : 'Something went wrong'}>
        <Alert severity="error">{invalid ? INVITATION_ERRORS.notFound.message : invitation.error.message}</Alert>
        {invalid ? (
          <ToDashboard />
        ) : (
          <Stack direction="row">
            <Button variant="contained" onClick={() => void invitation.refetch()}>
              Try Again
            </Button>
          </Stack>
        )}
      </PageCard>
    );
  }
  if (invitation.data.state !== 'pending') {
    const ended = ENDED[invitation.data.state];
    return (
      <PageCard title={ended.title}>
        <Invited invitation={invitation.data} />
        <Alert severity="info">{ended.text}</Alert>
        <ToDashboard />
      </PageCard>
    );
  }
  return <PendingInvitation token={token} invitation={invitation.data} />;
}
