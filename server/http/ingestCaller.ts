import type { FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../../contract/errors';
import { AppError, badRequest, unauthorized } from '../errors';
import { INGESTION_RATE_LIMITS } from '../services/rateLimiter';
import { hashToken, safeEqual } from '../services/tokens';
import { noteInstallUse } from './pluginInstall';
import { enforceLimits } from './rateLimit';
import { bearerToken, licenseTokenRefusal } from './sessionCookie';
import type { App, RouteContext } from './types';
import { BEARER, LICENSE_REPLACED, SUSPENDED } from './apiDoc';
import { access, type AccessConfig } from './endpointAccess';

/** Who is calling the ingestion API: the AI service (any user) or one user, by their license token. */
export type IngestCaller = { kind: 'service' } | { kind: 'user'; userId: string };

const INVALID_TOKEN = 'A valid service token or license token is required (Authorization: Bearer …)';

/**
 * An ingestion route's access declaration (http/endpointAccess.ts): open to the tokens this module
 * checks, with what every write answers a license token it refuses, and the route's own `errors`.
 */
export function ingestionAccess(errors: Record<number, string>): AccessConfig {
  return access.public("the AI service's token or a license token (Bearer)", {
    tag: 'Ingestion',
    security: BEARER,
    limited: true,
    errors: {
      401: LICENSE_REPLACED,
      403: `A license token storing for another user (forbidden); ${SUSPENDED}`,
      404: 'The user was deleted while the write was on its way; nothing was stored (not_found)',
      ...errors,
    },
  });
}

/**
 * The ingestion API's Bearer authentication (docs/ingestion-api.md), shared by its route modules
 * (api/ingest/messages.ts, api/ingest/usage.ts): installs on the module's scope the hook that
 * settles who is calling, and answers how its routes read the caller and whom a write is for.
 */
export function ingestCallers(app: App, { config, services }: RouteContext) {
  const serviceTokenHash = config.aiServiceToken ? hashToken(config.aiServiceToken) : null;

  async function callerOf(request: FastifyRequest): Promise<IngestCaller> {
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
  async function ownerOf(caller: IngestCaller, named: string | undefined): Promise<string | null> {
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
  const callers = new WeakMap<FastifyRequest, IngestCaller>();
  app.addHook('onRequest', async (request) => {
    callers.set(request, await callerOf(request));
  });
  const caller = (request: FastifyRequest): IngestCaller => {
    const known = callers.get(request);
    if (!known) throw unauthorized(INVALID_TOKEN);
    return known;
  };

  return { caller, ownerOf };
}
