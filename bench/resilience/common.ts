// What the parts of the resilience suite (bench/resilience.ts) share: raw https requests through
// nginx, the instances' processes and memory, accounts, and how a part reports its figures.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import pg from 'pg';
import type { Cluster } from '../../scripts/localCluster';

/** One line of the final table. */
export interface Figure {
  part: string;
  figure: string;
  value: string | number;
}

export interface PartResult {
  part: string;
  /** What the part must show, in words. */
  criterion: string;
  ok: boolean;
  figures: Figure[];
  /** A few examples of what went wrong, printed before the table. */
  failures: string[];
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

export interface RawRequest {
  method: string;
  /** Sent as written (no URL normalisation): the path and query a hostile client chose. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  timeoutMs?: number;
}

export class Hang extends Error {}

/**
 * https requests to one origin that trusts `ca` (plain http for an http origin), over kept-alive
 * connections. `localAddress`: the loopback address to send from (127.0.0.0/8 is all loopback), so
 * a part has per-address rate limits of its own, whatever the parts before it spent.
 */
export function httpsClient(origin: string, ca: string | undefined, maxSockets = 32, keepAlive = true, localAddress?: string) {
  const url = new URL(origin);
  const tls = url.protocol === 'https:';
  const agent = tls ? new https.Agent({ keepAlive, maxSockets, ca }) : new http.Agent({ keepAlive, maxSockets });
  const send = (req: RawRequest): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const timeoutMs = req.timeoutMs ?? 10_000;
      // Node frames a body by itself only for methods that usually have one: say its length always.
      const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
      const framed = Object.keys(req.headers ?? {}).some((h) => /^(content-length|transfer-encoding)$/i.test(h));
      const headers = body && !framed ? { ...req.headers, 'content-length': String(body.length) } : req.headers;
      let request: http.ClientRequest;
      try {
        const options = { host: url.hostname, port: url.port, path: req.path, method: req.method, headers, agent, localAddress };
        request = tls ? https.request({ ...options, ca }) : http.request(options);
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      const timer = setTimeout(() => request.destroy(new Hang(`no answer within ${timeoutMs} ms`)), timeoutMs);
      request.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
      request.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      request.end(body);
    });
  return { send, close: () => agent.destroy() };
}
export type HttpsClient = ReturnType<typeof httpsClient>;

/** Runs `work(i)` for i in [0, count) with at most `concurrency` at once. */
export async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next;
      next += 1;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Resident memory of a process in MiB (VmRSS of /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kib) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) / 1024;
}

export interface Account {
  email: string;
  id: string;
  /** `sage_session=…` (`__Host-sage_session=…` on https) */
  cookie: string;
}

/** Registers an e-mail account through nginx (each one counts against the 10 an hour per address). */
export async function register(client: HttpsClient, email: string, password: string): Promise<Account> {
  const res = await client.send({
    method: 'POST',
    path: '/api/register',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${res.body.toString()}`);
  const setCookie = res.headers['set-cookie'] ?? [];
  // `__Host-sage_session` on https, `sage_session` on http.
  const cookie = setCookie.map((c) => c.split(';')[0] ?? '').find((c) => /^(__Host-)?sage_session=/.test(c)) ?? '';
  const me = await client.send({ method: 'GET', path: '/api/user', headers: { cookie } });
  if (me.status !== 200) throw new Error(`GET /api/user after registering ${email}: ${me.status}`);
  return { email, id: (JSON.parse(me.body.toString()) as { id: string }).id, cookie };
}

/** One SQL statement on the cluster's database. */
export async function sql<R extends pg.QueryResultRow>(databaseUrl: string, text: string, values: unknown[] = []): Promise<R[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query<R>(text, values)).rows;
  } finally {
    await db.end();
  }
}

/** Which instance a port is, for messages. */
export const instanceName = (cluster: Cluster, port: number) =>
  `instance ${cluster.instances.findIndex((i) => i.port === port)} (:${port})`;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const count = (n: number) => n.toLocaleString('en-US');
