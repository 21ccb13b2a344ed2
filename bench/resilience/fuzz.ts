// Part 1 of the resilience suite: malformed requests to every endpoint through nginx, as a
// stranger, a signed-in user, an admin and the AI service. Criterion: no 5xx but a route's
// documented 503, no request left without an answer within 10 s, and every 4xx JSON answer under
// /api is `{ error, message }`. Besides the random cases, a deterministic pass sends each hostile
// value (hostileCases.ts: U+0000, lone surrogates, controls, long text, deep nesting) to each field
// of each operation once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { waitForExit } from '../../scripts/localProduct';
import { startProduct } from '../serverProcess';
import { count, httpsClient, pool, register, Hang, type Account, type Answer, type HttpsClient, type PartResult } from './common';
import { fuzzCase, type BigBody, type Endpoint, type FuzzCase, type Identity, type Schema } from './fuzzCases';
import { hostileCase, hostilePass } from './hostileCases';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TIMEOUT_MS = 10_000;
const CONCURRENCY = 16;

/** Pages and operational endpoints outside the API document: they must not fail either. */
const NOT_IN_DOCUMENT = [
  '/',
  '/download',
  '/login',
  '/dashboard',
  '/admin',
  '/healthz',
  '/readyz',
  '/metrics',
  '/ingest/e',
  '/assets/none.js',
  '/api/docs',
  '/api/openapi.json',
];

/** Signing out would end the session the other cases use: only strangers send these. */
const SIGN_OUT = new Set(['POST /api/logout', 'GET /api/logout']);

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  security?: Record<string, unknown>[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
}

/** Who gets furthest into an operation, by its documented security: a session (an admin's under /api/admin), the service token, or nobody. */
function reachOf(route: string, security: Record<string, unknown>[]): Identity {
  if (security.some((s) => 'sessionCookie' in s)) return route.startsWith('/api/admin/') ? 'admin' : 'user';
  if (security.some((s) => 'bearerToken' in s)) return 'service';
  return 'anonymous';
}

/** Every operation of the API document. */
function fromDocument(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Endpoint[] {
  const endpoints: Endpoint[] = [];
  for (const [route, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      endpoints.push({
        method: method.toUpperCase(),
        path: route,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        paramSchemas: Object.fromEntries((op.parameters ?? []).map((p) => [p.name, p.schema ?? { type: 'string' }])),
        requiredParams: (op.parameters ?? []).filter((p) => p.required).map((p) => p.name),
        reach: reachOf(route, op.security ?? []),
        ...(op.requestBody?.content?.['application/json']?.schema ? { body: op.requestBody.content['application/json'].schema } : {}),
        documented503: Object.keys(op.responses ?? {}).includes('503'),
      });
    }
  }
  return endpoints;
}

/**
 * Without the document: the routes as the modules in server/routes/ declare them (no schemas),
 * each path below the prefix its folder stands for (server/routes/index.ts).
 */
function fromRouteModules(): Endpoint[] {
  const dir = path.join(ROOT, 'server', 'routes');
  const endpoints = new Map<string, Endpoint>();
  for (const file of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
    const folder = path.dirname(file).split(path.sep).join('/');
    const prefix = folder === '.' ? '' : `/${folder}`;
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const match of text.matchAll(/\.(get|post|put|patch|delete)\(\s*'(\/[^']*)'/g)) {
      const method = (match[1] ?? '').toUpperCase();
      const full = `${prefix}${match[2] ?? ''}`;
      if (!full.startsWith('/api/')) continue;
      const route = full.replace(/:(\w+)/g, '{$1}');
      const pathParams = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
      endpoints.set(`${method} ${route}`, {
        method,
        path: route,
        pathParams,
        queryParams: [],
        ...(method === 'GET' || method === 'DELETE'
          ? {}
          : { body: { type: 'object', properties: { email: { type: 'string' }, id: { type: 'string' } } } }),
        documented503: route.startsWith('/api/stripe/'),
      });
    }
  }
  return [...endpoints.values()];
}

export async function listEndpoints(client: HttpsClient): Promise<{ endpoints: Endpoint[]; source: string }> {
  try {
    const res = await client.send({ method: 'GET', path: '/api/openapi.json' });
    if (res.status === 200) {
      const endpoints = fromDocument(JSON.parse(res.body.toString()) as { paths: Record<string, Record<string, OpenApiOperation>> });
      if (endpoints.length > 0) return { endpoints, source: 'GET /api/openapi.json' };
    }
  } catch {
    // Fall back below.
  }
  return { endpoints: fromRouteModules(), source: 'server/routes/ (no /api/openapi.json)' };
}

const pageEndpoints = (): Endpoint[] =>
  NOT_IN_DOCUMENT.map((p) => ({
    method: 'GET',
    path: p,
    pathParams: [],
    queryParams: ['page', 'q'],
    documented503: p === '/readyz' || p === '/healthz',
  }));

function bodyBytes(body: string | BigBody | undefined): Buffer | undefined {
  if (body === undefined) return undefined;
  if (typeof body !== 'string') {
    const filler = 'A'.repeat(body.bytes - 12);
    return Buffer.from(`{"email":"${filler}"}`);
  }
  // Binary bodies are written as latin1 strings; anything wider is text.
  return [...body].some((ch) => ch.charCodeAt(0) > 0xff) ? Buffer.from(body, 'utf8') : Buffer.from(body, 'latin1');
}

/** What is wrong with an answer, or null. */
function verdict(c: FuzzCase, endpoint: Endpoint, res: Answer): string | null {
  if (res.status >= 500) {
    if (res.status === 503 && endpoint.documented503) return null;
    return `${res.status}`;
  }
  const underApi = /^\/api(\/|\?|$)/.test(c.path);
  if (!underApi || res.status < 400 || c.method.toUpperCase() === 'HEAD') return null;
  const type = String(res.headers['content-type'] ?? '');
  const text = res.body.toString('utf8');
  if (type.includes('json')) {
    try {
      const body = JSON.parse(text) as { error?: unknown; message?: unknown };
      if (typeof body.error === 'string' && typeof body.message === 'string') return null;
      return `${res.status} JSON without {error, message}`;
    } catch {
      return `${res.status} unparseable JSON`;
    }
  }
  // nginx's own refusals (bad request line, URL or body too large) never reach an instance.
  if (text.includes('<center>nginx</center>')) return null;
  return `${res.status} ${type || 'no content type'} answer under /api`;
}

const show = (c: FuzzCase) => {
  const body =
    c.body === undefined
      ? ''
      : typeof c.body === 'string'
        ? ` body=${JSON.stringify(c.body.slice(0, 120))}${c.body.length > 120 ? `… (${count(c.body.length)} characters)` : ''}`
        : ` body=<${c.body.bytes} bytes>`;
  const headers = Object.entries(c.headers)
    .map(([k, v]) => `${k}: ${v.slice(0, 60)}`)
    .join('; ');
  const hostile = c.field ? ` ${c.field} = ${c.value}:` : '';
  return `[${c.kind}, ${c.identity}]${hostile} ${c.method} ${c.path.slice(0, 160)}${c.path.length > 160 ? '…' : ''} {${headers}}${body}`;
};

/** Failures grouped by what went wrong: a count and the first two of each kind. */
function examples(failures: { index: number; problem: string; c: FuzzCase }[]): string[] {
  const groups = new Map<string, { index: number; problem: string; c: FuzzCase }[]>();
  for (const f of failures) {
    const key = f.problem.split(':')[0] ?? f.problem;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups].flatMap(([key, list]) => [
    `${list.length} × ${key}`,
    ...list.slice(0, 2).map((f) => `  #${f.index} ${f.problem.replace(/\s+/g, ' ').slice(0, 300)}\n      ${show(f.c)}`),
  ]);
}

/** Hostile-value failures by operation and field: which value classes failed, with what answer. */
function byField(failures: { problem: string; c: FuzzCase }[]): string[] {
  const groups = new Map<string, { values: Set<string>; answers: Set<string>; n: number }>();
  for (const f of failures.filter((f) => f.c.field)) {
    const key = `${f.problem.split(':')[0]} ${f.c.endpoint} ${f.c.field} (as ${f.c.identity})`;
    const group = groups.get(key) ?? { values: new Set(), answers: new Set(), n: 0 };
    group.values.add(f.c.value ?? '');
    group.answers.add(f.problem.slice(f.problem.indexOf(':') + 1, 140).trim());
    group.n += 1;
    groups.set(key, group);
  }
  if (groups.size === 0) return [];
  return [
    `hostile values that failed, by operation and field (${groups.size}):`,
    ...[...groups].map(([key, g]) => `  ${key}: ${[...g.values].join('; ')} [${g.n}× ${[...g.answers].join(' | ')}]`),
  ];
}

/** The distinct errors in the instances' output (pino JSON lines at level error and above). */
function loggedErrors(log: string): string[] {
  const errors = new Map<string, number>();
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { type?: string; message?: string; code?: string } };
      if ((entry.level ?? 0) < 50) continue;
      const what = `${entry.msg ?? ''}${entry.err ? ` — ${entry.err.type ?? 'Error'}${entry.err.code ? ` ${entry.err.code}` : ''}: ${entry.err.message ?? ''}` : ''}`;
      const key = what.replace(/\s+/g, ' ').slice(0, 200);
      errors.set(key, (errors.get(key) ?? 0) + 1);
    } catch {
      // Not a log entry.
    }
  }
  if (errors.size === 0) return [];
  return ['errors the instances logged:', ...[...errors].map(([what, n]) => `  ${n}× ${what}`)];
}

export interface FuzzOptions {
  client: HttpsClient;
  seed: number;
  requests: number;
  /** `target`: an account of no use to anything else, whose id an admin's edits of a user carry (they reach the database only for a user that exists). */
  accounts: { user: Account; admin: Account; target?: Account };
  serviceToken: string;
  /** The part's name in the table (`fuzz`; `fuzz (SQLite)` for the single SQLite instance). */
  part?: string;
  /** nginx's access log (localCluster's format), to tell which 502s had no live instance behind them. */
  accessLog?: () => string[];
  /**
   * Straight to an instance, no proxy in front: an instance closes the connection on a body over its
   * limit, so the client may see the reset before the 413 (nginx, which buffers bodies, never does).
   */
  direct?: boolean;
  /** What each instance has written to its output so far, for the errors they logged. */
  serverLog?: () => string[];
}

export async function fuzz(opts: FuzzOptions): Promise<PartResult> {
  const part = opts.part ?? 'fuzz';
  const { endpoints, source } = await listEndpoints(opts.client);
  const all = [...endpoints, ...pageEndpoints()];
  const ids = { target: opts.accounts.target?.id };
  const cookies: Record<Identity, string | undefined> = {
    anonymous: undefined,
    user: opts.accounts.user.cookie,
    admin: opts.accounts.admin.cookie,
    service: undefined,
  };
  const anonymousIfSignOut = (e: Endpoint, identity: Identity): Identity =>
    SIGN_OUT.has(`${e.method} ${e.path}`) ? 'anonymous' : identity;
  const caseArb = fc
    .record({ endpoint: fc.nat(all.length - 1), identity: fc.constantFrom<Identity>('anonymous', 'user', 'admin', 'service') })
    .chain(({ endpoint, identity }) => {
      const e = all[endpoint] as Endpoint;
      const who = anonymousIfSignOut(e, identity);
      const malformed = fuzzCase(e, who, { serviceToken: opts.serviceToken });
      const hostile = hostileCase(e, who, ids);
      // One case in three carries a hostile value in an otherwise valid request.
      const either = hostile ? fc.oneof({ arbitrary: malformed, weight: 2 }, { arbitrary: hostile, weight: 1 }) : malformed;
      return either.map((c) => ({ c, e }));
    });
  // The deterministic pass goes first: rate-limited routes (sign-in, registration) answer 429 once
  // their budget per address is spent, and the pass's first values are its most telling ones.
  const byLabel = new Map(all.map((e) => [`${e.method} ${e.path}`, e]));
  const pass = hostilePass(all, ids).map((c) => {
    const e = byLabel.get(c.endpoint) as Endpoint;
    return { c: { ...c, identity: anonymousIfSignOut(e, c.identity) }, e };
  });
  console.log(
    `${part}: ${count(pass.length)} hostile values (one per value and field of each operation), then ${count(opts.requests)} random requests, over ${all.length} endpoints (${endpoints.length} from ${source}), seed ${opts.seed}`,
  );
  const cases = [...pass, ...fc.sample(caseArb, { seed: opts.seed, numRuns: opts.requests })];

  const statuses = new Map<string, number>();
  const perEndpoint = new Map<string, number>();
  const hostilePerEndpoint = new Map<string, number>();
  const failures: { index: number; problem: string; c: FuzzCase }[] = [];
  let hangs = 0;
  let unsendable = 0;
  let slowest = 0;
  let passRateLimited = 0;
  let resetOverLimit = 0;
  let passSeconds = 0;
  const logStart = opts.accessLog?.().length ?? 0;
  const serverLogStart = (opts.serverLog?.() ?? []).map((text) => text.length);
  const started = performance.now();
  await pool(cases.length, CONCURRENCY, async (index) => {
    const { c, e } = cases[index] as { c: FuzzCase; e: Endpoint };
    const inPass = index < pass.length;
    if (!inPass) perEndpoint.set(c.endpoint, (perEndpoint.get(c.endpoint) ?? 0) + 1);
    if (!inPass && c.field) hostilePerEndpoint.set(c.endpoint, (hostilePerEndpoint.get(c.endpoint) ?? 0) + 1);
    const cookie = cookies[c.identity];
    const bearer: Record<string, string> =
      c.identity === 'service' && !c.headers.authorization ? { authorization: `Bearer ${opts.serviceToken}` } : {};
    const headers = { ...c.headers, ...bearer, ...(cookie && !c.headers.cookie ? { cookie } : {}) };
    let res: Answer;
    try {
      res = await opts.client.send({ method: c.method, path: c.path, headers, body: bodyBytes(c.body), timeoutMs: TIMEOUT_MS });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Node's own client refuses some requests before sending (e.g. characters it will not put in a path).
      if (code === 'ERR_UNESCAPED_CHARACTERS' || code === 'ERR_INVALID_HTTP_TOKEN' || code === 'ERR_INVALID_CHAR') {
        unsendable += 1;
        return;
      }
      const bytes = typeof c.body === 'string' ? Buffer.byteLength(c.body) : (c.body?.bytes ?? 0);
      if (opts.direct && bytes > 64 * 1024 && (code === 'ECONNRESET' || code === 'EPIPE')) {
        resetOverLimit += 1;
        return;
      }
      if (err instanceof Hang) hangs += 1;
      const raw = (err as { rawPacket?: Buffer }).rawPacket;
      failures.push({
        index,
        problem: `no answer: ${err instanceof Error ? err.message : String(err)}${raw ? ` (received ${JSON.stringify(raw.toString('latin1').slice(0, 300))})` : ''}`,
        c,
      });
      return;
    } finally {
      if (index === pass.length - 1) passSeconds = (performance.now() - started) / 1000;
    }
    if (inPass && res.status === 429) passRateLimited += 1;
    slowest = Math.max(slowest, res.ms);
    const bucket = `${Math.floor(res.status / 100)}xx`;
    statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
    const problem = verdict(c, e, res);
    if (problem) failures.push({ index, problem: `${problem}: ${res.body.toString('utf8').slice(0, 160)}`, c });
  });
  const seconds = (performance.now() - started) / 1000;
  // nginx names the upstream group instead of an address when it had no instance left to try.
  const noLiveInstance = (opts.accessLog?.() ?? []).slice(logStart).filter((line) => / 50[24] \d+ upstream=sage /.test(line)).length;

  const covered = Math.min(...all.map((e) => perEndpoint.get(`${e.method} ${e.path}`) ?? 0));
  const withSpots = all.filter((e) => hostileCase(e, 'anonymous', ids) !== undefined);
  const hostileCovered = Math.min(...withSpots.map((e) => hostilePerEndpoint.get(`${e.method} ${e.path}`) ?? 0));
  const hostileRandom = [...hostilePerEndpoint.values()].reduce((a, b) => a + b, 0);
  const sent = cases.length - unsendable;
  const passFailures = failures.filter((f) => f.index < pass.length).length;
  return {
    part,
    criterion: 'no 5xx but documented 503s, every request answered within 10 s, every /api 4xx JSON is {error, message}',
    ok: failures.length === 0 && sent >= cases.length * 0.98,
    figures: [
      { part, figure: 'seed', value: opts.seed },
      { part, figure: 'endpoints (source)', value: `${all.length} (${endpoints.length} from ${source})` },
      {
        part,
        figure: 'hostile values, one each per field (deterministic pass)',
        value: `${count(pass.length)} in ${passSeconds.toFixed(0)} s over ${withSpots.length} endpoints; ${count(passRateLimited)} answered 429 (rate limit: not reaching the route); ${passFailures} failed`,
      },
      {
        part,
        figure: 'random requests',
        value: `${count(cases.length - pass.length)} (fewest per endpoint: ${covered}), of which ${count(hostileRandom)} hostile values (fewest per endpoint with fields: ${hostileCovered})`,
      },
      { part, figure: 'requests sent', value: `${count(sent)} in ${seconds.toFixed(0)} s` },
      {
        part,
        figure: 'answers 2xx/3xx/4xx/5xx',
        value: ['2xx', '3xx', '4xx', '5xx'].map((b) => count(statuses.get(b) ?? 0)).join(' / '),
      },
      ...(noLiveInstance > 0 ? [{ part, figure: '5xx of nginx with no live instance left', value: count(noLiveInstance) }] : []),
      { part, figure: 'refused by the client before sending', value: unsendable },
      ...(opts.direct ? [{ part, figure: 'connection reset while sending a body over 64 KiB (no proxy)', value: resetOverLimit }] : []),
      { part, figure: 'slowest answer', value: `${slowest.toFixed(0)} ms` },
      { part, figure: 'hangs (> 10 s)', value: hangs },
      { part, figure: 'failures', value: failures.length },
    ],
    failures: [
      ...(noLiveInstance > 0
        ? [
            `${count(noLiveInstance)} of these answers came from nginx with every instance marked failed (max_fails): the fault of a few requests, answered by all`,
          ]
        : []),
      ...examples(failures),
      ...byField(failures),
      ...(failures.length > 0
        ? loggedErrors((opts.serverLog?.() ?? []).map((text, i) => text.slice(serverLogStart[i] ?? 0)).join('\n'))
        : []),
    ],
  };
}

/**
 * The fuzzer against one instance on SQLite (no nginx, no Redis), its own data directory: what
 * fails only there (FTS5's search, SQLite's own errors) is in reach too. The cluster is PostgreSQL.
 */
export async function fuzzSqlite(opts: { seed: number; requests: number; serviceToken: string }): Promise<PartResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-resilience-fuzz-sqlite-'));
  const server = await startProduct(dataDir, undefined, { AI_SERVICE_TOKEN: opts.serviceToken, LOG_LEVEL: 'warn' });
  // A connection per request: a kept-alive one the instance closes as it is picked up is no answer to count.
  const client = httpsClient(server.url, undefined, 32, false);
  try {
    const tag = Date.now().toString(36);
    const [user, admin, target] = [
      await register(client, `fuzz-sqlite-user-${tag}@example.com`, 'resilience-password'),
      await register(client, `fuzz-sqlite-admin-${tag}@example.com`, 'resilience-password'),
      await register(client, `fuzz-sqlite-target-${tag}@example.com`, 'resilience-password'),
    ];
    const db = new SQLite(path.join(dataDir, 'sage.db'));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare('update users set is_admin = 1 where id = ?').run(admin.id);
    } finally {
      db.close();
    }
    const logFile = path.join(dataDir, 'server.log');
    return await fuzz({
      client,
      seed: opts.seed,
      requests: opts.requests,
      accounts: { user, admin, target },
      serviceToken: opts.serviceToken,
      part: 'fuzz (SQLite)',
      direct: true,
      serverLog: () => [fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''],
    });
  } finally {
    client.close();
    server.child.kill('SIGTERM');
    await waitForExit(server.child, 15_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
