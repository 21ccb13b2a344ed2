import { usageHistoryQuerySchema, usageHistorySchema, usageRemainingSchema, usageSummarySchema } from '../../../contract/usage';
import { LICENSE_RATE_LIMITS } from '../../services/rateLimiter';
import { noteInstallUse } from '../../http/pluginInstall';
import { enforceLimits } from '../../http/rateLimit';
import { bearerToken, licenseTokenRefusal, sessionUser } from '../../http/sessionCookie';
import type { App, RouteContext } from '../../http/types';

/** A period's uses as a download: `usage-2026-11-01.csv` for the period starting that day. */
const csvFileName = (periodStart: string) => `usage-${periodStart.slice(0, 10)}.csv`;

/** What a user has used and has left (issue 26, docs/usage-metering.md): the dashboard's Usage section and the plugin. */
export async function usageRoutes(app: App, { services }: RouteContext) {
  const { metering } = services;

  // The plugin asks with its license token; the dashboard with its session.
  app.get('/usage/remaining', { schema: { response: { 200: usageRemainingSchema } } }, async (request, reply) => {
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

  app.get('/usage', { schema: { response: { 200: usageSummarySchema } } }, async (request) => metering.summary(request.user.id));

  app.get('/usage/history', { schema: { querystring: usageHistoryQuerySchema, response: { 200: usageHistorySchema } } }, async (request) =>
    metering.history(request.user.id, request.query.days),
  );

  app.get('/usage/period.csv', async (request, reply) => {
    const { period } = await metering.summary(request.user.id);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${csvFileName(period.start)}"`);
    return reply.send(metering.periodCsv(request.user.id));
  });
}
