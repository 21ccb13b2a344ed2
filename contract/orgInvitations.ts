import { z } from 'zod';
import { ERROR_CODES } from './errors';
import { linkEmailSchema } from './epic';
import { ASSIGNABLE_ORG_ROLES, orgRoleSchema } from './orgs';

/**
 * Invitations to an organisation (issue 38, decision 039): a single-use link mailed to an address,
 * valid INVITATION_DAYS days; accepting it is the signed-in account whose e-mail is that address.
 * Times are ISO 8601.
 */
export const INVITATION_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_DAYS * 24 * 60 * 60_000;

/** Where an invitation stands, as the link's page says it. */
export type InvitationState = 'pending' | 'accepted' | 'revoked' | 'expired';

/** An invitation's state from its row: accepted and revoked stay so; a pending one expires. */
export function invitationState(
  row: { acceptedAt: number | null; revokedAt: number | null; expiresAt: number },
  now: number,
): InvitationState {
  if (row.acceptedAt !== null) return 'accepted';
  if (row.revokedAt !== null) return 'revoked';
  return now >= row.expiresAt ? 'expired' : 'pending';
}

/** `POST /api/orgs/{id}/invitations`. */
export const invitationInputSchema = z.object({
  email: linkEmailSchema,
  role: z.enum(ASSIGNABLE_ORG_ROLES, { error: 'role must be admin, billing or member' }).default('member'),
});
export type InvitationInput = z.input<typeof invitationInputSchema>;

export const invitationParamsSchema = z.object({ id: z.string().min(1).max(100), invId: z.string().min(1).max(100) });
export const invitationTokenParamsSchema = z.object({ token: z.string().min(1, 'token is required').max(200) });

/** An invitation as the organisation's admins see it: still pending, or past its time. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: orgRoleSchema,
  /** Who sent it (their e-mail, or their name when they have none); null once their account is gone. */
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** `GET /api/orgs/{id}/invitations`: the ones not accepted nor revoked, newest first. */
export const invitationListSchema = z.object({ invitations: z.array(invitationSchema) });
export type InvitationList = z.infer<typeof invitationListSchema>;

/** `GET /api/invitations/{token}`: what the link's page shows, to whoever holds the link. */
export const invitationPreviewSchema = z.object({
  orgName: z.string(),
  email: z.string(),
  role: orgRoleSchema,
  invitedBy: z.string().nullable(),
  expiresAt: z.string(),
  state: z.enum(['pending', 'accepted', 'revoked', 'expired']),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** `POST /api/invitations/{token}/accept`: the organisation joined. */
export const invitationAcceptedSchema = z.object({ orgId: z.string(), orgName: z.string(), role: orgRoleSchema });
export type InvitationAccepted = z.infer<typeof invitationAcceptedSchema>;

export const INVITATION_ERRORS = {
  notFound: { status: 404, error: ERROR_CODES.notFound, message: 'This invitation link is not valid.' },
  invitationNotFound: { status: 404, error: ERROR_CODES.notFound, message: 'No such invitation' },
  accepted: { status: 409, error: 'invitation_used', message: 'This invitation has already been accepted.' },
  revoked: { status: 410, error: 'invitation_revoked', message: 'This invitation was withdrawn. Ask for a new one.' },
  expired: {
    status: 410,
    error: 'invitation_expired',
    message: `This invitation has expired (it is valid ${INVITATION_DAYS} days). Ask for a new one.`,
  },
  otherAddress: {
    status: 403,
    error: 'invitation_other_address',
    message: 'This invitation was sent to another e-mail address. Sign in with the account of that address to accept it.',
  },
  alreadyMember: { status: 409, error: 'already_member', message: 'This person is already a member of the organisation.' },
  alreadyInvited: { status: 409, error: 'already_invited', message: 'This address has a pending invitation. Resend it instead.' },
  mailFailed: { status: 502, error: 'mail_failed', message: 'We could not send the invitation. Please try again.' },
} as const;

/** The refusal of accepting an invitation in `state` (pending: none). */
export function acceptRefusal(state: InvitationState) {
  return state === 'accepted'
    ? INVITATION_ERRORS.accepted
    : state === 'revoked'
      ? INVITATION_ERRORS.revoked
      : state === 'expired'
        ? INVITATION_ERRORS.expired
        : null;
}
