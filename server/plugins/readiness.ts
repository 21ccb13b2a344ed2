/**
 * `GET /readyz` and the drain on shutdown. `/healthz` (routes/healthz.ts) says the process lives;
 * `/readyz` says whether a load balancer should send it traffic: the database answers, Redis
 * answers when the rate limiter uses it, and the instance is not shutting down.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../http/endpointAccess';
import type { RateLimiter } from '../services/rateLimiter';

/** Longest a check may take: a load balancer's probe must get an answer, not a hung request. */
export const READINESS_CHECK_TIMEOUT_MS = 1000;

const readyzResponse = {
  200: z.object({ status: z.literal('ready') }),
  503: z.object({
    status: z.enum(['unavailable', 'draining']),
    failed: z.array(z.enum(['database', 'redis'])).optional(),
  }),
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by `drain`: /readyz answers 503 draining from then on. */
    draining: boolean;
  }
}

export interface ReadinessOptions {
  databaseReachable: () => Promise<boolean>;
  rateLimiter: RateLimiter;
  timeoutMs?: number;
}

/** The check's answer, or false once it fails, throws or takes longer than `ms`. */
function within(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settle = (ok: boolean) => {
      clearTimeout(timer);
      resolve(ok);
    };
    check().then(settle, () => settle(false));
  });
}

async function readinessPlugin(fastify: FastifyInstance, opts: ReadinessOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const timeoutMs = opts.timeoutMs ?? READINESS_CHECK_TIMEOUT_MS;
  const { ping } = opts.rateLimiter;
  const checks: [name: 'database' | 'redis', check: () => Promise<boolean>][] = [
    ['database', opts.databaseReachable],
    ...(ping ? [['redis', ping.bind(opts.rateLimiter)] as ['redis', () => Promise<boolean>]] : []),
  ];
  app.decorate('draining', false);

  const forLoadBalancers = access.public('load balancers: whether this instance takes traffic');
  app.get('/readyz', { schema: { response: readyzResponse }, config: forLoadBalancers }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (app.draining) return reply.code(503).send({ status: 'draining' as const });
    const results = await Promise.all(checks.map(([, check]) => within(check, timeoutMs)));
    const failed = checks.filter((_, i) => !results[i]).map(([name]) => name);
    if (failed.length > 0) return reply.code(503).send({ status: 'unavailable' as const, failed });
    return { status: 'ready' as const };
  });
}

export const readiness = fp(readinessPlugin, { name: 'sage-readiness' });

export interface DrainOptions {
  /** When connections still open are cut (in-flight requests included). */
  forceCloseAfterMs: number;
  /** How often connections that have become idle are closed meanwhile. */
  reapIntervalMs?: number;
}

/**
 * Takes the instance out of service and closes it: /readyz turns 503 draining at once, the
 * listening socket closes (new connections are refused), in-flight requests finish, and whatever
 * is still open after `forceCloseAfterMs` is cut. Resolves once the app is closed, with whether
 * connections had to be cut.
 *
 * A request that arrives during the drain on a connection that was busy is still served (Fastify's
 * return503OnClosing is off), with `Connection: close` so the client moves to another instance.
 * A connection that turns idle is closed within `reapIntervalMs`: Node closes only the ones idle
 * when the listener closes, and the rest would otherwise hold the drain for their keep-alive time.
 */
export async function drain(app: FastifyInstance, opts: DrainOptions): Promise<{ forced: boolean }> {
  app.draining = true;
  let forced = false;
  const reaper = setInterval(() => app.server.closeIdleConnections(), opts.reapIntervalMs ?? 250);
  const deadline = setTimeout(() => {
    forced = true;
    app.server.closeAllConnections();
  }, opts.forceCloseAfterMs);
  try {
    await app.close();
  } finally {
    clearInterval(reaper);
    clearTimeout(deadline);
  }
  return { forced };
}
