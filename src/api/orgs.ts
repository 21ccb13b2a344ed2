import {
  invitationAcceptedSchema,
  invitationListSchema,
  invitationPreviewSchema,
  invitationSchema,
  type Invitation,
  type InvitationAccepted,
  type InvitationInput,
  type InvitationList,
  type InvitationPreview,
} from '../../contract/orgInvitations';
import {
  orgAuditSchema,
  orgListSchema,
  orgMemberSchema,
  orgMembersSchema,
  orgSchema,
  type AssignableOrgRole,
  type Org,
  type OrgAudit,
  type OrgList,
  type OrgMember,
  type OrgMembers,
} from '../../contract/orgs';
import { getJson, patch, post, remove } from './client';

/** Query keys: the caller's organisations, and each one's members and invitations (issue 38). */
export const ORGS_QUERY_KEY = ['orgs'] as const;
/** Everything read of one organisation: invalidated after any change to it. */
export const orgKey = (orgId: string) => ['orgs', orgId] as const;
export const orgMembersKey = (orgId: string) => ['orgs', orgId, 'members'] as const;
export const orgInvitationsKey = (orgId: string) => ['orgs', orgId, 'invitations'] as const;
export const orgAuditKey = (orgId: string) => ['orgs', orgId, 'audit'] as const;

const org = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}`;

export const fetchOrgs = (): Promise<OrgList> => getJson('/api/orgs', orgListSchema);
export const createOrg = (name: string): Promise<Org> => post('/api/orgs', orgSchema, { name });
export const renameOrg = (orgId: string, name: string): Promise<Org> => patch(org(orgId), orgSchema, { name });
export const deleteOrg = (orgId: string): Promise<unknown> => remove(org(orgId));
export const transferOwnership = (orgId: string, userId: string): Promise<Org> => post(`${org(orgId)}/transfer`, orgSchema, { userId });

export const fetchOrgAudit = (orgId: string): Promise<OrgAudit> => getJson(`${org(orgId)}/audit`, orgAuditSchema);
export const fetchMembers = (orgId: string): Promise<OrgMembers> => getJson(`${org(orgId)}/members`, orgMembersSchema);
export const changeMemberRole = (orgId: string, userId: string, role: AssignableOrgRole): Promise<OrgMember> =>
  patch(`${org(orgId)}/members/${encodeURIComponent(userId)}`, orgMemberSchema, { role });
/** Gives the member a seat or takes it back; sets or clears their monthly limit on the shared pool. */
export const changeMember = (orgId: string, userId: string, change: { seat?: boolean; monthlyLimit?: number | null }): Promise<OrgMember> =>
  patch(`${org(orgId)}/members/${encodeURIComponent(userId)}`, orgMemberSchema, change);
/** Removes a member; the caller's own id: leaving. */
export const removeMember = (orgId: string, userId: string): Promise<unknown> =>
  remove(`${org(orgId)}/members/${encodeURIComponent(userId)}`);

export const fetchInvitations = (orgId: string): Promise<InvitationList> => getJson(`${org(orgId)}/invitations`, invitationListSchema);
export const inviteMember = (orgId: string, input: InvitationInput): Promise<Invitation> =>
  post(`${org(orgId)}/invitations`, invitationSchema, input);
export const revokeInvitation = (orgId: string, invId: string): Promise<unknown> =>
  remove(`${org(orgId)}/invitations/${encodeURIComponent(invId)}`);
export const resendInvitation = (orgId: string, invId: string): Promise<Invitation> =>
  post(`${org(orgId)}/invitations/${encodeURIComponent(invId)}/resend`, invitationSchema);

/** What an invitation's link shows. */
export const fetchInvitation = (token: string): Promise<InvitationPreview> =>
  getJson(`/api/invitations/${encodeURIComponent(token)}`, invitationPreviewSchema);

/** Joins the organisation as the signed-in account. */
export const acceptInvitation = (token: string): Promise<InvitationAccepted> =>
  post(`/api/invitations/${encodeURIComponent(token)}/accept`, invitationAcceptedSchema);
