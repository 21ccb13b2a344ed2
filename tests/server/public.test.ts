import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BUILD_VERSION, type SageBuild } from '../../contract/builds';
import { createAuditService } from '../../server/services/audit';
import { createBuildService } from '../../server/services/builds';
import type { BootData } from '../../contract/boot';
import type { RenderPage } from '../../server/plugins/pages';
import { buildExtraApp, databases, errorBody, TestClient, uniqueEmail, useTestServer } from './harness';

const documentTitleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

function build(version: string): SageBuild {
  return {
    version,
    ue54Url: '',
    ue55Url: `https://dl.test/${version}/ue5.5.zip`,
    ue56Url: `https://dl.test/${version}/ue5.6.zip`,
    ue57Url: `https://dl.test/${version}/ue5.7.zip`,
  };
}

describe.each(databases)('public endpoints on $label', (database) => {
  const server = useTestServer(database);

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers GET /healthz with ok while the database is reachable', async () => {
    const response = await server().client().get('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('serves the browser runtime configuration without secrets', async () => {
    const response = await server().client().get('/api/config');
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual([
      'analytics',
      'defaultBuild',
      'epicSignIn',
      'installationGuideUrl',
      'legacyLogin',
      'marketingUrl',
      'supportEmail',
    ]);
    // No POSTHOG_KEY in the suite: analytics are off.
    expect(body.analytics).toBeNull();
    // The suite signs in with Epic through the development identity provider.
    expect(body.epicSignIn).toBe('development');
    expect(body.defaultBuild).toMatchObject({ version: DEFAULT_BUILD_VERSION });
    // LEGACY_LOGIN's default (decision 048): the login page shows the e-mail form.
    expect(body.legacyLogin).toBe('on');
    expect(response.body).not.toContain('smtp://');
  });

  // Kept in this order: the database of the suite has no build until the release below.
  it('answers GET /api/current-sage-build with 404 before any build is released', async () => {
    const response = await server().client().get('/api/current-sage-build');
    expect(response.statusCode).toBe(404);
    expect(errorBody(response)).toEqual({ error: 'no_build', message: 'No Sage build has been released yet' });
  });

  it('answers GET /api/current-sage-build with the newest released build', async () => {
    const builds = createBuildService(server().db, createAuditService(server().db));
    await builds.release(build('2026-01-01a'), null);
    expect((await server().client().get('/api/current-sage-build')).json()).toEqual(build('2026-01-01a'));

    await builds.release(build('2026-02-01a'), null);
    const response = await server().client().get('/api/current-sage-build');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(build('2026-02-01a'));
  });

  it('makes the last release current even when two land in the same millisecond', async () => {
    const builds = createBuildService(server().db, createAuditService(server().db));
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2030, 0, 1));
    for (const version of ['2030-01-01a', '2030-01-01b', '2030-01-01c', '2030-01-01d']) {
      await builds.release(build(version), null);
      expect((await builds.current())?.version).toBe(version);
    }
  });

  it('serves the single-page app for screens, each with its title and boot data, and keeps 404 JSON for unknown API paths', async () => {
    const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-static-'));
    fs.writeFileSync(
      path.join(staticDir, 'index.html'),
      '<!doctype html><html><head><title>Sage</title><meta name="description" content="old"></head><body><div id="root"></div></body></html>',
    );
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(path.join(staticDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    const app = await buildExtraApp(server().db, {}, { staticDir });
    try {
      for (const [url, title] of [
        ['/download', 'Download Sage · Sage Dashboard'],
        ['/login', 'Sign in · Sage Dashboard'],
        ['/reset-password?token=abc', 'Reset your password · Sage Dashboard'],
      ]) {
        const screen = await app.inject({ method: 'GET', url });
        expect(screen.statusCode, url).toBe(200);
        expect(screen.body).toContain(`<title>${title}</title>`);
        expect(screen.body).not.toContain('<title>Sage</title>');
        expect(screen.body).toContain('<div id="root" data-boot="{&#34;config&#34;:');
        expect(screen.headers['cache-control']).toBe('no-cache');
        expect(String(screen.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      }
      // §2: '/' and '/signup' only redirect, so the server answers them with the redirect.
      const home = await app.inject({ method: 'GET', url: '/?utm_source=x' });
      expect([home.statusCode, home.headers.location]).toEqual([302, '/download?utm_source=x']);
      const signup = await app.inject({ method: 'GET', url: '/signup' });
      expect([signup.statusCode, signup.headers.location]).toEqual([302, '/login']);
      const unknown = await app.inject({ method: 'GET', url: '/no-such-screen' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('<title>Page not found · Sage Dashboard</title>');
      // Found by the resilience suite's fuzzer: a path starting with // was read as a
      // protocol-relative URL ('//' failed with a 500, '//x' was taken for the host x). Such a
      // path is the page the router shows for it.
      for (const [odd, plain] of [
        ['//', '/'],
        ['//download', '/download'],
        ['///login?x=1', '/login?x=1'],
      ] as const) {
        const [a, b] = [await app.inject({ method: 'GET', url: odd }), await app.inject({ method: 'GET', url: plain })];
        expect([a.statusCode, a.headers.location, documentTitleOf(a.body)], odd).toEqual([
          b.statusCode,
          b.headers.location,
          documentTitleOf(b.body),
        ]);
      }

      const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');

      const api = await app.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toEqual({ error: 'not_found', message: 'No such endpoint: GET /api/nothing-here' });
      const post = await app.inject({ method: 'POST', url: '/somewhere', payload: {} });
      expect(post.statusCode).toBe(404);
    } finally {
      await app.close();
      fs.rmSync(staticDir, { recursive: true, force: true });
    }
  });

  /** An app serving its pages from a bare index.html through `html`, with each render's URL and boot data recorded. */
  async function appWithPages(html: (url: string, boot: BootData) => string, title?: string) {
    const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-static-'));
    fs.writeFileSync(
      path.join(staticDir, 'index.html'),
      '<!doctype html><html><head><title>Sage</title></head><body><div id="root"></div></body></html>',
    );
    const rendered: { url: string; boot: BootData }[] = [];
    const renderPage: RenderPage = async (url, boot) => {
      rendered.push({ url, boot });
      return { html: html(url, boot), styles: '', ...(title === undefined ? {} : { title }) };
    };
    const app = await buildExtraApp(server().db, {}, { staticDir, renderPage });
    const close = async () => {
      await app.close();
      fs.rmSync(staticDir, { recursive: true, force: true });
    };
    return { app, rendered, close };
  }

  it('renders a page for whoever its access rule lets in, with who it is for, and redirects the others as the browser guard would', async () => {
    const { app, close } = await appWithPages((url, boot) => {
      if (url.startsWith('/support')) throw new Error('a screen that cannot render on the server');
      // Past the size worth compressing per response.
      return `<main>${url} for ${boot.currentUser?.email ?? 'a visitor'}</main><p hidden>${'Sage '.repeat(300)}</p>`;
    });
    try {
      const visitor = new TestClient(app);
      const user = new TestClient(app);
      const email = uniqueEmail('pages');
      await user.register(email);

      // A visitor: the signed-in pages send them home, the public ones render for "a visitor".
      for (const url of ['/dashboard', '/products-checkout', '/subscription-update', '/admin']) {
        const page = await visitor.get(url);
        expect([url, page.statusCode, page.headers.location]).toEqual([url, 302, '/download']);
      }
      const login = await visitor.get('/login');
      expect(login.body).toContain('<main>/login for a visitor</main>');
      expect(login.body).toContain('&#34;signedOut&#34;:true');
      expect(login.headers['cache-control']).toBe('no-cache');

      // A signed-in user: their pages render with them, are theirs alone, and /login moves them on.
      const checkout = await user.get('/products-checkout');
      expect(checkout.statusCode).toBe(200);
      expect(checkout.body).toContain(`<main>/products-checkout for ${email}</main>`);
      const dashboard = await user.get('/dashboard');
      expect(dashboard.statusCode).toBe(200);
      expect(dashboard.body).toContain(`<main>/dashboard for ${email}</main>`);
      expect(dashboard.body).toContain(`&#34;email&#34;:&#34;${email}&#34;`);
      expect(dashboard.body).not.toContain('signedOut');
      expect(dashboard.headers['cache-control']).toBe('no-store');
      // Rendered for one response, it is compressed as that response goes out, as the browser asks.
      const compressed = await user.request('GET', '/dashboard', { headers: { 'accept-encoding': 'br' } });
      expect([compressed.headers['content-encoding'], compressed.headers.vary]).toEqual(['br', 'accept-encoding']);
      expect(zlib.brotliDecompressSync(compressed.rawPayload).toString()).toContain(`<main>/dashboard for ${email}</main>`);
      const userLogin = await user.get('/login');
      expect([userLogin.statusCode, userLogin.headers.location]).toEqual([302, '/dashboard']);
      const admin = await user.get('/admin');
      expect([admin.statusCode, admin.headers.location]).toEqual([302, '/dashboard']);
      // A page rendered for a visitor is never served to a user, nor the other way round.
      expect((await user.get('/download')).body).toContain(`for ${email}`);
      expect((await visitor.get('/download')).body).toContain('for a visitor');

      // A failed render is logged and the page goes out as the app's shell.
      const support = await visitor.get('/support');
      expect(support.statusCode).toBe(200);
      expect(support.body).toContain('<div id="root" data-boot=');
      expect(support.body).not.toContain('<main>');

      // An ended session: treated as a visitor, and its cookie is dropped.
      await user.get('/api/logout', { headers: { 'sec-fetch-site': 'same-origin' } });
      const stale = new TestClient(app);
      stale.cookies.set('sage_session', 'no-such-session');
      const afterLogout = await stale.get('/dashboard');
      expect([afterLogout.statusCode, afterLogout.headers.location]).toEqual([302, '/download']);
      expect(stale.session).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('renders the console’s Home for an admin with its figures, the same for every screen; its other pages are the shell', async () => {
    // The renderer names the console's tab, which becomes the page's title.
    const { app, rendered, close } = await appWithPages((url) => `<main>${url}</main>`, 'Home · Admin · Sage Dashboard');
    try {
      const admin = new TestClient(app);
      const email = uniqueEmail('console-home');
      await admin.register(email);
      const id = (JSON.parse((await admin.get('/api/user')).body) as { id: string }).id;
      await server().db.updateTable('users').set({ is_admin: 1 }).where('id', '=', id).execute();
      const metrics = JSON.parse((await admin.get('/api/admin/grove-metrics')).body) as unknown;
      const insights = JSON.parse((await admin.get('/api/admin/insights?days=30')).body) as { days: string[] };

      const phone = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
      // The page does not depend on the screen (decision 035): no guess from the user agent or its hints.
      const pages: string[] = [];
      for (const headers of [
        { 'user-agent': phone } as Record<string, string>,
        { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36' },
        { 'user-agent': phone, 'sec-ch-ua-mobile': '?1' },
      ]) {
        rendered.length = 0;
        const page = await admin.get('/admin', { headers });
        expect([page.statusCode, page.headers['cache-control']]).toEqual([200, 'no-store']);
        expect(page.body).toContain('<main>/admin</main>');
        expect(page.body).toContain('<title>Home · Admin · Sage Dashboard</title>');
        expect(rendered).toHaveLength(1);
        const boot = rendered[0]!.boot;
        expect(Object.keys(boot).sort()).toEqual(['config', 'consoleHome', 'currentUser']);
        pages.push(
          JSON.stringify({ ...boot, consoleHome: { ...boot.consoleHome, insights: { ...boot.consoleHome?.insights, generatedAt: '' } } }),
        );
        expect(boot.consoleHome).toEqual({ groveMetrics: metrics, range: 30, insights: { ...insights, generatedAt: expect.any(String) } });
        expect(boot.consoleHome?.insights.days).toEqual(insights.days);
      }
      expect(new Set(pages).size).toBe(1);

      // An admin who must first replace a one-time password is refused the figures by the API: the page holds none either.
      await server().db.updateTable('users').set({ password_change_required: 1 }).where('id', '=', id).execute();
      rendered.length = 0;
      await admin.get('/admin', { headers: { 'user-agent': phone } });
      expect(rendered[0]?.boot.currentUser?.passwordChangeRequired).toBe(true);
      expect(rendered[0]?.boot.consoleHome).toBeUndefined();
      await server().db.updateTable('users').set({ password_change_required: 0 }).where('id', '=', id).execute();

      // The console's other pages load their own chunk and records in the browser: the shell, no figures.
      rendered.length = 0;
      const users = await admin.get('/admin/users', { headers: { 'user-agent': phone } });
      expect(users.statusCode).toBe(200);
      expect(users.body).not.toContain('<main>');
      expect(users.body).toContain('<title>Admin · Sage Dashboard</title>');
      expect(users.body).not.toContain('consoleHome');
      expect(rendered).toHaveLength(0);
    } finally {
      await close();
    }
  });
});
