/**
 * The page an invitation's mail links to (issue 38): `/invitations/{token}`. A module of its own,
 * free of zod: the sign-in page reads it to return there.
 */
export const INVITATION_PAGE = 'invitations';

export const invitationPath = (token: string) => `/${INVITATION_PAGE}/${encodeURIComponent(token)}`;
