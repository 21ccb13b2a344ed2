import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../errors';
import { ANALYTICS_RATE_LIMITS } from '../../services/rateLimiter';
import { enforceLimits } from '../../http/rateLimit';
import type { App, RouteContext } from '../../http/types';
import { access } from '../../http/endpointAccess';

/** Largest analytics request forwarded: posthog-js batches, compressed, stay far below it. */
export const INGEST_BODY_LIMIT_BYTES = 1024 * 1024;
/** How long the analytics provider may take before the proxy gives up. */
export const INGEST_TIMEOUT_MS = 10_000;

/** Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus those we set. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'cookie',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
]);
/** Response headers not passed back: fetch already decoded the body, and cookies stay ours. */
const RESPONSE_DROPPED = new Set([
  ...HOP_BY_HOP,
  'content-encoding',
  'set-cookie',
  'access-control-allow-origin',
  'access-control-allow-credentials',
]);

function connectionHeaders(value: string | string[] | undefined): Set<string> {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    raw
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * `/ingest/*`: a reverse proxy to POSTHOG_HOST, so posthog-js talks to our own origin
 * (CSP `connect-src 'self'`, and no third-party host for blockers to drop). Bodies pass through
 * untouched (posthog-js sends gzip or base64 as text/plain or form data); absent a key, 404.
 */
export async function ingestProxyRoutes(app: App, { config, services }: RouteContext) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INGEST_BODY_LIMIT_BYTES }, (_request, body, done) => {
    done(null, body);
  });

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const analytics = config.analytics;
    if (!analytics) throw notFound(`No such endpoint: ${request.method} /ingest`);
    // A page sends a batch every few seconds; a flood is somebody using us as an open relay.
    await enforceLimits(services, 'Too many analytics requests. Please slow down.', [
      [`ingest-proxy:ip:${request.ip}`, ANALYTICS_RATE_LIMITS.proxyPerIp],
    ]);
    const rest = request.url.slice('/ingest'.length);
    const target = new URL(`${analytics.host}${rest.startsWith('/') ? rest : `/${rest}`}`);
    // The target stays on the analytics host whatever the path says.
    if (target.origin !== new URL(analytics.host).origin) throw new AppError(400, 'bad_request', 'The request URL is not valid');

    const dropped = connectionHeaders(request.headers.connection);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || dropped.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set('x-forwarded-for', request.ip);
    headers.set('x-forwarded-proto', request.protocol);
    headers.set('x-forwarded-host', request.host);

    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && Buffer.isBuffer(request.body);
    let upstream: Response;
    try {
      upstream = await fetch(target, {
        method: request.method,
        headers,
        body: hasBody ? new Uint8Array(request.body as Buffer) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(INGEST_TIMEOUT_MS),
      });
    } catch (err) {
      request.log.warn({ err }, 'analytics proxy: provider unreachable');
      throw new AppError(502, 'bad_gateway', 'The analytics provider could not be reached');
    }
    const responseDropped = connectionHeaders(upstream.headers.get('connection') ?? undefined);
    upstream.headers.forEach((value, name) => {
      if (!RESPONSE_DROPPED.has(name) && !responseDropped.has(name)) reply.header(name, value);
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    return reply.code(upstream.status).send(body);
  };

  const forEveryone = access.public("posthog-js in visitors' browsers (a relay to the analytics provider)");
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/*',
    bodyLimit: INGEST_BODY_LIMIT_BYTES,
    config: forEveryone,
    handler: forward,
  });
  app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '', config: forEveryone, handler: forward });
}
