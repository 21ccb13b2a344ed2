import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config';
import type { Db } from './db';
import { ERROR_CODES } from '../contract/errors';
import { AppError, RateLimitedError } from './errors';
import { OneLinePerRequest } from './logging';
import { auth } from './plugins/auth';
import { compression } from './plugins/compression';
import { createMetrics, metrics as metricsPlugin, type AppMetrics } from './plugins/metrics';
import { openapi } from './plugins/openapi';
import { registerPages, type RenderPage } from './plugins/pages';
import { readiness } from './plugins/readiness';
import { registerStaticAssets } from './plugins/staticAssets';
import { requestValidatorCompiler, useBoundedJsonBodies } from './requestInput';
import { serializerCompiler } from './responseSerializer';
import { routes } from './routes';
import { clearSessionCookie, dependsOnCaller, sessionUser } from './http/sessionCookie';
import type { RouteContext } from './http/types';
import { addSecurityHeaders, checkOrigin, noStoreWhenPersonal, securityHeaders } from './security';
import { createServices } from './services';
import type { Mailer } from './services/mailer';
import type { ScryptCost } from './services/passwords';
import { toCurrentUser } from './services/users';
import type { RateLimiter } from './services/rateLimiter';

export interface AppDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  scryptCost?: ScryptCost;
  /** Folder of the built browser app (dist/client); omitted in API-only tests. */
  staticDir?: string;
  /** The server build of the pre-rendered pages (dist/ssr); without it they are served as the app's shell. */
  renderPage?: RenderPage;
  logger?: FastifyServerOptions['logger'];
  /** The app's metrics; main.ts makes them first, for the database's query timings. */
  metrics?: AppMetrics;
}

/** How often unusable sessions and reset tokens are deleted. */
export const PURGE_INTERVAL_MS = 60 * 60_000;
export const HOLD_SWEEP_INTERVAL_MS = 60_000;

/** Largest request body accepted; the API takes small JSON documents only. */
export const BODY_LIMIT_BYTES = 64 * 1024;

const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_BAD_URL: [400, 'bad_request', 'The request URL is not valid'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'uri_too_long', 'The request URL is too long'],
  FST_ERR_ASYNC_CONSTRAINT: [500, 'internal', 'Something went wrong. Please try again.'],
};

function answerFrameworkError(headers: Record<string, string>) {
  return (err: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const [status, code, message] = FRAMEWORK_ERRORS[err.code] ?? [400, 'bad_request', 'The request is not valid'];
    reply.headers(headers).header('cache-control', 'no-store').code(status).send({ error: code, message });
  };
}

type ValidationIssue = { instancePath?: string; keyword?: string; message?: string };

/** One readable sentence out of zod's issues: ours carry their own messages. */
function validationMessage(issues: ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return 'The request is not valid';
  if ((first.instancePath ?? '/') === '/' && first.keyword === 'invalid_type') {
    return 'The request body must be a JSON object';
  }
  // One sentence per problem: several empty fields often share one (§5 "Username and email are required").
  return [...new Set(issues.map((i) => i.message).filter(Boolean))].join('; ');
}

/**
 * Fastify's trustProxy for our setting. Fastify ignores a bare hop count (it fails closed), so
 * the count becomes a function: the nearest `hops` addresses are our proxies, whoever they are.
 */
function fastifyTrustProxy(trustProxy: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  return (_address, hop) => hop < trustProxy;
}

/**
 * Bounds on a client's connection (config.timeouts): 408 and closed when its headers or its whole
 * request take too long, closed when idle between requests. Node checks the first two only every
 * `connectionsCheckingInterval` (30 s by default): here often enough to cut close to the bound.
 */
function connectionLimits({ requestMs, headersMs, keepAliveMs }: Config['timeouts']) {
  return {
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    http: {
      requestTimeout: requestMs,
      headersTimeout: headersMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(headersMs / 4))),
    },
  };
}

export async function buildApp(deps: AppDeps) {
  const { config } = deps;
  const secure = config.publicUrl.startsWith('https:');
  const headers = securityHeaders(config.publicUrl);
  const app = Fastify({
    logger: deps.logger ?? false,
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT_BYTES,
    ...connectionLimits(config.timeouts),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Errors found while routing (e.g. `GET /%`) skip hooks and the error handler: answer them here.
    frameworkErrors: answerFrameworkError(headers),
    // While draining (plugins/readiness.ts) a request on a still-open connection is served, with
    // Connection: close, instead of Fastify's bare 503.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(requestValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // A cross-site HTML form can send text/plain without a preflight; we accept JSON only.
  app.removeContentTypeParser('text/plain');
  useBoundedJsonBodies(app);

  const metrics = deps.metrics ?? createMetrics();
  const services = createServices({
    config,
    db: deps.db,
    mailer: deps.mailer,
    rateLimiter: deps.rateLimiter,
    scryptCost: deps.scryptCost,
    onMailError: (err) => app.log.error({ err }, 'mail delivery failed'),
    onError: (err, step) => app.log.warn({ err }, `${step} failed`),
    metrics,
  });

  await app.register(fastifyCookie);
  // The guards every route module names: app.requireUser, app.requireAdmin and request.user.
  await app.register(auth, { services, secure });
  // Before any route: it attaches itself to each route as the route is added.
  await app.register(compression);
  await app.register(metricsPlugin, { metrics, allow: config.metrics.allow, token: config.metrics.token, trustProxy: config.trustProxy });
  app.addHook('onRequest', addSecurityHeaders(headers));
  app.addHook('onSend', noStoreWhenPersonal(dependsOnCaller));
  app.addHook('onRequest', checkOrigin(config.publicUrl, config.env === 'production'));
  // Before the route modules: it describes each route as the route is added (GET /api/openapi.json, /api/docs).
  await app.register(openapi, { publicUrl: config.publicUrl });

  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof RateLimitedError) {
      reply.header('retry-after', Math.ceil(err.retryAfterMs / 1000));
    }
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.error({ err }, err.message);
      return reply.code(err.statusCode).send({ error: err.code, message: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.code(400).send({ error: 'invalid_request', message: validationMessage(err.validation) });
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      const known: Record<string, [string, string]> = {
        FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'The request body is not valid JSON'],
        FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body is too large'],
        FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the request body as application/json'],
      };
      const [code, message] = known[err.code] ?? ['bad_request', err.message];
      return reply.code(status).send({ error: code, message });
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: 'internal', message: 'Something went wrong. Please try again.' });
  });

  const ctx: RouteContext = { config, services };
  await app.register(readiness, { databaseReachable: services.databaseReachable, rateLimiter: deps.rateLimiter });
  // Every route module, each route closed to strangers unless it declares itself public (routes/access.ts).
  await app.register(async (api) => routes(api.withTypeProvider<ZodTypeProvider>(), ctx));

  const hasApp = deps.staticDir !== undefined && fs.existsSync(path.join(deps.staticDir, 'index.html'));
  const servePage =
    hasApp && deps.staticDir
      ? await registerPages(app, {
          clientDir: deps.staticDir,
          renderPage: deps.renderPage,
          runtimeConfig: config.runtime,
          offeredBuilds: services.builds.offered,
          consoleHome: services.consoleHome.home,
          currentUser: async (request) => {
            const user = await sessionUser(request, services);
            return user ? toCurrentUser(user) : null;
          },
          clearSessionCookie: (reply) => clearSessionCookie(reply, secure),
        })
      : undefined;
  if (hasApp && deps.staticDir) await registerStaticAssets(app, deps.staticDir);

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api/') || url === '/api' || !servePage || request.method !== 'GET') {
      return reply.code(404).send({ error: ERROR_CODES.notFound, message: `No such endpoint: ${request.method} ${url}` });
    }
    // Every other GET is a screen of the single-page app.
    return servePage(request, reply);
  });

  // Housekeeping: sessions, links and codes that can no longer be used are dropped hourly, and raw
  // uses older than USAGE_RETENTION_DAYS (their daily roll-ups stay); account e-mails Stripe did not
  // take when they changed (it was down) are sent again, and automatic top-ups left half-bought.
  let purge: NodeJS.Timeout | undefined;
  let holdSweep: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    purge = setInterval(() => {
      for (const [name, purgeExpired] of [
        ['session', services.sessions.purgeExpired],
        ['reset token', services.passwordReset.purgeExpired],
        ['sign-in flow', services.epicSignIn.purgeExpired],
        ['email verification', services.emailVerification.purgeExpired],
        ['e-mail change link', services.emailChange.purgeExpired],
        ['hand-off code', services.pluginHandOff.purgeExpired],
        ['passkey challenge', services.passkeys.purgeExpired],
        ['Epic link', services.epicLinking.purgeExpired],
        ['second-factor sign-in', services.secondFactor.purgeExpired],
        ['usage event', () => services.metering.prune(config.usage.retentionDays)],
      ] as const) {
        purgeExpired().catch((err: unknown) => app.log.error({ err }, `${name} purge failed`));
      }
      services.billing.customerEmails
        .sendOutdated()
        .catch((err: unknown) => app.log.error({ err }, 'sending account e-mails to Stripe failed'));
      services.topUps.retryPending().catch((err: unknown) => app.log.error({ err }, 'retrying automatic top-ups failed'));
      services.orgTopUps.retryPending().catch((err: unknown) => app.log.error({ err }, "retrying studios' automatic top-ups failed"));
    }, PURGE_INTERVAL_MS);
    purge.unref();
    // Holds not settled in USAGE_HOLD_MINUTES are given back within a minute of their expiry.
    holdSweep = setInterval(() => {
      services.metering.releaseExpired().catch((err: unknown) => app.log.error({ err }, 'releasing expired holds failed'));
      // Release e-mails go out within a minute, a batch at a time, from whichever instance claims them.
      services.releaseMails.sendDue().catch((err: unknown) => app.log.error({ err }, 'sending release e-mails failed'));
    }, HOLD_SWEEP_INTERVAL_MS);
    holdSweep.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(purge);
    clearInterval(holdSweep);
    await services.passwordReset.settle();
    await services.epicLinking.settle();
    await services.billing.customerEmails.settle();
    await services.topUps.settle();
    await services.orgTopUps.settle();
    await services.releaseMails.settle();
    await deps.rateLimiter.close();
  });

  return app;
}

export type SageApp = Awaited<ReturnType<typeof buildApp>>;
