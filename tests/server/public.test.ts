import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BUILD_VERSION, type SageBuild } from '../../contract/builds';
import { createBuildService } from '../../server/services/builds';
import { buildExtraApp, databases, errorBody, useTestServer } from './harness';

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
    expect(Object.keys(body).sort()).toEqual(['analytics', 'defaultBuild', 'epicSignIn', 'installationGuideUrl', 'marketingUrl', 'supportEmail']);
    // No POSTHOG_KEY in the suite: analytics are off.
    expect(body.analytics).toBeNull();
    // The suite signs in with Epic through the development identity provider.
    expect(body.epicSignIn).toBe('development');
    expect(body.defaultBuild).toMatchObject({ version: DEFAULT_BUILD_VERSION });
    expect(response.body).not.toContain('smtp://');
  });

  // Kept in this order: the database of the suite has no build until the release below.
  it('answers GET /api/current-sage-build with 404 before any build is released', async () => {
    const response = await server().client().get('/api/current-sage-build');
    expect(response.statusCode).toBe(404);
    expect(errorBody(response)).toEqual({ error: 'no_build', message: 'No Sage build has been released yet' });
  });

  it('answers GET /api/current-sage-build with the newest released build', async () => {
    const builds = createBuildService(server().db);
    await builds.release(build('2026-01-01a'), null);
    expect((await server().client().get('/api/current-sage-build')).json()).toEqual(build('2026-01-01a'));

    await builds.release(build('2026-02-01a'), null);
    const response = await server().client().get('/api/current-sage-build');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(build('2026-02-01a'));
  });

  it('makes the last release current even when two land in the same millisecond', async () => {
    const builds = createBuildService(server().db);
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
        ['/dashboard', 'Dashboard · Sage Dashboard'],
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
});
