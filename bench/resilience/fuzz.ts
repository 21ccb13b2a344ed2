// Part 1 of the resilience suite: malformed requests to every endpoint through nginx, as a
// stranger, a signed-in user and an admin. Criterion: no 5xx but a route's documented 503, no
// request left without an answer within 10 s, and every 4xx JSON answer under /api is
// `{ error, message }`.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { count, pool, Hang, type Account, type Answer, type HttpsClient, type PartResult } from './common';
import { fuzzCase, type BigBody, type Endpoint, type FuzzCase, type Identity, type Schema } from './fuzzCases';

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
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
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
        ...(op.requestBody?.content?.['application/json']?.schema ? { body: op.requestBody.content['application/json'].schema } : {}),
        documented503: Object.keys(op.responses ?? {}).includes('503'),
      });
    }
  }
  return endpoints;
}

/** Without the document: the routes as the modules in server/routes/ declare them (no schemas). */
function fromRouteModules(): Endpoint[] {
  const dir = path.join(ROOT, 'server', 'routes');
  const endpoints = new Map<string, Endpoint>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const match of text.matchAll(/\.(get|post|put|patch|delete)\(\s*'(\/api\/[^']*)'/g)) {
      const method = (match[1] ?? '').toUpperCase();
      const route = (match[2] ?? '').replace(/:(\w+)/g, '{$1}');
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
  return { endpoints: fromRouteModules(), source: 'server/routes/*.ts (no /api/openapi.json)' };
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
        ? ` body=${JSON.stringify(c.body.slice(0, 120))}`
        : ` body=<${c.body.bytes} bytes>`;
  const headers = Object.entries(c.headers)
    .map(([k, v]) => `${k}: ${v.slice(0, 60)}`)
    .join('; ');
  return `[${c.kind}, ${c.identity}] ${c.method} ${c.path.slice(0, 160)}${c.path.length > 160 ? '…' : ''} {${headers}}${body}`;
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

export interface FuzzOptions {
  client: HttpsClient;
  seed: number;
  requests: number;
  accounts: { user: Account; admin: Account };
  serviceToken: string;
  /** nginx's access log (localCluster's format), to tell which 502s had no live instance behind them. */
  accessLog?: () => string[];
}

export async function fuzz(opts: FuzzOptions): Promise<PartResult> {
  const { endpoints, source } = await listEndpoints(opts.client);
  const all = [...endpoints, ...pageEndpoints()];
  const cookies: Record<Identity, string | undefined> = {
    anonymous: undefined,
    user: opts.accounts.user.cookie,
    admin: opts.accounts.admin.cookie,
  };
  const caseArb = fc
    .record({ endpoint: fc.nat(all.length - 1), identity: fc.constantFrom<Identity>('anonymous', 'user', 'admin') })
    .chain(({ endpoint, identity }) => {
      const e = all[endpoint] as Endpoint;
      return fuzzCase(e, SIGN_OUT.has(`${e.method} ${e.path}`) ? 'anonymous' : identity, { serviceToken: opts.serviceToken }).map((c) => ({
        c,
        e,
      }));
    });
  console.log(
    `fuzz: ${count(opts.requests)} requests over ${all.length} endpoints (${endpoints.length} from ${source}), seed ${opts.seed}`,
  );
  const cases = fc.sample(caseArb, { seed: opts.seed, numRuns: opts.requests });

  const statuses = new Map<string, number>();
  const perEndpoint = new Map<string, number>();
  const failures: { index: number; problem: string; c: FuzzCase }[] = [];
  let hangs = 0;
  let unsendable = 0;
  let slowest = 0;
  const logStart = opts.accessLog?.().length ?? 0;
  const started = performance.now();
  await pool(cases.length, CONCURRENCY, async (index) => {
    const { c, e } = cases[index] as { c: FuzzCase; e: Endpoint };
    perEndpoint.set(c.endpoint, (perEndpoint.get(c.endpoint) ?? 0) + 1);
    const cookie = cookies[c.identity];
    const headers = { ...c.headers, ...(cookie && !c.headers.cookie ? { cookie } : {}) };
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
      if (err instanceof Hang) hangs += 1;
      const raw = (err as { rawPacket?: Buffer }).rawPacket;
      failures.push({
        index,
        problem: `no answer: ${err instanceof Error ? err.message : String(err)}${raw ? ` (received ${JSON.stringify(raw.toString('latin1').slice(0, 300))})` : ''}`,
        c,
      });
      return;
    }
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
  const sent = cases.length - unsendable;
  return {
    part: 'fuzz',
    criterion: 'no 5xx but documented 503s, every request answered within 10 s, every /api 4xx JSON is {error, message}',
    ok: failures.length === 0 && sent >= opts.requests * 0.98,
    figures: [
      { part: 'fuzz', figure: 'seed', value: opts.seed },
      { part: 'fuzz', figure: 'endpoints (source)', value: `${all.length} (${endpoints.length} from ${source})` },
      { part: 'fuzz', figure: 'requests sent', value: `${count(sent)} in ${seconds.toFixed(0)} s (fewest per endpoint: ${covered})` },
      {
        part: 'fuzz',
        figure: 'answers 2xx/3xx/4xx/5xx',
        value: ['2xx', '3xx', '4xx', '5xx'].map((b) => count(statuses.get(b) ?? 0)).join(' / '),
      },
      ...(noLiveInstance > 0 ? [{ part: 'fuzz', figure: '5xx of nginx with no live instance left', value: count(noLiveInstance) }] : []),
      { part: 'fuzz', figure: 'refused by the client before sending', value: unsendable },
      { part: 'fuzz', figure: 'slowest answer', value: `${slowest.toFixed(0)} ms` },
      { part: 'fuzz', figure: 'hangs (> 10 s)', value: hangs },
      { part: 'fuzz', figure: 'failures', value: failures.length },
    ],
    failures: [
      ...(noLiveInstance > 0
        ? [
            `${count(noLiveInstance)} of these answers came from nginx with every instance marked failed (max_fails): the fault of a few requests, answered by all`,
          ]
        : []),
      ...examples(failures),
    ],
  };
}
