/**
 * Every route the apps of a test file register, as Fastify adds them: the router's own list, not
 * one written by hand. A test file opts in with
 *
 *   vi.mock('fastify', async () => (await import('./routeList')).fastifyWithRouteList());
 *
 * and reads `registeredRoutes` once its apps are built, with what each route declares about who
 * may call it (server/http/endpointAccess.ts).
 */
import type * as FastifyModule from 'fastify';
import type { FastifyInstance } from 'fastify';
import { vi } from 'vitest';
import type { StaffAction } from '../../contract/staffRoles';
import type { EndpointAccess } from '../../server/http/endpointAccess';
import { isAdminRoute } from '../../server/routes/access';

export interface RegisteredRoute {
  method: string;
  url: string;
  /** The route's declaration, read when asked: a hook added later (the docs' scope) may still give it one. */
  access(): EndpointAccess | undefined;
}

export const registeredRoutes: RegisteredRoute[] = [];

/** The fastify module whose factory adds an onRoute hook before anything else is registered. */
export async function fastifyWithRouteList(): Promise<typeof FastifyModule> {
  const actual = await vi.importActual<typeof FastifyModule>('fastify');
  const create = actual.default as unknown as (...args: unknown[]) => FastifyInstance;
  const withRouteList = (...args: unknown[]) => {
    const app = create(...args);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        registeredRoutes.push({ method: String(method), url: route.url, access: () => route.config?.access });
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

const declared = (method: string, url: string) => registeredRoutes.find((r) => r.method === method && r.url === url)?.access();

/** Why a stranger may call `method url`, as the route declares it, or undefined when it is closed. */
export function publicReason(method: string, url: string): string | undefined {
  const access = declared(method, url);
  return access?.who === 'public' ? access.reason : undefined;
}

/** Every route declared public, as `METHOD url`, with its reason. */
export function publicRoutes(): Record<string, string> {
  return Object.fromEntries(
    registeredRoutes.flatMap((r) => {
      const access = r.access();
      return access?.who === 'public' ? [[`${r.method} ${r.url}`, access.reason]] : [];
    }),
  );
}

/** The staff action an admin route declares, or null when it declares none (the `admin` role only). */
export function staffActionOf(method: string, url: string): StaffAction | null {
  const access = declared(method, url);
  return access?.who === 'staff' ? access.action : null;
}

/** Every admin route that declares an action, as `METHOD url` (HEAD goes with GET). */
export function adminRouteActions(): Record<string, StaffAction> {
  return Object.fromEntries(
    adminRoutes().flatMap(({ method, url }) => {
      const action = staffActionOf(method, url);
      return action === null ? [] : [[`${method} ${url}`, action]];
    }),
  );
}
