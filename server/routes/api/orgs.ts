import type { FastifyRequest } from 'fastify';
import {
  memberChangeSchema,
  orgDeletedSchema,
  orgInputSchema,
  orgListSchema,
  orgMemberParamsSchema,
  orgMemberSchema,
  orgMembersSchema,
  orgParamsSchema,
  orgSchema,
  ownershipTransferSchema,
} from '../../../contract/orgs';
import type { App, RouteContext } from '../../http/types';
import { access } from '../../http/endpointAccess';

const NO_SUCH_MEMBER = 'No such member of this organisation (not_found)';

/**
 * Organisations (issue 38, decision 038): a studio's members and their roles. Each route says which
 * action of the role table (contract/orgs.ts) it takes; the org service checks it, answering 404
 * to anyone who is not a member.
 */
export async function orgRoutes(app: App, { services }: RouteContext) {
  const { orgs } = services;
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
      await orgs.remove(actor(request), request.params.id);
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

  app.patch(
    '/orgs/:id/members/:userId',
    {
      schema: { params: orgMemberParamsSchema, body: memberChangeSchema, response: { 200: orgMemberSchema } },
      config: access.org('manageMembers', {
        errors: {
          404: NO_SUCH_MEMBER,
          403: 'Only the owner makes, changes or removes an admin (org_role_forbidden)',
          409: "The owner's role changes only by a transfer (owner_role)",
        },
      }),
    },
    async (request) => orgs.changeRole(actor(request), request.params.id, request.params.userId, request.body.role),
  );

  // The caller's own id: leaving, which any member but the owner may do.
  app.delete(
    '/orgs/:id/members/:userId',
    {
      schema: { params: orgMemberParamsSchema, response: { 200: orgDeletedSchema } },
      config: access.org('manageMembers', {
        errors: {
          404: NO_SUCH_MEMBER,
          403: 'Only the owner removes an admin (org_role_forbidden); any member may remove themselves (leave)',
          409: 'The owner cannot leave or be removed: transfer ownership first (owner_must_transfer)',
        },
      }),
    },
    async (request) => {
      await orgs.removeMember(actor(request), request.params.id, request.params.userId);
      return { ok: true as const };
    },
  );
}
