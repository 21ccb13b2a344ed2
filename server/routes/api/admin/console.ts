import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  accountDetailsSchema,
  adminUserSchema,
  aiHistorySchema,
  auditEntrySchema,
  auditListQuerySchema,
  groveMetricsSchema,
  licenseReissuedSchema,
  messageSearchQuerySchema,
  recentMessagesQuerySchema,
  recentMessagesSchema,
  releaseRequestSchema,
  sessionsRevokedSchema,
  storedMessageSchema,
  DEFAULT_PAGE_SIZE,
  userListQuerySchema,
  userSearchQuerySchema,
  userUpdateSchema,
} from '../../../../contract/admin';
import { sageBuildSchema } from '../../../../contract/builds';
import { CONTENT_RANGE_HEADER, contentRange } from '../../../../contract/restList';
import { insightsQuerySchema, insightsSchema } from '../../../../contract/insights';
import { suspendRequestSchema } from '../../../../contract/suspension';
import { actorOf, userParams } from '../../../http/adminTarget';
import type { App, RouteContext } from '../../../http/types';

/**
 * Sends a list's rows, serialized (and checked) by the route's response schema and compressed like
 * any other JSON answer. @fastify/compress's own hook leaves every answer with a Content-Range as
 * it is (it takes it for a byte range), so a list of 1,000 users would leave uncompressed;
 * `reply.compress` does not look at that header.
 */
function sendList(reply: FastifyReply, resource: string, start: number, rows: unknown[], total: number): FastifyReply {
  reply.header(CONTENT_RANGE_HEADER, contentRange(resource, start, rows.length, total));
  reply.type('application/json; charset=utf-8');
  reply.compress(reply.serialize(rows));
  return reply;
}

/**
 * The admin console's API (product §7 `/api/admin/*`). Every route checks `isAdmin` on the server
 * (routes/access.ts): 401 signed out, 403 for everyone else, before anything is validated or read.
 */
export async function adminConsoleRoutes(app: App, { services }: RouteContext) {
  const { adminUsers, accountControl, messages, audit, builds } = services;

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/grove-metrics', { schema: { response: { 200: groveMetricsSchema } } }, async () => services.consoleHome.groveMetrics());

  // The Home's charts (issue 14): every figure from our own tables, for the last 7, 30 or 90 UTC days.
  app.get('/insights', { schema: { querystring: insightsQuerySchema, response: { 200: insightsSchema } } }, async (request) =>
    services.insights.forRange(request.query.days),
  );

  app.get(
    '/users',
    { schema: { querystring: userListQuerySchema, response: { 200: z.array(adminUserSchema) } } },
    async (request, reply) => {
      const { sort, range, filter } = request.query;
      const [start, end] = range ?? [0, DEFAULT_PAGE_SIZE - 1];
      if (filter?.id) {
        // react-admin's getMany: the users with these ids, whatever the range.
        const users = await adminUsers.withIds(filter.id);
        return sendList(reply, 'users', 0, users, users.length);
      }
      const [field, order] = sort ?? ['createdAt', 'DESC'];
      const { users, total } = await adminUsers.list({
        sort: field,
        order,
        offset: start,
        limit: end - start + 1,
        q: filter?.q || undefined,
      });
      return sendList(reply, 'users', start, users, total);
    },
  );

  app.get(
    '/users/search',
    { schema: { querystring: userSearchQuerySchema, response: { 200: z.array(adminUserSchema) } } },
    async (request) => adminUsers.search(request.query.query),
  );

  app.get('/users/export', async (_request, reply) => {
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', 'attachment; filename="users.csv"');
    return reply.send(adminUsers.exportCsv());
  });

  app.get('/users/:id', { schema: { params: userParams, response: { 200: adminUserSchema } } }, async (request) =>
    adminUsers.get(request.params.id),
  );

  app.put('/users/:id', { schema: { params: userParams, body: userUpdateSchema, response: { 200: adminUserSchema } } }, async (request) =>
    adminUsers.update(actorOf(request.user), request.params.id, request.body),
  );

  // Answers the user as they were: react-admin's simple-rest provider reads the deleted record.
  app.delete('/users/:id', { schema: { params: userParams, response: { 200: adminUserSchema } } }, async (request) =>
    adminUsers.remove(actorOf(request.user), request.params.id),
  );

  app.get('/users/:id/ai-history', { schema: { params: userParams, response: { 200: aiHistorySchema } } }, async (request) => {
    await adminUsers.get(request.params.id); // 404 for an unknown user rather than an empty history.
    return messages.aiHistory(request.params.id);
  });

  // Issue 14: the account's state, a new license token, and signing the user out everywhere.
  app.get('/users/:id/details', { schema: { params: userParams, response: { 200: accountDetailsSchema } } }, async (request) =>
    accountControl.details(request.params.id),
  );

  app.post('/users/:id/license/reissue', { schema: { params: userParams, response: { 200: licenseReissuedSchema } } }, async (request) =>
    accountControl.reissueLicense(actorOf(request.user), request.params.id),
  );

  app.post('/users/:id/sessions/revoke', { schema: { params: userParams, response: { 200: sessionsRevokedSchema } } }, async (request) =>
    accountControl.revokeSessions(actorOf(request.user), request.params.id),
  );

  // Issue 28: suspension with a reason (sessions ended, tokens refused, a mail), and reinstatement.
  app.post(
    '/users/:id/suspend',
    { schema: { params: userParams, body: suspendRequestSchema, response: { 200: adminUserSchema } } },
    async (request) => services.suspension.suspend(actorOf(request.user), request.params.id, request.body.reason),
  );

  app.post('/users/:id/reinstate', { schema: { params: userParams, response: { 200: adminUserSchema } } }, async (request) =>
    services.suspension.reinstate(actorOf(request.user), request.params.id),
  );

  app.get(
    '/messages/search',
    { schema: { querystring: messageSearchQuerySchema, response: { 200: storedMessageSchema } } },
    async (request) => messages.findBySession(request.query.sessionId),
  );

  app.get(
    '/messages/recent',
    { schema: { querystring: recentMessagesQuerySchema, response: { 200: recentMessagesSchema } } },
    async (request) => ({ messages: await messages.recent(request.query.limit) }),
  );

  // The build and its audit entry are one write (the CLI's release calls the same method).
  app.post('/release-sage-build', { schema: { body: releaseRequestSchema, response: { 200: sageBuildSchema } } }, async (request) =>
    builds.release({ ...request.body, ue54Url: '' }, actorOf(request.user)),
  );

  app.get(
    '/audit',
    { schema: { querystring: auditListQuerySchema, response: { 200: z.array(auditEntrySchema) } } },
    async (request, reply) => {
      const [start, end] = request.query.range ?? [0, DEFAULT_PAGE_SIZE - 1];
      const [, order] = request.query.sort ?? ['createdAt', 'DESC'];
      const { entries, total } = await audit.list(start, end - start + 1, order, request.query.filter);
      return sendList(reply, 'audit', start, entries, total);
    },
  );
}
