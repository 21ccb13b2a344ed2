/**
 * The API's description (issue 13): `GET /api/openapi.json` is a valid OpenAPI 3.1 document that
 * names every `/api` route, and `/api/docs` shows it with Swagger UI under the product's CSP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECURITY_HEADERS } from '../../server/security';
import { registeredRoutes as registered } from './routeList';
import { buildExtraApp, databases, PUBLIC_URL, testConfig, useTestServer, type OpenedDatabase } from './harness';

// The app's own onRoute hook, added before anything else is registered, sees every route.
vi.mock('fastify', async () => (await import('./routeList')).fastifyWithRouteList());

/** `/api` routes that are not in the document, on purpose (server/plugins/openapi.ts says why). */
const HIDDEN = [
  '/api/openapi.json',
  '/api/docs',
  '/api/docs/json',
  '/api/docs/yaml',
  '/api/docs/static/index.html',
  '/api/docs/static/swagger-initializer.js',
  '/api/docs/static/*',
  // Swagger UI's scripts and styles, compressed once and kept (server/plugins/openapi.ts).
  ...fs
    .readdirSync(path.join(import.meta.dirname, '../../node_modules/@fastify/swagger-ui/static'))
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => `/api/docs/static/${name}`),
];

type Operation = {
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean; schema?: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema: Record<string, unknown> }>;
      headers?: Record<string, { schema?: Record<string, unknown>; description?: string }>;
    }
  >;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, Record<string, string>>;
  };
};

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const ERROR_REF = '#/components/schemas/ApiError';
const sqlite = databases.find((d) => d.kind === 'sqlite') ?? databases[0]!;

describe('GET /api/openapi.json', () => {
  const server = useTestServer(sqlite, {}, { epic: false });

  async function openapiDocument(): Promise<Document> {
    const response = await server().client().get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return response.json<Document>();
  }

  it('is a valid OpenAPI 3.1 document about this product', async () => {
    const document = await openapiDocument();
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    expect(document.info).toMatchObject({ title: 'Sage Dashboard API', version: pkg.version });
    expect(document.servers).toEqual([{ url: PUBLIC_URL }]);
  });

  it('describes every /api route with its method, and nothing else', async () => {
    const document = await openapiDocument();
    const apiRoutes = registered.filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/'));
    expect(apiRoutes.length).toBeGreaterThan(40);

    const missing = apiRoutes
      .filter((r) => !HIDDEN.includes(r.url))
      .filter((r) => !document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);

    // The hidden list names routes that exist, and none of them is described.
    for (const url of HIDDEN) {
      expect(
        apiRoutes.some((r) => r.url === url),
        url,
      ).toBe(true);
      expect(document.paths[openApiPath(url)], url).toBeUndefined();
    }
    // Nothing outside /api (pages, /healthz, /ingest…), and nothing that is not a route.
    const described = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const routeKeys = new Set(apiRoutes.map((r) => `${r.method} ${openApiPath(r.url)}`));
    expect(described.filter((key) => !routeKeys.has(key))).toEqual([]);
  });

  it('says who may call each route and what it answers', async () => {
    const document = await openapiDocument();
    for (const [p, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // A route that declares no access (server/http/endpointAccess.ts) has no security requirement.
        expect(Array.isArray(operation.security), `${method} ${p}: security (declare its access beside its schema)`).toBe(true);
        expect(
          Object.keys(operation.responses).some((status) => /^[23]/.test(status)),
          `${method} ${p}: its answer`,
        ).toBe(true);
        for (const [status, response] of Object.entries(operation.responses)) {
          if (/^[45]/.test(status))
            expect(response.content?.['application/json']?.schema, `${method} ${p} ${status}`).toEqual({ $ref: ERROR_REF });
        }
      }
    }
    expect(document.components.schemas.ApiError).toMatchObject({
      properties: { error: { type: 'string' }, message: { type: 'string' } },
      required: ['error', 'message'],
    });
  });

  it('shows the request body and the error answer of POST /api/login', async () => {
    const login = (await openapiDocument()).paths['/api/login']?.post;
    const body = login?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(['email', 'password', 'rememberMe']);
    expect(body?.required).toEqual(['email', 'password']);
    expect(login?.security).toEqual([]);
    expect(login?.responses['400']?.content?.['application/json']?.schema).toEqual({ $ref: ERROR_REF });
    expect(login?.responses['200']?.content?.['application/json']?.schema).toMatchObject({ properties: { ok: {}, message: {} } });
  });

  it('asks for the session cookie on admin routes and a bearer token on license and ingestion routes', async () => {
    const document = await openapiDocument();
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sage_session' });
    expect(document.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' });

    const adminUser = document.paths['/api/admin/users/{id}']?.get;
    expect(adminUser?.parameters).toContainEqual(expect.objectContaining({ in: 'path', name: 'id', required: true }));
    expect(adminUser?.security).toEqual([{ sessionCookie: [] }]);
    expect(Object.keys(adminUser?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '403', '404']));

    expect(document.paths['/api/license']?.get?.security).toEqual([{ bearerToken: [] }]);
    expect(document.paths['/api/ingest/messages']?.post?.security).toEqual([{ bearerToken: [] }]);
    expect(document.paths['/api/ingest/threads/{threadId}']?.put?.security).toEqual([{ bearerToken: [] }]);
    expect(document.paths['/api/config']?.get?.security).toEqual([]);
    expect(document.paths['/api/user']?.get?.security).toEqual([{ sessionCookie: [] }]);
  });

  it('describes the admin lists’ JSON parameters (sort, range, filter) and their array answers, and the deleted user', async () => {
    const document = await openapiDocument();
    for (const url of ['/api/admin/users', '/api/admin/audit']) {
      const list = document.paths[url]?.get;
      const query = (list?.parameters ?? []).filter((p) => p.in === 'query');
      expect(query.map((p) => p.name).sort(), url).toEqual(['filter', 'range', 'sort']);
      for (const parameter of query) {
        expect(parameter.required ?? false, `${url} ${parameter.name}`).toBe(false);
        // Sent as JSON text: the document shows what the query string carries.
        expect(parameter.schema, `${url} ${parameter.name}`).toMatchObject({ type: 'string' });
      }
      expect(list?.responses['200']?.content?.['application/json']?.schema, url).toMatchObject({ type: 'array' });
      expect(Object.keys(list?.responses ?? {}), url).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
      expect(list?.responses['200']?.headers?.['Content-Range'], url).toMatchObject({ schema: { type: 'string' } });
    }
    const deleted = document.paths['/api/admin/users/{id}']?.delete?.responses['200']?.content?.['application/json']?.schema;
    expect(deleted).toMatchObject({ properties: { id: {}, username: {}, email: {}, createdAt: {} } });
  });

  it('names the two 403 refusals of an admin route by their codes, the role one only where a role is refused', async () => {
    const document = await openapiDocument();
    const refusals = (p: string, method: string) => document.paths[p]?.[method]?.responses['403']?.description;
    // Every role may read a user (decision 030): no role refusal to document.
    expect(refusals('/api/admin/users/{id}', 'get')).toBe('Signed in, but not as an admin (forbidden)');
    expect(refusals('/api/admin/users/{id}', 'delete')).toBe(
      "Signed in, but not as an admin (forbidden); Your role does not allow this (role_forbidden): not for support; Sent by another site's page: its Origin is not ours (cross_origin)",
    );
  });

  it('keeps the answers of routes given a response schema for it as they were', async () => {
    const response = await server().client().get('/api/config');
    expect(response.body).toBe(JSON.stringify(server().config.runtime));
  });
});

/** The app with a built browser app beside the docs, so the pages' not-found handler is in play too. */
describe('/api/docs', () => {
  let opened: OpenedDatabase;
  let clientDir: string;
  let app: Awaited<ReturnType<typeof buildExtraApp>>;

  beforeAll(async () => {
    opened = await sqlite.open();
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-openapi-client-'));
    fs.writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html><head><title>Sage</title></head><body><div id="root"></div></body></html>',
    );
    app = await buildExtraApp(opened.db, { POSTHOG_KEY: 'phc_test' }, { staticDir: clientDir });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await opened.dispose();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  /** The docs page at `url`, after the redirect to `/api/docs/` should the plugin ever answer with one. */
  async function docsPage(url: string): Promise<{ url: string; response: LightMyRequestResponse }> {
    const response = await get(url);
    if (response.statusCode < 300 || response.statusCode >= 400) return { url, response };
    const target = new URL(String(response.headers.location), `${PUBLIC_URL}${url}`).pathname;
    return { url: target, response: await get(target) };
  }

  // Without the slash its files are named from the root, with it relative to the page: both must load.
  it.each(['/api/docs', '/api/docs/'])(
    '%s is an HTML page whose scripts are all files of our origin, under our CSP unchanged',
    async (address) => {
      const { url, response } = await docsPage(address);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-security-policy']).toBe(SECURITY_HEADERS['content-security-policy']);
      expect(response.body).toContain('swagger-ui');

      const scripts = [...response.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      expect(scripts.length).toBeGreaterThanOrEqual(3);
      for (const [, attributes, inline] of scripts) {
        expect(inline?.trim(), 'inline script').toBe('');
        const src = /\bsrc="([^"]+)"/.exec(attributes ?? '')?.[1];
        expect(src, 'script without src').toBeDefined();
        expect(new URL(src!, `${PUBLIC_URL}${url}`).origin).toBe(PUBLIC_URL);
      }
      expect(response.body).not.toMatch(/\son[a-z]+=/i);

      const assets = [...response.body.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/gi)].map(
        ([, ref]) => new URL(ref!, `${PUBLIC_URL}${url}`),
      );
      expect(assets.some((asset) => asset.pathname.endsWith('.css'))).toBe(true);
      for (const asset of assets) {
        expect(asset.origin).toBe(PUBLIC_URL);
        const file = await get(asset.pathname);
        expect(file.statusCode, asset.pathname).toBe(200);
        expect(file.headers['content-security-policy']).toBe(SECURITY_HEADERS['content-security-policy']);
        if (asset.pathname.endsWith('.js')) expect(file.headers['content-type']).toMatch(/javascript/);
        if (asset.pathname.endsWith('.css')) expect(file.headers['content-type']).toMatch(/^text\/css/);
      }
    },
  );

  it('loads the document from our origin', async () => {
    const initializer = await get('/api/docs/static/swagger-initializer.js');
    expect(initializer.body).toContain("resolveUrl('./json')");
    // No badge from validator.swagger.io.
    expect(initializer.body).toContain('validatorUrl: null');
    const copy = await get('/api/docs/json');
    expect(copy.statusCode).toBe(200);
    expect(copy.json()).toEqual((await get('/api/openapi.json')).json());
  });

  it('sends Swagger UI compressed when asked, byte for byte the package file', async () => {
    const bundle = await get('/api/docs/static/swagger-ui-bundle.js', { 'accept-encoding': 'br, gzip' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-encoding']).toBe('br');
    const original = fs.readFileSync(path.join(import.meta.dirname, '../../node_modules/@fastify/swagger-ui/static/swagger-ui-bundle.js'));
    expect(zlib.brotliDecompressSync(bundle.rawPayload).equals(original)).toBe(true);
  });

  it('leaves unknown paths under /api/docs to the API not-found answer, not to the pages', async () => {
    const missing = await get('/api/docs/static/missing.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found' });
    // A page is still a page.
    const page = await get('/login');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('keeps GET /api/config as it was with analytics configured', async () => {
    const runtime = testConfig({ POSTHOG_KEY: 'phc_test' }).runtime;
    expect(runtime.analytics).not.toBeNull();
    expect((await get('/api/config')).body).toBe(JSON.stringify(runtime));
  });
});
