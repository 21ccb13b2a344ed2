import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { storedMessageSchema } from '../../../../contract/admin';
import { ERROR_CODES } from '../../../../contract/errors';
import { ingestMessageSchema, ingestThreadSchema, threadIdSchema, threadStoredSchema } from '../../../../contract/ingestion';
import { recordUsageSchema, usageRecordedSchema } from '../../../../contract/usage';
import { AppError, badRequest, unauthorized } from '../../../errors';
import { INGESTION_RATE_LIMITS } from '../../../services/rateLimiter';
import { hashToken, safeEqual } from '../../../services/tokens';
import { noteInstallUse } from '../../../http/pluginInstall';
import { enforceLimits } from '../../../http/rateLimit';
import { bearerToken, licenseTokenRefusal } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';

/** Who is storing: the AI service (any user) or one user, by their license token. */
type Caller = { kind: 'service' } | { kind: 'user'; userId: string };

const INVALID_TOKEN = 'A valid service token or license token is required (Authorization: Bearer …)';

/**
 * The ingestion API (docs/ingestion-api.md, docs/usage-metering.md): the AI service stores chat
 * messages and AI threads, which admins then read, and records each use of the AI against the
 * user's allowance and credits. Bearer authentication, no cookies.
 */
export async function ingestionRoutes(app: App, { config, services }: RouteContext) {
  const serviceTokenHash = config.aiServiceToken ? hashToken(config.aiServiceToken) : null;

  async function callerOf(request: FastifyRequest): Promise<Caller> {
    const token = bearerToken(request);
    if (!token) throw unauthorized(INVALID_TOKEN);
    // Compared as hashes: equal lengths for timingSafeEqual whatever was sent.
    if (serviceTokenHash && safeEqual(hashToken(token), serviceTokenHash)) return { kind: 'service' };
    await enforceLimits(services, 'Too many requests. Please slow down.', [[`ingest:ip:${request.ip}`, INGESTION_RATE_LIMITS.perIp]]);
    const user = await services.users.findByLicenseToken(token);
    if (!user) throw await licenseTokenRefusal(services, token, INVALID_TOKEN);
    await enforceLimits(services, 'Too many requests. Please slow down.', [
      [`ingest:user:${user.id}`, INGESTION_RATE_LIMITS.perLicenseToken],
    ]);
    await noteInstallUse(request, services, user.id);
    return { kind: 'user', userId: user.id };
  }

  /** The user a write is for: a license token's own, or the one the service names. */
  async function ownerOf(caller: Caller, named: string | undefined): Promise<string | null> {
    if (caller.kind === 'user') {
      if (named !== undefined && named !== caller.userId)
        throw new AppError(403, ERROR_CODES.forbidden, 'A license token can only store for its own user');
      return caller.userId;
    }
    if (named === undefined) return null;
    if (!(await services.users.exists(named))) throw badRequest('unknown_user', 'userId names no user');
    return named;
  }

  // Who is calling is settled before the body is validated: a stranger learns nothing from error messages.
  const callers = new WeakMap<FastifyRequest, Caller>();
  app.addHook('onRequest', async (request) => {
    callers.set(request, await callerOf(request));
  });
  const caller = (request: FastifyRequest): Caller => {
    const known = callers.get(request);
    if (!known) throw unauthorized(INVALID_TOKEN);
    return known;
  };

  app.post('/messages', { schema: { body: ingestMessageSchema, response: { 201: storedMessageSchema } } }, async (request, reply) => {
    const who = caller(request);
    const userId = await ownerOf(who, request.body.userId);
    reply.code(201);
    return services.messages.store({ by: who.kind, userId }, request.body);
  });

  app.put(
    '/threads/:threadId',
    { schema: { params: z.object({ threadId: threadIdSchema }), body: ingestThreadSchema, response: { 200: threadStoredSchema } } },
    async (request) => {
      const who = caller(request);
      const userId = await ownerOf(who, request.body.userId);
      if (!userId) throw badRequest('invalid_request', 'userId is required with the service token');
      return { ok: true as const, ...(await services.messages.putThread({ by: who.kind, userId }, request.params.threadId, request.body)) };
    },
  );

  // Usage metering (issue 26): 201 with what was charged and what is left; 402 when nothing can pay.
  app.post('/usage', { schema: { body: recordUsageSchema, response: { 201: usageRecordedSchema } } }, async (request, reply) => {
    const userId = await ownerOf(caller(request), request.body.userId);
    if (!userId) throw badRequest('invalid_request', 'userId is required with the service token');
    reply.code(201);
    return services.metering.record(userId, request.body);
  });
}
