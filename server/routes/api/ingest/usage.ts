import { recordUsageSchema, usageRecordedSchema } from '../../../../contract/usage';
import { badRequest } from '../../../errors';
import { ingestCallers } from '../../../http/ingestCaller';
import type { App, RouteContext } from '../../../http/types';

/**
 * Usage metering's ingestion (issue 26, docs/usage-metering.md): the AI service, or the plugin with
 * its license token, records each use of the AI against the user's allowance and credits.
 */
export async function ingestUsageRoutes(app: App, ctx: RouteContext) {
  const { services } = ctx;
  const { caller, ownerOf } = ingestCallers(app, ctx);

  // Usage metering (issue 26): 201 with what was charged and what is left; 402 when nothing can pay.
  app.post('/usage', { schema: { body: recordUsageSchema, response: { 201: usageRecordedSchema } } }, async (request, reply) => {
    const userId = await ownerOf(caller(request), request.body.userId);
    if (!userId) throw badRequest('invalid_request', 'userId is required with the service token');
    reply.code(201);
    return services.metering.record(userId, request.body);
  });
}
