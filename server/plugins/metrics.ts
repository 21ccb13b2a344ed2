/**
 * `GET /metrics` in Prometheus's text format: request durations by route pattern, requests in
 * flight, database query durations, the product's own events (server/services/metrics.ts) and the
 * process's figures (event-loop lag, heap, RSS). Readable only from METRICS_ALLOW's addresses or
 * with METRICS_TOKEN.
 *
 * Each app has its own registry, so tests that build many apps never see each other's counts.
 * Labels are fixed sets or route patterns, never raw URLs, addresses or SQL: every series is bounded.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TrustProxy } from '../config';
import type { QueryObserver } from '../db';
import { access } from '../http/endpointAccess';
import { bearerToken } from '../http/sessionCookie';
import type { ServiceMetrics } from '../services/metrics';
import { hashToken, safeEqual } from '../services/tokens';

const PREFIX = 'sage_';

let processRegistry: Registry | undefined;

/**
 * The process's own figures, one set per process: prom-client starts an event-loop monitor and a
 * GC observer for every registry it collects defaults into and never stops them, and a test run
 * builds hundreds of apps. Every app's /metrics includes them.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: PREFIX });
  }
  return processRegistry;
}

/** An app's instruments, and the service-facing counting (ServiceMetrics) over them. */
export interface AppMetrics extends ServiceMetrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'route' | 'method' | 'status_class'>;
  readonly httpInFlight: Gauge;
  /** For openDatabase's `onQuery`: main.ts opens the database before the app exists. */
  readonly dbQuery: QueryObserver;
  /** This app's metrics and the process's, in the text format. */
  text(): Promise<string>;
}

export function createMetrics(): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  const httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from receiving a request to sending its answer, by route pattern (unmatched for unknown paths), method and status class.',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const httpInFlight = new Gauge({
    name: `${PREFIX}http_requests_in_flight`,
    help: 'Requests received and not yet answered.',
    registers,
  });
  const dbDuration = new Histogram({
    name: `${PREFIX}db_query_duration_seconds`,
    help: 'Database query durations, by database (sqlite or postgres) and outcome (ok or error).',
    labelNames: ['database', 'outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const signIns = new Counter({
    name: `${PREFIX}sign_ins_total`,
    help: 'Finished sign-ins, by method (password, epic or passkey) and outcome (success or failure).',
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const rateLimited = new Counter({
    name: `${PREFIX}rate_limit_refusals_total`,
    help: 'Requests refused by a rate limit, by limit (login, register, forgot, …).',
    labelNames: ['limit'] as const,
    registers,
  });
  const mails = new Counter({
    name: `${PREFIX}mails_total`,
    help: 'Mails handed to SMTP (or the outbox), by outcome (sent or failed).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const webhooks = new Counter({
    name: `${PREFIX}stripe_webhook_events_total`,
    help: 'Stripe webhook deliveries, by event type (unverified when the signature fails or the body is no event) and outcome.',
    labelNames: ['type', 'outcome'] as const,
    registers,
  });
  const handOffs = new Counter({
    name: `${PREFIX}plugin_hand_offs_total`,
    help: 'Plugin hand-off codes issued or refused, and exchanges by outcome.',
    labelNames: ['outcome'] as const,
    registers,
  });
  // Created once: the label lookup is what a query pays for its observation.
  const dbOk = { sqlite: dbDuration.labels('sqlite', 'ok'), postgres: dbDuration.labels('postgres', 'ok') };
  const dbError = { sqlite: dbDuration.labels('sqlite', 'error'), postgres: dbDuration.labels('postgres', 'error') };
  return {
    registry,
    httpDuration,
    httpInFlight,
    dbQuery: (database, durationMs, ok) => (ok ? dbOk : dbError)[database].observe(durationMs / 1000),
    signIn: (method, outcome) => signIns.inc({ method, outcome }),
    rateLimited: (limit) => rateLimited.inc({ limit }),
    mail: (outcome) => mails.inc({ outcome }),
    webhook: (type, outcome) => webhooks.inc({ type, outcome }),
    handOff: (outcome) => handOffs.inc({ outcome }),
    async text() {
      return (await registry.metrics()) + (await processMetrics().metrics());
    },
  };
}

/** Address ranges proxy-addr (TRUST_PROXY) knows by name, spelled out. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Whether an address is in METRICS_ALLOW's list (IPs, CIDRs and range names, checked by config.ts). */
export function addressMatcher(entries: string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [address = '', prefix] = entry.split('/');
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    // An IPv4 client of a dual-stack listener shows as ::ffff:a.b.c.d.
    const plain = address.toLowerCase().startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
    if (isIPv4(plain)) return list.check(plain, 'ipv4');
    return isIPv6(plain) && list.check(plain, 'ipv6');
  };
}

export interface MetricsOptions {
  metrics: AppMetrics;
  allow: string[];
  token: string | undefined;
  trustProxy: TrustProxy;
}

const STATUS_CLASSES = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** The route's pattern (`/api/admin/users/:id`), never the URL asked for: bounded label values. */
function routeOf(request: FastifyRequest): string {
  return request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
}

async function metricsPlugin(app: FastifyInstance, opts: MetricsOptions) {
  const { metrics } = opts;
  const { httpDuration, httpInFlight } = metrics;

  // One gauge step each way and one observation per request, callback-style: no promise per request.
  app.addHook('onRequest', (_request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    httpInFlight.inc();
    done();
  });
  // A request whose client went away is never answered: it leaves the gauge here instead (and, with
  // no status, stays out of the histogram).
  app.addHook('onRequestAbort', (_request: FastifyRequest, done: HookHandlerDoneFunction) => {
    httpInFlight.dec();
    done();
  });
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (!request.raw.aborted) httpInFlight.dec();
    const statusClass = STATUS_CLASSES[Math.floor(reply.statusCode / 100)] ?? 'other';
    httpDuration.observe({ route: routeOf(request), method: request.method, status_class: statusClass }, reply.elapsedTime / 1000);
    done();
  });

  const allowed = addressMatcher(opts.allow);
  const tokenHash = opts.token ? hashToken(opts.token) : null;
  const mayRead = (request: FastifyRequest): boolean => {
    const token = bearerToken(request);
    // Compared as hashes: equal lengths for timingSafeEqual whatever was sent.
    if (tokenHash && token && safeEqual(hashToken(token), tokenHash)) return true;
    // Relayed by a proxy we were not told to trust (TRUST_PROXY): its own address, loopback when it
    // runs beside us, says nothing about the client, who may be anyone.
    if (opts.trustProxy === false && request.headers['x-forwarded-for'] !== undefined) return false;
    return allowed(request.ip);
  };

  app.get('/metrics', { config: access.public('Prometheus: its own address list and token') }, async (request, reply) => {
    // Refused with the answer of an unknown path (404, as the not-found handler gives it) rather
    // than 403: a scan learns nothing, not even that the endpoint exists.
    if (!mayRead(request)) return reply.callNotFound();
    reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
    return metrics.text();
  });
}

export const metrics = fp(metricsPlugin, { name: 'sage-metrics' });
