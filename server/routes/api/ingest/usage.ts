import { recordUsageSchema, usageRecordedSchema } from '../../../../contract/usage';
import { badRequest } from '../../../errors';
import { ingestCallers, ingestionAccess } from '../../../http/ingestCaller';
import type { App, RouteContext } from '../../../http/types';

/**
 * Usage metering's ingestion (issue 26, docs/usage-metering.md): the AI service, or the plugin with
 * its license token, records each use of the AI against the user's allowance and credits.
 */
export async function ingestUsageRoutes(app: App, ctx: RouteContext) {
  const { services } = ctx;
  const { caller, ownerOf } = ingestCallers(app, ctx);

  // Usage metering (issue 26): 201 with what was charged and what is left; 402 when nothing can pay.
  const config = ingestionAccess({
    400: 'occurredAt is older than the days uses are kept (occurred_at_too_old) or more than a day after the arrival (occurred_at_in_future)',
    402: "Neither this period's allowance nor pack credits can pay for the units: nothing was charged (quota_exhausted)",
    409: 'The requestId was recorded before for a different use (request_id_reused)',
  });
  app.post('/usage', { schema: { body: recordUsageSchema, response: { 201: usageRecordedSchema } }, config }, async (request, reply) => {
    const userId = await ownerOf(caller(request), request.body.userId);
    if (!userId) throw badRequest('invalid_request', 'userId is required with the service token');
    reply.code(201);
    return services.metering.record(userId, request.body);
  });
}
