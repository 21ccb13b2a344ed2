/**
 * The route tree: every route module, registered in its own scope under the deny hook of
 * routes/access.ts (a route needs a signed-in user unless listed public there).
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, RouteContext } from '../http/types';
import { denyUnlessPublic } from './access';
import { adminRoutes } from './admin';
import { analyticsLocationRoutes, ingestProxyRoutes } from './analytics';
import { authRoutes } from './auth';
import { billingRoutes } from './billing';
import { emailRoutes } from './email';
import { epicRoutes } from './epic';
import { ingestRoutes } from './ingest';
import { licenseRoutes } from './licenses';
import { publicRoutes } from './public';

type RouteModule = (app: App, ctx: RouteContext) => Promise<void>;

const MODULES: RouteModule[] = [
  publicRoutes,
  authRoutes,
  epicRoutes,
  emailRoutes,
  billingRoutes,
  licenseRoutes,
  adminRoutes,
  ingestRoutes,
  analyticsLocationRoutes,
  // Its own scope: every body kept raw (posthog-js sends gzip/base64 as text/plain or forms).
  ingestProxyRoutes,
];

export async function routes(app: App, ctx: RouteContext): Promise<void> {
  denyUnlessPublic(app);
  for (const module of MODULES) await app.register(async (scope) => module(scope.withTypeProvider<ZodTypeProvider>(), ctx));
}
