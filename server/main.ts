import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { buildApp } from './app';
import { createMetrics } from './plugins/metrics';
import type { RenderPage } from './plugins/pages';
import { drain } from './plugins/readiness';
import { loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db';
import { logDestination, loggerOptions } from './logging';
import { projectRoot } from './projectRoot';
import { startFailureMessage } from './startFailure';
import { mailerFromConfig } from './services/mailer';
import { createMemoryRateLimiter, createRedisRateLimiter } from './services/rateLimiter';

const root = projectRoot(import.meta.url);
/** The ports the product listens on, by the variable that sets each: a port in use names its variable. */
const portVariables: Record<string, number> = {};

/** On SIGTERM the process is gone by then, whatever is still open (a supervisor's usual grace). */
const SHUTDOWN_DEADLINE_MS = 10_000;
/** Connections still open then are cut, leaving time for the database to close before the deadline. */
const FORCE_CLOSE_AFTER_MS = 8_000;

/** The server build of the pre-rendered pages (`npm run build` writes it beside the browser app). */
async function loadPageRenderer(): Promise<RenderPage | undefined> {
  const entry = path.join(root, 'dist', 'ssr', 'entry-server.js');
  if (!fs.existsSync(entry)) return undefined;
  const module = (await import(pathToFileURL(entry).href)) as { renderPage: RenderPage };
  return module.renderPage;
}

/** This process's HTTP server as the stand-ins on this machine reach it (any interface: loopback). */
function ownUrl({ address, family, port }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::') return `http://127.0.0.1:${port}`;
  return family === 'IPv6' ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}

/** Starts the product: configuration, database and migrations, then the HTTP server. */
async function main() {
  let config = loadConfig();
  portVariables.PORT = config.port;
  if (config.devIdentityProvider) portVariables.DEV_IDP_PORT = config.devIdentityProvider.port;
  // Development on localhost without Epic: a local OpenID provider stands in (config.ts decides).
  // Loaded only then, so a production server never loads oidc-provider at all.
  const devProvider = config.devIdentityProvider
    ? await (await import('./devIdentityProvider')).startDevIdentityProvider(config.devIdentityProvider)
    : undefined;
  if (devProvider) config = { ...config, epic: devProvider.settings };
  // Development on localhost without Stripe keys: a local Stripe stand-in runs billing (config.ts
  // decides), loaded only then, as the identity provider is.
  if (config.devStripe) portVariables.DEV_STRIPE_PORT = config.devStripe.port;
  const devStripe = config.devStripe ? await (await import('./devStripe/start')).startDevStripe(config.devStripe) : undefined;
  if (devStripe) config = { ...config, stripe: devStripe.settings };
  const metrics = createMetrics();
  const db = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, onQuery: metrics.dbQuery });
  await migrateToLatest(db);

  const app = await buildApp({
    config,
    db,
    // The mailer logs through the app's logger; no mail is sent before the app exists.
    mailer: mailerFromConfig(config, { info: (obj, msg) => app.log.info(obj, msg) }),
    rateLimiter: config.redisUrl ? createRedisRateLimiter(new Redis(config.redisUrl)) : createMemoryRateLimiter(),
    staticDir: path.join(root, 'dist', 'client'),
    renderPage: await loadPageRenderer(),
    logger: loggerOptions(config.logLevel, await logDestination(config.env)),
    metrics,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining');
    setTimeout(() => {
      app.log.error('shutdown deadline passed: exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    const { forced } = await drain(app, { forceCloseAfterMs: FORCE_CLOSE_AFTER_MS });
    if (forced) app.log.warn('requests still open at the drain deadline were cut');
    await devProvider?.close();
    await devStripe?.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Sage Dashboard on ${config.publicUrl} (database: ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`);
  if (devProvider) {
    app.log.warn(`Epic is not configured: Sign in with Epic uses the development identity provider at ${devProvider.issuer}`);
  }
  if (devStripe) {
    app.log.info(`Stripe is not configured: billing runs against the development Stripe stand-in at ${devStripe.url}`);
    await devStripe.connect(ownUrl(app.server.address() as AddressInfo), app.log);
  }
}

main().catch((err: unknown) => {
  console.error(startFailureMessage(err, portVariables));
  process.exit(1);
});
