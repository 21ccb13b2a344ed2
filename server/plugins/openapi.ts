/**
 * The API's description (issue 13): `GET /api/openapi.json` answers an OpenAPI 3.1 document made
 * from the zod schemas the routes validate and serialize with, and `/api/docs` shows it with
 * Swagger UI, served from our own origin under the product's Content-Security-Policy.
 *
 * Register it before the route modules: @fastify/swagger collects routes as they are added.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../contract/errors';
import { projectRoot } from '../projectRoot';
import { compressBodyAsync, sendCompressed, type CompressedBody } from './compression';
import { SECURITY_SCHEMES } from '../http/apiDoc';
import { access } from '../http/endpointAccess';
import { sessionCookieName } from '../http/sessionCookie';
import { documentRoute } from './openapiOperation';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';
export const API_TITLE = 'Sage Dashboard API';

export interface OpenApiOptions {
  /** PUBLIC_URL: the document's server. */
  publicUrl: string;
}

const DESCRIPTION = [
  "The HTTP API of the Sage Dashboard: the browser app's, the Unreal plugin's and the AI service's.",
  'Bodies are JSON (at most 64 KiB). Every failure answers `{ "error": code, "message": text }`:',
  '`error` is for programs, `message` for people.',
  'State-changing requests from a browser must come from our own origin (Origin header).',
].join(' ');

function packageVersion(): string {
  const file = path.join(projectRoot(import.meta.url), 'package.json');
  return z.object({ version: z.string() }).parse(JSON.parse(fs.readFileSync(file, 'utf8'))).version;
}

/**
 * Only `/api/*` is the API. Hidden, with the reason:
 * - the pages and the built app's files (`/`, `/dashboard`, `/assets/*`…): HTML and scripts for
 *   browsers, not an interface;
 * - `/healthz`, `/readyz`, `/metrics`: for load balancers and Prometheus, described in docs/operations.md and
 *   docs/deploy.md, not for API clients;
 * - `/ingest/*`: a relay of PostHog's own protocol for posthog-js, not ours to describe;
 * - the document itself and Swagger UI's page, files and copies of the document (`/api/docs/*`).
 */
function isDocumented(route: RouteOptions): boolean {
  const url = route.url;
  if (!url.startsWith('/api/') || url === OPENAPI_PATH) return false;
  if (url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`)) return false;
  return (route.schema as { hide?: boolean } | undefined)?.hide !== true;
}

/** fastify-type-provider-zod turns the zod schemas into JSON Schema; the route's access declaration adds the rest. */
const transform: SwaggerTransform = (input) => {
  const { route, url } = input;
  if (!isDocumented(route)) return { schema: { hide: true } as FastifySchema, url };
  const converted = jsonSchemaTransform(input);
  const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
  return { schema: documentRoute(method, route.config?.access, converted.schema ?? {}), url: converted.url };
};

/** The security schemes, naming the session cookie this deployment uses (`__Host-…` on https). */
function securitySchemes(publicUrl: string) {
  const name = sessionCookieName(publicUrl.startsWith('https:'));
  return { ...SECURITY_SCHEMES, sessionCookie: { ...SECURITY_SCHEMES.sessionCookie, name } };
}

/** The JSON Schema of the shared error answer, as a component every error response refers to. */
function errorComponent(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(apiErrorSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return { ...schema, description: 'Every 4xx/5xx answer of the API (contract/errors.ts).' };
}

/** Swagger UI's files, which @fastify/swagger-ui serves from its package. */
const SWAGGER_UI_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')), 'static');
const STATIC_TYPES: Record<string, string> = { '.js': 'application/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/**
 * Swagger UI's scripts and styles (1.5 MB of JavaScript) would otherwise be compressed for every
 * request, about 50 ms of CPU each for anyone who asks: each is compressed once, at the first
 * request, off the event loop, and kept. Other files go to the plugin's own handler.
 */
function serveKeptStaticFiles(app: FastifyInstance) {
  for (const name of fs.readdirSync(SWAGGER_UI_DIR)) {
    const type = STATIC_TYPES[path.extname(name)];
    if (!type) continue;
    let body: Promise<CompressedBody> | undefined;
    // An exact route: find-my-way prefers it to the plugin's `static/*`.
    app.get(`${DOCS_PREFIX}/static/${name}`, { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
      if (!body) {
        body = fs.promises.readFile(path.join(SWAGGER_UI_DIR, name)).then(compressBodyAsync);
        body.catch(() => (body = undefined));
      }
      reply.type(type).header('cache-control', 'public, max-age=3600');
      return sendCompressed(request, reply, await body);
    });
  }
}

export const openapi = fp(
  async (app: FastifyInstance, { publicUrl }: OpenApiOptions) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: API_TITLE, version: packageVersion(), description: DESCRIPTION },
        servers: [{ url: publicUrl }],
        components: { securitySchemes: securitySchemes(publicUrl), schemas: { ApiError: errorComponent() } },
      },
      transform,
      transformObject: jsonSchemaTransformObject,
    });

    await app.register(async (docs) => {
      // Every route of this scope is for everyone; the plugin's own routes take no options of ours,
      // so each is given the declaration as it is added.
      const forEveryone = access.public('the API document, shown by Swagger UI: its page, files and copies of the document');
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, ...forEveryone };
      });
      // Its index page loads only files (no inline script), so our CSP (server/security.ts, set on
      // every response) holds as it is: `staticCSP: false` keeps the plugin from replacing it.
      await docs.register(fastifySwaggerUi, {
        routePrefix: DOCS_PREFIX,
        staticCSP: false,
        theme: { title: API_TITLE },
        uiConfig: { deepLinking: true },
      });
      serveKeptStaticFiles(docs);
    });

    app.get(OPENAPI_PATH, { schema: { hide: true }, config: access.public('the API document') }, async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return app.swagger();
    });
  },
  { name: 'sage-openapi', fastify: '5.x' },
);
