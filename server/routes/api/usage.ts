import { usageHistoryQuerySchema, usageHistorySchema, usageRemainingSchema, usageSummarySchema } from '../../../contract/usage';
import { LICENSE_RATE_LIMITS } from '../../services/rateLimiter';
import { noteInstallUse } from '../../http/pluginInstall';
import { enforceLimits } from '../../http/rateLimit';
import { bearerToken, licenseTokenRefusal, sessionUser } from '../../http/sessionCookie';
import type { App, RouteContext } from '../../http/types';
import { csvAttachment, LICENSE_REPLACED, SUSPENDED } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';

/** A period's uses as a download: `usage-2026-11-01.csv` for the period starting that day. */
const csvFileName = (periodStart: string) => `usage-${periodStart.slice(0, 10)}.csv`;

/** What a user has used and has left (issue 26, docs/usage-metering.md): the dashboard's Usage section and the plugin. */
export async function usageRoutes(app: App, { services }: RouteContext) {
  const { metering } = services;

  // The plugin asks with its license token; the dashboard with its session.
  const remaining = access.public('the plugin: its license token (Bearer); or a session', {
    tag: 'Usage',
    security: [{ bearerToken: [] }, { sessionCookie: [] }],
    limited: true,
    errors: { 401: LICENSE_REPLACED, 403: SUSPENDED },
  });
  app.get('/usage/remaining', { schema: { response: { 200: usageRemainingSchema } }, config: remaining }, async (request, reply) => {
    const token = bearerToken(request);
    let userId = token ? undefined : (await sessionUser(request, services))?.id;
    if (!userId) {
      await enforceLimits(services, 'Too many requests. Please slow down.', [[`license:ip:${request.ip}`, LICENSE_RATE_LIMITS.perIp]]);
      const user = token ? await services.users.findByLicenseToken(token) : undefined;
      if (!user)
        throw await licenseTokenRefusal(services, token, 'A valid license token (Authorization: Bearer …) or a session is required');
      userId = user.id;
      await noteInstallUse(request, services, userId);
    }
    reply.header('cache-control', 'no-store');
    return metering.remaining(userId);
  });

  const signedIn = access.user({ tag: 'Usage' });
  app.get('/usage', { schema: { response: { 200: usageSummarySchema } }, config: signedIn }, async (request) =>
    metering.summary(request.user.id),
  );

  app.get(
    '/usage/history',
    { schema: { querystring: usageHistoryQuerySchema, response: { 200: usageHistorySchema } }, config: signedIn },
    async (request) => metering.history(request.user.id, request.query.days),
  );

  const csv = access.user({ tag: 'Usage', ok: csvAttachment('The uses of the current billing period, as a CSV attachment') });
  app.get('/usage/period.csv', { config: csv }, async (request, reply) => {
    const { period } = await metering.summary(request.user.id);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${csvFileName(period.start)}"`);
    return reply.send(metering.periodCsv(request.user.id));
  });
}
