import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_RATE_LIMITS } from '../../server/services/rateLimiter';
import type { SageApp } from '../../server/app';
import { INGEST_BODY_LIMIT_BYTES } from '../../server/routes/ingest/proxy';
import { normalizeLocation } from '../../server/services/ipLocation';
import { buildExtraApp, databases, PUBLIC_URL, useTestServer } from './harness';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Stands in for PostHog and for an IP-location service. */
async function startUpstream() {
  const seen: Seen[] = [];
  let lookups = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url?.startsWith('/geo/')) {
        lookups += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ip: req.url.split('/')[2],
            country_name: 'Germany',
            country_code: 'DE',
            region: 'Berlin',
            city: 'Berlin',
            timezone: 'Europe/Berlin',
            latitude: 52.5,
            longitude: 13.4,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive', 'set-cookie': 'ph=1' });
      res.end(JSON.stringify({ status: 1 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    lookups: () => lookups,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(databases)('analytics endpoints on $label', (database) => {
  const server = useTestServer(database);
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let app: SageApp;
  let off: SageApp;

  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await app?.close();
    await off?.close();
    await upstream.close();
  });

  async function appOn() {
    app ??= await buildExtraApp(server().db, {
      POSTHOG_KEY: 'phc_k',
      POSTHOG_HOST: upstream.url,
      IP_LOCATION_URL: `${upstream.url}/geo/{ip}`,
    });
    return app;
  }

  it('answers 404 for /ingest and the location without a key', async () => {
    off = await buildExtraApp(server().db);
    expect((await off.inject({ method: 'POST', url: '/ingest/e/', payload: '{}' })).statusCode).toBe(404);
    expect((await off.inject({ method: 'GET', url: '/api/analytics/location' })).statusCode).toBe(404);
  });

  it('forwards a gzip text/plain body raw, keeps the query, drops hop-by-hop headers and names the client', async () => {
    const a = await appOn();
    const body = zlib.gzipSync(JSON.stringify([{ event: 'Page View', properties: {} }]));
    const response = await a.inject({
      method: 'POST',
      url: '/ingest/e/?compression=gzip-js&ver=1.0',
      headers: {
        'content-type': 'text/plain',
        // Our own page's analytics: a write from another site's page is refused (issue 24).
        origin: PUBLIC_URL,
        connection: 'keep-alive, x-drop-me',
        'x-drop-me': '1',
        cookie: 'sage_session=secret',
        'x-forwarded-for': '6.6.6.6',
      },
      payload: body,
      remoteAddress: '203.0.113.7',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 1 });
    expect(response.headers['set-cookie']).toBeUndefined();
    const last = upstream.seen.at(-1);
    expect(last?.method).toBe('POST');
    expect(last?.url).toBe('/e/?compression=gzip-js&ver=1.0');
    expect(last?.body.equals(body)).toBe(true);
    expect(last?.headers['content-type']).toBe('text/plain');
    expect(last?.headers['x-forwarded-for']).toBe('203.0.113.7');
    expect(last?.headers['x-drop-me']).toBeUndefined();
    expect(last?.headers.cookie).toBeUndefined();
  });

  it('forwards GET and form bodies and refuses bodies over the limit', async () => {
    const a = await appOn();
    expect((await a.inject({ method: 'GET', url: '/ingest/array/phc_k/config' })).statusCode).toBe(200);
    expect(upstream.seen.at(-1)?.url).toBe('/array/phc_k/config');
    const form = await a.inject({
      method: 'POST',
      url: '/ingest/batch/?compression=base64',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'data=e30%3D',
    });
    expect(form.statusCode).toBe(200);
    expect(upstream.seen.at(-1)?.body.toString()).toBe('data=e30%3D');
    const big = await a.inject({
      method: 'POST',
      url: '/ingest/e/',
      headers: { 'content-type': 'text/plain' },
      payload: Buffer.alloc(INGEST_BODY_LIMIT_BYTES + 1),
    });
    expect(big.statusCode).toBe(413);
  });

  it('limits each address, so the proxy is no open relay', async () => {
    const limited = await buildExtraApp(server().db, { POSTHOG_KEY: 'phc_k', POSTHOG_HOST: upstream.url });
    try {
      const send = () => limited.inject({ method: 'GET', url: '/ingest/flags/', remoteAddress: '198.51.100.9' });
      for (let i = 0; i < ANALYTICS_RATE_LIMITS.proxyPerIp.limit; i += 1) expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(429);
      expect((await limited.inject({ method: 'GET', url: '/ingest/flags/', remoteAddress: '198.51.100.10' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('looks the location up once per IP and answers §3 fields', async () => {
    const a = await appOn();
    const first = await a.inject({ method: 'GET', url: '/api/analytics/location', remoteAddress: '198.51.100.4' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      country: 'Germany',
      country_code: 'DE',
      region: 'Berlin',
      city: 'Berlin',
      timezone: 'Europe/Berlin',
      latitude: 52.5,
      longitude: 13.4,
      ip_address: '198.51.100.4',
    });
    const before = upstream.lookups();
    await a.inject({ method: 'GET', url: '/api/analytics/location', remoteAddress: '198.51.100.4' });
    expect(upstream.lookups()).toBe(before);
  });
});

describe('IP-location answers', () => {
  it.each([
    [
      {
        status: 'success',
        country: 'Germany',
        countryCode: 'DE',
        regionName: 'Berlin',
        city: 'Berlin',
        timezone: 'Europe/Berlin',
        lat: 52.5,
        lon: 13.4,
        query: '1.2.3.4',
      },
    ],
    [
      {
        ip: '1.2.3.4',
        country: 'DE',
        country_name: 'Germany',
        region: 'Berlin',
        city: 'Berlin',
        timezone: 'Europe/Berlin',
        latitude: 52.5,
        longitude: 13.4,
      },
    ],
    [
      {
        ip: '1.2.3.4',
        country: 'DE',
        country_name: 'Germany',
        region: 'Berlin',
        city: 'Berlin',
        timezone: 'Europe/Berlin',
        loc: '52.5,13.4',
      },
    ],
  ])('normalizes %j', (raw) => {
    expect(normalizeLocation(raw, '9.9.9.9')).toEqual({
      country: 'Germany',
      country_code: 'DE',
      region: 'Berlin',
      city: 'Berlin',
      timezone: 'Europe/Berlin',
      latitude: 52.5,
      longitude: 13.4,
      ip_address: '1.2.3.4',
    });
  });
});
