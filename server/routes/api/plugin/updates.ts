import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { publicReleasesSchema, updateCheckSchema } from '../../../../contract/builds';
import { ENGINE_VERSIONS, engineOf, isVersion, VERSION_RULE } from '../../../../contract/pluginVersions';
import { singleLine } from '../../../../contract/text';
import { AppError } from '../../../errors';
import { etagOf, ifNoneMatch } from '../../../http/etag';
import { enforceLimits } from '../../../http/rateLimit';
import type { App, RouteContext } from '../../../http/types';
import { access } from '../../../http/endpointAccess';
import { PLUGIN_UPDATE_RATE_LIMITS } from '../../../services/rateLimiter';

const updateQuerySchema = z.object({
  engineVersion: z
    .string({ error: 'engineVersion is required, like 5.6' })
    .check(singleLine('engineVersion'))
    .max(32, 'engineVersion is too long'),
  pluginVersion: z
    .string({ error: 'pluginVersion is required, like 1.4.0' })
    .check(singleLine('pluginVersion'))
    .max(50, 'pluginVersion is too long'),
});

/** The engines the 400 names: every one a build may ship for (5.4 too: old builds carry it). */
const ENGINES = `${ENGINE_VERSIONS.slice(0, -1).join(', ')} or ${ENGINE_VERSIONS.at(-1)}`;

/**
 * A CDN and the plugin may keep an answer five minutes (a withdrawal reaches every install within
 * that), and ask again with If-None-Match: an unchanged answer is a bodiless 304.
 */
const CACHE_CONTROL = 'public, max-age=300, stale-if-error=86400';

/** The plugin's release channel (issue 41, docs/plugin-updates.md): public, no token needed. */
export async function pluginUpdateRoutes(app: App, { services }: RouteContext) {
  const { builds } = services;

  app.get(
    '/releases',
    {
      schema: { response: { 200: publicReleasesSchema } },
      config: access.public('the download page and the plugin list every build that is offered', { tag: 'Product' }),
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return { releases: await builds.releases() };
    },
  );

  app.get(
    '/updates',
    {
      schema: { querystring: updateQuerySchema, response: { 200: updateCheckSchema } },
      config: access.public('the plugin asks whether its build is the one to run', {
        tag: 'Product',
        limited: true,
        errors: { 400: 'An engine version no build ships for (unknown_engine_version), or a version that is not one (invalid_version)' },
      }),
    },
    async (request, reply) => {
      await enforceLimits(services, 'Too many update checks. Please slow down.', [
        [`plugin-updates:ip:${request.ip}`, PLUGIN_UPDATE_RATE_LIMITS.perIp],
      ]);
      const { engineVersion, pluginVersion } = request.query;
      const engine = engineOf(engineVersion);
      if (!engine)
        throw new AppError(400, 'unknown_engine_version', `No Sage build ships for Unreal Engine ${engineVersion}: ask with ${ENGINES}`);
      if (!isVersion(pluginVersion)) throw new AppError(400, 'invalid_version', `pluginVersion: ${VERSION_RULE}`);
      const answer = await builds.updateCheck(engine, pluginVersion);
      const body = JSON.stringify(answer);
      const etag = etagOf(body);
      reply.header('cache-control', CACHE_CONTROL).header('etag', etag).header('vary', 'Accept-Encoding');
      // The answer's own text, hashed for its ETag, is what is sent: a raw reply skips the serializer.
      const raw = reply as unknown as FastifyReply;
      if (ifNoneMatch(request.headers['if-none-match'], etag)) return raw.code(304).send();
      return raw.type('application/json; charset=utf-8').send(body);
    },
  );
}
