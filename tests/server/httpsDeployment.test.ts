// What changes when PUBLIC_URL is https (issue 24): HSTS from the app itself, the session cookie
// named `__Host-…`, and a legacy `sage_session` ended rather than read. Whatever the scheme: every
// answer that depends on who asks is `Cache-Control: no-store`, and Permissions-Policy is sent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SageApp } from '../../server/app';
import { HOST_SESSION_COOKIE, SESSION_COOKIE } from '../../server/http/sessionCookie';
import { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from '../../server/security';
import { IMMUTABLE_CACHE } from '../../server/plugins/staticAssets';
import { buildExtraApp, databases, TestClient, uniqueEmail, useTestServer } from './harness';

const HTTPS = { PUBLIC_URL: 'https://sage.test' };
const ASSET = '/assets/app-abc123.js';

/** The cookie an answer sets (or clears) under `name`. */
function cookieOf(response: LightMyRequestResponse, name: string) {
  return response.cookies.find((c) => c.name === name);
}

/** Whether the answer tells the browser to drop the cookie. */
function clears(response: LightMyRequestResponse, name: string): boolean {
  const cookie = cookieOf(response, name);
  return cookie !== undefined && cookie.value === '' && (cookie.expires?.getTime() ?? Infinity) <= Date.now();
}

describe.each(databases)('https deployments on $label', (database) => {
  // The suite's own app is an http deployment (PUBLIC_URL http://sage.test).
  const server = useTestServer(database);
  let staticDir: string;

  beforeAll(() => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-static-'));
    fs.writeFileSync(
      path.join(staticDir, 'index.html'),
      '<!doctype html><html><head><title>Sage</title></head><body><div id="root"></div></body></html>',
    );
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(path.join(staticDir, ASSET), 'console.log(1)');
  });
  afterAll(() => fs.rmSync(staticDir, { recursive: true, force: true }));

  /** A second app over the suite's database, with the browser app, configured by `env`. */
  async function withApp(env: Record<string, string>, run: (app: SageApp) => Promise<void>) {
    const app = await buildExtraApp(server().db, env, { staticDir });
    try {
      await run(app);
    } finally {
      await app.close();
    }
  }

  describe('HSTS', () => {
    const requests = [
      { method: 'GET' as const, url: '/api/config' },
      { method: 'GET' as const, url: '/api/user' },
      { method: 'GET' as const, url: '/download' },
      { method: 'GET' as const, url: ASSET },
      { method: 'GET' as const, url: '/api/no-such-endpoint' },
      // Answered before routing (framework error) and refused by the cross-site check.
      { method: 'GET' as const, url: '/%' },
      { method: 'POST' as const, url: '/api/logout', headers: { origin: 'https://evil.example' } },
    ];

    it('is on every answer of an https deployment, for a year and the subdomains', async () => {
      expect(STRICT_TRANSPORT_SECURITY).toMatch(/^max-age=(\d+); includeSubDomains$/);
      expect(Number(/max-age=(\d+)/.exec(STRICT_TRANSPORT_SECURITY)?.[1])).toBeGreaterThanOrEqual(365 * 24 * 3600);
      await withApp(HTTPS, async (app) => {
        for (const request of requests) {
          const response = await app.inject(request);
          expect(response.headers['strict-transport-security'], request.url).toBe(STRICT_TRANSPORT_SECURITY);
          for (const [name, value] of Object.entries(SECURITY_HEADERS))
            expect(response.headers[name], `${request.url} ${name}`).toBe(value);
        }
      });
    });

    it('is never sent over http', async () => {
      await withApp({}, async (app) => {
        for (const request of requests) {
          const response = await app.inject(request);
          expect(response.headers['strict-transport-security'], request.url).toBeUndefined();
          expect(response.headers['permissions-policy'], request.url).toBe(SECURITY_HEADERS['permissions-policy']);
        }
      });
    });
  });

  it('denies the browser features the product does not use', () => {
    const policy = SECURITY_HEADERS['permissions-policy'] ?? '';
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'midi', 'browsing-topics']) {
      expect(policy.split(', '), feature).toContain(`${feature}=()`);
    }
  });

  describe('the session cookie', () => {
    it('is `__Host-sage_session` on https: Secure, HttpOnly, Path=/, no Domain', async () => {
      await withApp(HTTPS, async (app) => {
        const browser = new TestClient(app);
        const registered = await browser.register(uniqueEmail());
        expect(cookieOf(registered, SESSION_COOKIE)).toBeUndefined();
        const cookie = cookieOf(registered, HOST_SESSION_COOKIE);
        expect(cookie).toMatchObject({ name: '__Host-sage_session', secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
        expect(cookie?.domain).toBeUndefined();
        expect((await browser.get('/api/user')).statusCode).toBe(200);
        // Signed-in pages know their user by it too.
        const page = await browser.get('/dashboard');
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('currentUser');

        const logout = await browser.post('/api/logout');
        expect(clears(logout, HOST_SESSION_COOKIE)).toBe(true);
        expect((await browser.get('/api/user')).statusCode).toBe(401);
      });
    });

    it('is `sage_session` on http, not Secure', async () => {
      const browser = server().client();
      const registered = await browser.register(uniqueEmail());
      expect(cookieOf(registered, HOST_SESSION_COOKIE)).toBeUndefined();
      expect(cookieOf(registered, SESSION_COOKIE)).toMatchObject({ path: '/', httpOnly: true });
      expect(cookieOf(registered, SESSION_COOKIE)?.secure).toBeFalsy();
      // A `__Host-` cookie is nothing to an http deployment.
      const other = server().client({ cookie: `${HOST_SESSION_COOKIE}=${browser.session ?? ''}` });
      expect((await other.get('/api/user')).statusCode).toBe(401);
    });

    it('of before the rename is never read on https: its session is ended and the cookie cleared', async () => {
      // A session of the same database, signed in while the deployment was http (or planted).
      const before = server().client();
      await before.register(uniqueEmail());
      const legacy = before.session ?? '';
      expect(legacy).not.toBe('');

      await withApp(HTTPS, async (app) => {
        for (const url of ['/api/user', '/dashboard']) {
          const session =
            url === '/api/user'
              ? legacy
              : await (async () => {
                  const again = server().client();
                  await again.register(uniqueEmail());
                  return again.session ?? '';
                })();
          const response = await app.inject({ method: 'GET', url, headers: { cookie: `${SESSION_COOKIE}=${session}` } });
          expect(response.statusCode, url).toBe(url === '/api/user' ? 401 : 302);
          expect(clears(response, SESSION_COOKIE), url).toBe(true);
          expect(response.headers['cache-control'], url).toBe('no-store');
        }

        // Beside a `__Host-` session, the legacy cookie changes nothing but its own end.
        const browser = new TestClient(app);
        await browser.register(uniqueEmail());
        const other = server().client();
        await other.register(uniqueEmail());
        const both = await browser.get('/api/user', {
          headers: {
            cookie: `${SESSION_COOKIE}=${other.session ?? ''}; ${HOST_SESSION_COOKIE}=${browser.cookies.get(HOST_SESSION_COOKIE) ?? ''}`,
          },
        });
        expect(both.statusCode).toBe(200);
        expect(clears(both, SESSION_COOKIE)).toBe(true);
        expect(clears(both, HOST_SESSION_COOKIE)).toBe(false);
        expect((await other.get('/api/user')).statusCode).toBe(401);
      });
      // The session row is gone: not even the http deployment it came from takes it now.
      const replay = await before.get('/api/user');
      expect(replay.statusCode).toBe(401);
    });
  });

  describe('Cache-Control', () => {
    it('is no-store on every answer that depends on who asks; assets and public answers keep theirs', async () => {
      await withApp(HTTPS, async (app) => {
        const user = new TestClient(app);
        await user.register(uniqueEmail());
        const me = await user.get('/api/user');
        expect(me.statusCode).toBe(200);
        const id = me.json<{ id: string }>().id;
        const admin = new TestClient(app);
        await admin.register(uniqueEmail('admin'));
        const adminId = (await admin.get('/api/user')).json<{ id: string }>().id;
        await server().db.updateTable('users').set({ is_admin: 1 }).where('id', '=', adminId).execute();
        const row = await server().db.selectFrom('users').select('license_token').where('id', '=', id).executeTakeFirstOrThrow();
        const plugin = new TestClient(app, { authorization: `Bearer ${row.license_token}` });

        const personal: [string, Promise<LightMyRequestResponse>, number][] = [
          ['GET /api/user', user.get('/api/user'), 200],
          ['GET /api/user signed out', new TestClient(app).get('/api/user'), 401],
          ['admin read', admin.get(`/api/admin/users/${id}`), 200],
          ['admin list', admin.get('/api/admin/users'), 200],
          ['license download', user.get(`/api/sage/${id}/license?download=true`), 200],
          ["the plugin's license", plugin.get('/api/license'), 200],
          ['signed-in page', user.get('/dashboard'), 200],
          ['signed-in download page', user.get('/download'), 200],
          ['sign-in status', user.get('/api/auth/status'), 200],
        ];
        for (const [what, answer, status] of personal) {
          const response = await answer;
          expect(response.statusCode, what).toBe(status);
          expect(response.headers['cache-control'], what).toBe('no-store');
        }

        const asset = await user.get(ASSET);
        expect([asset.statusCode, asset.headers['cache-control']]).toEqual([200, IMMUTABLE_CACHE]);
        const publicKey = await user.get('/api/license/public-key');
        expect(publicKey.headers['cache-control']).toBe('public, max-age=300');
        // A signed-out page is the same for everyone: revalidated, not barred from caches.
        const signedOut = await new TestClient(app).get('/download');
        expect([signedOut.statusCode, signedOut.headers['cache-control']]).toEqual([200, 'no-cache']);
        // An API answer that is the same for everyone keeps its route's header, or none.
        expect((await new TestClient(app).get('/api/config')).headers['cache-control']).toBeUndefined();
      });
    });
  });
});
