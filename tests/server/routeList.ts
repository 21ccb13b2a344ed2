/**
 * Every route the apps of a test file register, as Fastify adds them: the router's own list, not
 * one written by hand. A test file opts in with
 *
 *   vi.mock('fastify', async () => (await import('./routeList')).fastifyWithRouteList());
 *
 * and reads `registeredRoutes` once its apps are built.
 */
import type * as FastifyModule from 'fastify';
import type { FastifyInstance } from 'fastify';
import { vi } from 'vitest';
import { isAdminRoute } from '../../server/routes/access';

export const registeredRoutes: { method: string; url: string }[] = [];

/** The fastify module whose factory adds an onRoute hook before anything else is registered. */
export async function fastifyWithRouteList(): Promise<typeof FastifyModule> {
  const actual = await vi.importActual<typeof FastifyModule>('fastify');
  const create = actual.default as unknown as (...args: unknown[]) => FastifyInstance;
  const withRouteList = (...args: unknown[]) => {
    const app = create(...args);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registeredRoutes.push({ method: String(method), url: route.url });
    });
    return app;
  };
  // Keeps what hangs off the factory (Fastify.LogController…).
  return { ...actual, default: Object.assign(withRouteList, create) } as typeof FastifyModule;
}

export type RouteMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every admin route of the apps built so far, once (HEAD goes with GET). */
export function adminRoutes(): { method: RouteMethod; url: string }[] {
  const seen = new Map(
    registeredRoutes
      .filter((r) => isAdminRoute(r.url) && r.method !== 'HEAD')
      .map((r) => [`${r.method} ${r.url}`, r as { method: RouteMethod; url: string }]),
  );
  return [...seen.values()];
}
