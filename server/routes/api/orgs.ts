import type { FastifyRequest } from 'fastify';
import {
  ORG_ERRORS,
  orgRolesRefused,
  memberChangeSchema,
  orgDeletedSchema,
  orgInputSchema,
  orgListSchema,
  orgMemberParamsSchema,
  orgMemberSchema,
  orgMembersSchema,
  orgParamsSchema,
  orgAuditSchema,
  orgSchema,
  ownershipTransferSchema,
} from '../../../contract/orgs';
import {
  invitationAcceptedSchema,
  invitationInputSchema,
  invitationListSchema,
  invitationParamsSchema,
  invitationPreviewSchema,
  invitationSchema,
  invitationTokenParamsSchema,
} from '../../../contract/orgInvitations';
import { ORG_BILLING_ERRORS } from '../../../contract/orgBilling';
import { enforceLimits } from '../../http/rateLimit';
import { ORG_INVITATION_RATE_LIMITS } from '../../services/rateLimiter';
import type { App, RouteContext } from '../../http/types';
import { access } from '../../http/endpointAccess';

const NO_SUCH_MEMBER = 'No such member of this organisation (not_found)';
const NO_SUCH_INVITATION = 'No open invitation with this id (not_found)';
const TOO_MANY_INVITATIONS = 'Too many invitations sent. Please try again later.';
const TOO_MANY_LINKS = 'Too many requests. Please try again later.';

/**
 * Organisations (issue 38, decision 038): a studio's members and their roles. Each route says which
 * action of the role table (contract/orgs.ts) it takes; the org service checks it, answering 404
 * to anyone who is not a member.
 */
export async function orgRoutes(app: App, { services }: RouteContext) {
  const { orgs, orgInvitations } = services;
  const mailsPerOrg = (orgId: string) =>
    enforceLimits(services, TOO_MANY_INVITATIONS, [[`org-invitation:org:${orgId}`, ORG_INVITATION_RATE_LIMITS.mailsPerOrg]]);
  const linkPerIp = (request: FastifyRequest) =>
    enforceLimits(services, TOO_MANY_LINKS, [[`org-invitation-link:ip:${request.ip}`, ORG_INVITATION_RATE_LIMITS.linkPerIp]]);
  const actor = (request: FastifyRequest) => ({ id: request.user.id, email: request.user.email });

  app.post(
    '/orgs',
    { schema: { body: orgInputSchema, response: { 201: orgSchema } }, config: access.user({ tag: 'Organisations' }) },
    async (request, reply) => {
      reply.code(201);
      return orgs.create(actor(request), request.body);
    },
  );

  app.get('/orgs', { schema: { response: { 200: orgListSchema } }, config: access.user({ tag: 'Organisations' }) }, async (request) =>
    orgs.list(request.user.id),
  );

  app.get('/orgs/:id', { schema: { params: orgParamsSchema, response: { 200: orgSchema } }, config: access.org('read') }, async (request) =>
    orgs.get(request.user.id, request.params.id),
  );

  app.patch(
    '/orgs/:id',
    { schema: { params: orgParamsSchema, body: orgInputSchema, response: { 200: orgSchema } }, config: access.org('rename') },
    async (request) => orgs.rename(actor(request), request.params.id, request.body),
  );

  app.delete(
    '/orgs/:id',
    { schema: { params: orgParamsSchema, response: { 200: orgDeletedSchema } }, config: access.org('deleteOrg') },
    async (request) => {
      await orgs.remove(actor(request), request.params.id, () => services.orgBilling.cancelAll(request.params.id));
      return { ok: true as const };
    },
  );

  app.post(
    '/orgs/:id/transfer',
    {
      schema: { params: orgParamsSchema, body: ownershipTransferSchema, response: { 200: orgSchema } },
      config: access.org('transferOwnership', { errors: { 404: NO_SUCH_MEMBER } }),
    },
    async (request) => orgs.transfer(actor(request), request.params.id, request.body.userId),
  );

  app.get(
    '/orgs/:id/members',
    { schema: { params: orgParamsSchema, response: { 200: orgMembersSchema } }, config: access.org('read') },
    async (request) => orgs.members(request.user.id, request.params.id),
  );

  app.get(
    '/orgs/:id/audit',
    { schema: { params: orgParamsSchema, response: { 200: orgAuditSchema } }, config: access.org('readAudit') },
    async (request) => orgs.audit(request.user.id, request.params.id),
  );

  app.patch(
    '/orgs/:id/members/:userId',
    {
      schema: { params: orgMemberParamsSchema, body: memberChangeSchema, response: { 200: orgMemberSchema } },
      config: access.org('manageMembers', {
        errors: {
          404: NO_SUCH_MEMBER,
          403: `${ORG_ERRORS.adminsOnly.message} (${ORG_ERRORS.adminsOnly.error})`,
          409: `${ORG_ERRORS.ownerRole.message} (${ORG_ERRORS.ownerRole.error}); ${ORG_BILLING_ERRORS.noFreeSeat.message} (${ORG_BILLING_ERRORS.noFreeSeat.error})`,
        },
      }),
    },
    async (request) => {
      // One field at a time, in this order, as the organisation's page sends them.
      const { role, seat, monthlyLimit } = request.body;
      const [by, orgId, userId] = [actor(request), request.params.id, request.params.userId];
      if (role !== undefined) await orgs.changeRole(by, orgId, userId, role);
      if (seat !== undefined) await services.orgSeats.setSeat(by, orgId, userId, seat);
      if (monthlyLimit !== undefined) await services.orgSeats.setLimit(by, orgId, userId, monthlyLimit);
      return orgs.member(by.id, orgId, userId);
    },
  );

  // The caller's own id: leaving, which any member but the owner may do.
  app.delete(
    '/orgs/:id/members/:userId',
    {
      schema: { params: orgMemberParamsSchema, response: { 200: orgDeletedSchema } },
      // Any member may leave ('read'); removing someone else is `manageMembers`, which the service checks.
      config: access.org('read', {
        errors: {
          404: NO_SUCH_MEMBER,
          403: `Removing another member: not for ${orgRolesRefused('manageMembers').join(' or ')} (${ORG_ERRORS.roleForbidden.error}); ${ORG_ERRORS.adminsOnly.message} (${ORG_ERRORS.adminsOnly.error})`,
          409: `${ORG_ERRORS.ownerStays.message} (${ORG_ERRORS.ownerStays.error})`,
        },
      }),
    },
    async (request) => {
      await orgs.removeMember(actor(request), request.params.id, request.params.userId);
      return { ok: true as const };
    },
  );

  app.post(
    '/orgs/:id/invitations',
    {
      schema: { params: orgParamsSchema, body: invitationInputSchema, response: { 201: invitationSchema } },
      config: access.org('manageMembers', {
        limited: true,
        errors: {
          403: `Only the owner invites an admin (${ORG_ERRORS.adminsOnly.error})`,
          409: 'A member already (already_member), or an open invitation to this address (already_invited)',
          502: 'The mail could not be sent; nothing was kept (mail_failed)',
        },
      }),
    },
    async (request, reply) => {
      await mailsPerOrg(request.params.id);
      const invitation = await orgInvitations.invite(actor(request), request.params.id, request.body);
      reply.code(201);
      return invitation;
    },
  );

  app.get(
    '/orgs/:id/invitations',
    { schema: { params: orgParamsSchema, response: { 200: invitationListSchema } }, config: access.org('manageMembers') },
    async (request) => orgInvitations.list(actor(request), request.params.id),
  );

  app.delete(
    '/orgs/:id/invitations/:invId',
    {
      schema: { params: invitationParamsSchema, response: { 200: orgDeletedSchema } },
      config: access.org('manageMembers', { errors: { 404: NO_SUCH_INVITATION } }),
    },
    async (request) => {
      await orgInvitations.revoke(actor(request), request.params.id, request.params.invId);
      return { ok: true as const };
    },
  );

  app.post(
    '/orgs/:id/invitations/:invId/resend',
    {
      schema: { params: invitationParamsSchema, response: { 200: invitationSchema } },
      config: access.org('manageMembers', {
        limited: true,
        errors: { 404: NO_SUCH_INVITATION, 502: 'The mail could not be sent (mail_failed)' },
      }),
    },
    async (request) => {
      await mailsPerOrg(request.params.id);
      return orgInvitations.resend(actor(request), request.params.id, request.params.invId);
    },
  );

  // The mail's link: its page shows the invitation to whoever holds it, signed in or not.
  app.get(
    '/invitations/:token',
    {
      schema: { params: invitationTokenParamsSchema, response: { 200: invitationPreviewSchema } },
      config: access.public("the invitation link's page: its token", {
        tag: 'Organisations',
        limited: true,
        errors: { 404: 'This invitation link is not valid (not_found)' },
      }),
    },
    async (request, reply) => {
      await linkPerIp(request);
      reply.header('cache-control', 'no-store');
      return orgInvitations.preview(request.params.token);
    },
  );

  app.post(
    '/invitations/:token/accept',
    {
      schema: { params: invitationTokenParamsSchema, response: { 200: invitationAcceptedSchema } },
      config: access.user({
        tag: 'Organisations',
        limited: true,
        errors: {
          403: 'Signed in with another address than the invited one; nothing changed (invitation_other_address)',
          404: 'This invitation link is not valid (not_found)',
          409: 'Accepted already (invitation_used), or a member already (already_member)',
          410: 'Withdrawn (invitation_revoked) or past its 7 days (invitation_expired)',
        },
      }),
    },
    async (request) => {
      await linkPerIp(request);
      return orgInvitations.accept(request.user, request.params.token);
    },
  );
}
