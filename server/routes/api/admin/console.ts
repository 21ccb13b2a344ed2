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
  sessionsRevokedSchema,
  storedMessageSchema,
  DEFAULT_PAGE_SIZE,
  userListQuerySchema,
  userSearchQuerySchema,
  userUpdateSchema,
} from '../../../../contract/admin';
import { insightsQuerySchema, insightsSchema } from '../../../../contract/insights';
import { pluginAdoptionSchema } from '../../../../contract/pluginAdoption';
import { suspendRequestSchema } from '../../../../contract/suspension';
import { actorOf, userParams } from '../../../http/adminTarget';
import { listHeaders, sendList } from '../../../http/adminList';
import type { App, RouteContext } from '../../../http/types';
import { csvAttachment, NO_SUCH_USER } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

const READ = access.staff('read');
const READ_USER = access.staff('read', { errors: { 404: NO_SUCH_USER } });
/** The two lists answer a page and say its place in the whole (decision 013). */
const READ_LIST = access.staff('read', { okHeaders: listHeaders('users') });

/**
 * The admin console's API (product §7 `/api/admin/*`). Every route checks `isAdmin` and the role's
 * action on the server (`access.staff`, routes/access.ts): 401 signed out, 403 for everyone else,
 * before anything is validated or read.
 */
export async function adminConsoleRoutes(app: App, { services }: RouteContext) {
  const { adminUsers, accountControl, messages, audit } = services;

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/grove-metrics', { schema: { response: { 200: groveMetricsSchema } }, config: READ }, async () =>
    services.consoleHome.groveMetrics(),
  );

  // The Home's charts (issue 14): every figure from our own tables, for the last 7, 30 or 90 UTC days.
  app.get('/insights', { schema: { querystring: insightsQuerySchema, response: { 200: insightsSchema } }, config: READ }, async (request) =>
    services.insights.forRange(request.query.days),
  );

  // Issue 41: installs and queries per plugin version over the last 30 days, withdrawn builds marked.
  app.get('/plugin-versions', { schema: { response: { 200: pluginAdoptionSchema } }, config: READ }, async () =>
    services.pluginAdoption.lastDays(),
  );

  app.get(
    '/users',
    { schema: { querystring: userListQuerySchema, response: { 200: z.array(adminUserSchema) } }, config: READ_LIST },
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
        noEpic: filter?.noEpic === true || undefined,
        onWithdrawn: filter?.onWithdrawn === true || undefined,
      });
      return sendList(reply, 'users', start, users, total);
    },
  );

  app.get(
    '/users/search',
    { schema: { querystring: userSearchQuerySchema, response: { 200: z.array(adminUserSchema) } }, config: READ },
    async (request) => adminUsers.search(request.query.query),
  );

  const exportAll = access.staff('exportAllUsers', { ok: csvAttachment('Every user, as a CSV attachment') });
  app.get('/users/export', { config: exportAll }, async (_request, reply) => {
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', 'attachment; filename="users.csv"');
    return reply.send(adminUsers.exportCsv());
  });

  app.get('/users/:id', { schema: { params: userParams, response: { 200: adminUserSchema } }, config: READ_USER }, async (request) =>
    adminUsers.get(request.params.id),
  );

  const edit = access.staff('editUsers', { errors: { 404: NO_SUCH_USER, 409: 'Another user has this e-mail (email_taken)' } });
  app.put(
    '/users/:id',
    { schema: { params: userParams, body: userUpdateSchema, response: { 200: adminUserSchema } }, config: edit },
    async (request) => adminUsers.update(actorOf(request.user), request.params.id, request.body),
  );

  // Answers the user as they were: react-admin's simple-rest provider reads the deleted record.
  const remove = access.staff('deleteUsers', { errors: { 404: NO_SUCH_USER, 409: 'The user owns an organisation (owns_organisation)' } });
  app.delete('/users/:id', { schema: { params: userParams, response: { 200: adminUserSchema } }, config: remove }, async (request) =>
    adminUsers.remove(actorOf(request.user), request.params.id),
  );

  app.get(
    '/users/:id/ai-history',
    { schema: { params: userParams, response: { 200: aiHistorySchema } }, config: READ },
    async (request) => {
      await adminUsers.get(request.params.id); // 404 for an unknown user rather than an empty history.
      return messages.aiHistory(request.params.id);
    },
  );

  // Issue 14: the account's state, a new license token, and signing the user out everywhere.
  app.get(
    '/users/:id/details',
    { schema: { params: userParams, response: { 200: accountDetailsSchema } }, config: READ_USER },
    async (request) => accountControl.details(request.params.id),
  );

  const reissue = access.staff('reissueLicense', { errors: { 404: NO_SUCH_USER } });
  app.post(
    '/users/:id/license/reissue',
    { schema: { params: userParams, response: { 200: licenseReissuedSchema } }, config: reissue },
    async (request) => accountControl.reissueLicense(actorOf(request.user), request.params.id),
  );

  const revoke = access.staff('signOutEverywhere', { errors: { 404: NO_SUCH_USER } });
  app.post(
    '/users/:id/sessions/revoke',
    { schema: { params: userParams, response: { 200: sessionsRevokedSchema } }, config: revoke },
    async (request) => accountControl.revokeSessions(actorOf(request.user), request.params.id),
  );

  // Issue 28: suspension with a reason (sessions ended, tokens refused, a mail), and reinstatement.
  app.post(
    '/users/:id/suspend',
    {
      schema: { params: userParams, body: suspendRequestSchema, response: { 200: adminUserSchema } },
      config: access.staff('suspend', {
        errors: {
          400: 'No reason given, or the admin suspending their own account (self_suspension)',
          404: NO_SUCH_USER,
          409: 'Already suspended (already_suspended)',
        },
      }),
    },
    async (request) => services.suspension.suspend(actorOf(request.user), request.params.id, request.body.reason),
  );

  const reinstate = access.staff('suspend', { errors: { 404: NO_SUCH_USER, 409: 'Not suspended (not_suspended)' } });
  app.post(
    '/users/:id/reinstate',
    { schema: { params: userParams, response: { 200: adminUserSchema } }, config: reinstate },
    async (request) => services.suspension.reinstate(actorOf(request.user), request.params.id),
  );

  app.get(
    '/messages/search',
    {
      schema: { querystring: messageSearchQuerySchema, response: { 200: storedMessageSchema } },
      config: access.staff('read', { errors: { 404: 'No message for this session id (not_found)' } }),
    },
    async (request) => messages.findBySession(request.query.sessionId),
  );

  app.get(
    '/messages/recent',
    { schema: { querystring: recentMessagesQuerySchema, response: { 200: recentMessagesSchema } }, config: READ },
    async (request) => ({ messages: await messages.recent(request.query.limit) }),
  );

  app.get(
    '/audit',
    { schema: { querystring: auditListQuerySchema, response: { 200: z.array(auditEntrySchema) } }, config: READ_LIST },
    async (request, reply) => {
      const [start, end] = request.query.range ?? [0, DEFAULT_PAGE_SIZE - 1];
      const [, order] = request.query.sort ?? ['createdAt', 'DESC'];
      const { entries, total } = await audit.list(start, end - start + 1, order, request.query.filter);
      return sendList(reply, 'audit', start, entries, total);
    },
  );
}
