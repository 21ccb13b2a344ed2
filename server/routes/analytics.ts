import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnalyticsLocation } from '../../contract/analytics';
import { AppError } from '../errors';
import { ANALYTICS_RATE_LIMITS } from '../services/rateLimiter';
import { enforceLimits } from './rateLimit';
import type { App, RouteContext } from './types';

/** Largest analytics request forwarded: posthog-js batches, compressed, stay far below it. */
export const INGEST_BODY_LIMIT_BYTES = 1024 * 1024;
/** How long the analytics provider may take before the proxy gives up. */
export const INGEST_TIMEOUT_MS = 10_000;
/** How long one IP's location is remembered. */
export const LOCATION_CACHE_MS = 60 * 60_000;
const LOCATION_CACHE_MAX = 10_000;

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
const RESPONSE_DROPPED = new Set([...HOP_BY_HOP, 'content-encoding', 'set-cookie', 'access-control-allow-origin', 'access-control-allow-credentials']);

function connectionHeaders(value: string | string[] | undefined): Set<string> {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(raw.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean));
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
    if (!analytics) throw new AppError(404, 'not_found', `No such endpoint: ${request.method} /ingest`);
    // A page sends a batch every few seconds; a flood is somebody using us as an open relay.
    await enforceLimits(services, 'Too many analytics requests. Please slow down.', [[`ingest-proxy:ip:${request.ip}`, ANALYTICS_RATE_LIMITS.proxyPerIp]]);
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

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/ingest/*',
    bodyLimit: INGEST_BODY_LIMIT_BYTES,
    handler: forward,
  });
  app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/ingest', handler: forward });
}

/** §3's location fields, from the common shapes of IP-location answers (ipapi.co, ip-api.com, ipinfo-like). */
export type LocationAnswer = AnalyticsLocation;

function str(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v.trim()) return v.trim();
  return undefined;
}
function num(...values: unknown[]): number | undefined {
  for (const v of values) {
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
  }
  return undefined;
}

export function normalizeLocation(raw: unknown, ip: string): LocationAnswer {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const [locLat, locLon] = typeof r.loc === 'string' ? r.loc.split(',') : [];
  const fields: LocationAnswer = {
    country: str(r.country_name, r.countryName, typeof r.country === 'string' && r.country.length > 2 ? r.country : undefined),
    country_code: str(r.country_code, r.countryCode, typeof r.country === 'string' && r.country.length === 2 ? r.country : undefined),
    region: str(r.region, r.regionName, r.region_name),
    city: str(r.city),
    timezone: str(r.timezone, r.time_zone),
    latitude: num(r.latitude, r.lat, locLat),
    longitude: num(r.longitude, r.lon, r.lng, locLon),
    ip_address: str(r.ip, r.query) ?? ip,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as LocationAnswer;
}

/** `GET /api/analytics/location`: the caller's location from IP_LOCATION_URL, cached per IP for an hour. */
export async function analyticsLocationRoutes(app: App, { config }: RouteContext) {
  const cache = new Map<string, { at: number; fields: LocationAnswer }>();

  app.get('/api/analytics/location', async (request, reply) => {
    const template = config.analytics?.ipLocationUrl;
    if (!template) throw new AppError(404, 'not_found', 'No IP-location provider is configured');
    const ip = request.ip;
    const now = Date.now();
    const hit = cache.get(ip);
    reply.header('cache-control', 'private, max-age=3600');
    if (hit && now - hit.at < LOCATION_CACHE_MS) return hit.fields;
    let fields: LocationAnswer;
    try {
      const response = await fetch(template.replaceAll('{ip}', encodeURIComponent(ip)), {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(INGEST_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`IP-location provider answered ${response.status}`);
      fields = normalizeLocation(await response.json(), ip);
    } catch (err) {
      request.log.warn({ err }, 'IP-location lookup failed');
      throw new AppError(502, 'bad_gateway', 'The location could not be looked up');
    }
    if (cache.size >= LOCATION_CACHE_MAX) {
      for (const [key, entry] of cache) if (now - entry.at >= LOCATION_CACHE_MS) cache.delete(key);
      if (cache.size >= LOCATION_CACHE_MAX) cache.delete(cache.keys().next().value as string);
    }
    cache.set(ip, { at: now, fields });
    return fields;
  });
}
