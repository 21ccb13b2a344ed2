import type { FastifyRequest } from 'fastify';
import {
  holdParamsSchema,
  holdSettledSchema,
  holdUsageSchema,
  recordUsageSchema,
  settleHoldSchema,
  usageHeldSchema,
  usageRecordedSchema,
} from '../../../../contract/usage';
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
  /** Whom a use or hold is for: the license token's user, or the one the service token names. */
  const userOf = async (request: FastifyRequest, named: string | undefined): Promise<string> => {
    const userId = await ownerOf(caller(request), named);
    if (!userId) throw badRequest('invalid_request', 'userId is required with the service token');
    return userId;
  };

  // Usage metering (issue 26): 201 with what was charged and what is left; 402 when nothing can pay.
  const config = ingestionAccess({
    400: 'occurredAt is older than the days uses are kept (occurred_at_too_old) or more than a day after the arrival (occurred_at_in_future)',
    402: "Neither this period's allowance nor pack credits can pay for the units: nothing was charged (quota_exhausted)",
    409: 'The requestId was recorded before for a different use (request_id_reused)',
  });
  app.post('/usage', { schema: { body: recordUsageSchema, response: { 201: usageRecordedSchema } }, config }, async (request, reply) => {
    const userId = await userOf(request, request.body.userId);
    reply.code(201);
    return services.metering.record(userId, request.body);
  });

  // Holds (issue 39, decision 043): a query priced after it runs reserves units, then settles.
  const holdConfig = ingestionAccess({
    400: 'A field breaks the rules, as for a use (invalid_request, occurred_at_too_old, occurred_at_in_future)',
    402: 'Fewer than minUnits (default: all of units) are left to hold: nothing was held (quota_exhausted)',
    409: 'The requestId was recorded before for a different use or hold (request_id_reused)',
  });
  app.post(
    '/usage/holds',
    { schema: { body: holdUsageSchema, response: { 201: usageHeldSchema } }, config: holdConfig },
    async (request, reply) => {
      const userId = await userOf(request, request.body.userId);
      reply.code(201);
      return services.metering.hold(userId, request.body);
    },
  );

  const settleConfig = ingestionAccess({
    400: 'units is more than the hold held (units_over_hold)',
    404: 'No hold has this id, or it is another user’s (hold_not_found)',
    409: 'The hold was settled before with other units (hold_settled), or expired and was given back (hold_expired)',
  });
  app.post(
    '/usage/holds/:holdId/settle',
    { schema: { params: holdParamsSchema, body: settleHoldSchema, response: { 200: holdSettledSchema } }, config: settleConfig },
    async (request) => {
      const who = caller(request);
      return services.metering.settle(request.params.holdId, who.kind === 'user' ? who.userId : null, request.body.units);
    },
  );
}
