import {
  invitationAcceptedSchema,
  invitationPreviewSchema,
  type InvitationAccepted,
  type InvitationPreview,
} from '../../contract/orgInvitations';
import { getJson, post } from './client';

/** What an invitation's link shows (issue 38). */
export const fetchInvitation = (token: string): Promise<InvitationPreview> =>
  getJson(`/api/invitations/${encodeURIComponent(token)}`, invitationPreviewSchema);

/** Joins the organisation as the signed-in account. */
export const acceptInvitation = (token: string): Promise<InvitationAccepted> =>
  post(`/api/invitations/${encodeURIComponent(token)}/accept`, invitationAcceptedSchema);
