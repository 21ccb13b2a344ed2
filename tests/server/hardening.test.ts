import { describe, expect, it } from 'vitest';
import type { AppDeps, SageApp } from '../../server/app';
import { loggerOptions } from '../../server/logging';
import { SECURITY_HEADERS } from '../../server/security';
import { PASSWORD, PUBLIC_URL, buildExtraApp, databases, errorBody, uniqueEmail, useTestServer } from './harness';

describe.each(databases)('hardening on $label', (database) => {
  const server = useTestServer(database);

  /** A second app over the suite's database, with its own configuration. */
  async function withApp(env: Record<string, string>, run: (app: SageApp) => Promise<void>, logger?: AppDeps['logger']) {
    const app = await buildExtraApp(server().db, env, { logger });
    try {
      await run(app);
    } finally {
      await app.close();
    }
  }

  describe('logs', () => {
    it('never log the secret query parameters of a request URL', async () => {
      const lines: string[] = [];
      const stream = { write: (line: string) => void lines.push(line) };
      await withApp(
        {},
        async (app) => {
          await app.inject({ method: 'GET', url: '/reset-password?token=abc' });
          await app.inject({ method: 'GET', url: '/api/user?code=abc&state=abc&code_verifier=abc' });
        },
        loggerOptions('info', stream),
      );
      const log = lines.join('');
      // One structured line per request: what was asked, how it was answered, and how fast.
      const requests = lines
        .map((line) => JSON.parse(line) as { msg: string; req?: { url: string }; res?: { statusCode: number }; responseTime?: number })
        .filter((l) => l.req);
      expect(requests.map((l) => [l.msg, l.req?.url, l.res?.statusCode])).toEqual([
        // No browser app in this server: every page is 404.
        ['request completed', '/reset-password?token=[redacted]', 404],
        ['request completed', '/api/user?code=[redacted]&state=[redacted]&code_verifier=[redacted]', 401],
      ]);
      expect(requests.every((l) => typeof l.responseTime === 'number')).toBe(true);
      expect(log).toContain('/reset-password?token=[redacted]');
      expect(log).toContain('"remoteAddress"');
      expect(log).not.toContain('abc');
    });
  });

  describe('framework errors', () => {
    it('answer a malformed URL with 400 { error, message } and the security headers', async () => {
      for (const url of ['/%', '/api/%zz', '/assets/%E0%A4%A']) {
        const response = await server().client().get(url);
        expect(response.statusCode, url).toBe(400);
        expect(errorBody(response)).toEqual({ error: 'bad_request', message: 'The request URL is not valid' });
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers[name], name).toBe(value);
      }
    });
  });

  describe('origins', () => {
    const register = (origin: string, host?: string) => ({
      method: 'POST' as const,
      url: '/api/register',
      payload: { email: uniqueEmail(), password: PASSWORD },
      headers: { origin, ...(host ? { host } : {}) },
    });

    it('in production accept PUBLIC_URL alone', async () => {
      await withApp({ NODE_ENV: 'production' }, async (app) => {
        expect((await app.inject(register(PUBLIC_URL))).statusCode).toBe(201);
        for (const [origin, host] of [
          ['http://localhost:5173', undefined],
          ['http://127.0.0.1:5173', undefined],
          ['http://rebound.example:3000', 'rebound.example:3000'],
        ]) {
          const response = await app.inject(register(origin ?? '', host));
          expect(response.statusCode, origin).toBe(403);
          expect(errorBody(response).error).toBe('cross_origin');
        }
      });
    });

    it('outside production also accept the request host and the Vite dev server', async () => {
      const client = server().client();
      for (const [origin, host] of [
        [PUBLIC_URL, undefined],
        ['http://localhost:5173', undefined],
        ['http://127.0.0.1:5173', undefined],
        ['http://dev-box.local:3000', 'dev-box.local:3000'],
      ]) {
        const response = await client.request('POST', '/api/register', {
          json: { email: uniqueEmail(), password: PASSWORD },
          headers: { origin: origin ?? '', ...(host ? { host } : {}) },
        });
        expect(response.statusCode, origin).toBe(201);
      }
      // Other ports of the dev machine are still other sites.
      const other = await client.request('POST', '/api/register', {
        json: { email: uniqueEmail(), password: PASSWORD },
        headers: { origin: 'http://localhost:8080' },
      });
      expect(other.statusCode).toBe(403);
    });
  });
});

describe.each(databases)('behind one trusted proxy (TRUST_PROXY=1) on $label', (database) => {
  const server = useTestServer(database, { TRUST_PROXY: '1' });

  it('counts a client by the hop the proxy added, whatever the client wrote before it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const client = server().client({ 'x-forwarded-for': `203.0.113.${i + 1}, 10.9.${i}.1, 198.51.100.7` });
      statuses.push((await client.login(uniqueEmail('spoof'), 'wrong-password')).statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('tells clients apart by that hop', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const client = server().client({ 'x-forwarded-for': `198.51.100.${i + 1}` });
      statuses.push((await client.login(uniqueEmail('many'), 'wrong-password')).statusCode);
    }
    expect(statuses.every((s) => s === 401)).toBe(true);
  });
});
