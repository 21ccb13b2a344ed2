// `npm run bench`: throughput and latency of the API's hot paths on a real server over loopback,
// against a fresh SQLite file (or PostgreSQL with BENCH_DATABASE_URL). Bounded in count and time.
// The load generator shares the process (and the machine's two cores), so figures are lower bounds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { createMailer } from '../server/services/mailer';
import { createMemoryRateLimiter } from '../server/services/rateLimiter';

interface Case {
  name: string;
  requests: number;
  concurrency: number;
  /** The status a correct answer has. */
  expect: number;
  send: (base: string) => Promise<Response>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(base: string, c: Case) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < c.requests) {
      next += 1;
      const t = performance.now();
      const res = await c.send(base);
      await res.arrayBuffer();
      if (res.status !== c.expect) failures += 1;
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: c.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    case: c.name,
    requests: c.requests,
    concurrency: c.concurrency,
    'req/s': Math.round(c.requests / seconds),
    'p50 ms': percentile(latencies, 50).toFixed(2),
    'p99 ms': percentile(latencies, 99).toFixed(2),
    failures,
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-bench-'));
  // Production rules (PUBLIC_URL is then required; the bench's requests send no Origin).
  const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = openDatabase({ dataDir, databaseUrl: process.env.BENCH_DATABASE_URL });
  await migrateToLatest(db);
  const rateLimiter = createMemoryRateLimiter();
  const app = await buildApp({
    config,
    db,
    rateLimiter,
    mailer: createMailer({ from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox'), log: { info: () => {} } }),
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  // One signed-in user whose cookie the session-lookup case reuses.
  const email = `bench-${Date.now()}@example.com`;
  const registered = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password' }),
  });
  const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

  const json = { 'content-type': 'application/json' };
  const cases: Case[] = [
    { name: 'GET /healthz', requests: 5000, concurrency: 20, expect: 200, send: (b) => fetch(`${b}/healthz`) },
    { name: 'GET /api/current-sage-build (404)', requests: 5000, concurrency: 20, expect: 404, send: (b) => fetch(`${b}/api/current-sage-build`) },
    { name: 'GET /api/user (session lookup)', requests: 5000, concurrency: 20, expect: 200, send: (b) => fetch(`${b}/api/user`, { headers: { cookie } }) },
    // Read by every sign-in page (login completed, the plugin hand-off).
    { name: 'GET /api/auth/status', requests: 5000, concurrency: 20, expect: 200, send: (b) => fetch(`${b}/api/auth/status`, { headers: { cookie } }) },
    {
      // scrypt N=2^17 dominates: this is the cost a sign-in is meant to have.
      name: 'POST /api/login (scrypt)',
      requests: 10,
      concurrency: 2,
      expect: 200,
      send: (b) => fetch(`${b}/api/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: 'bench-password' }) }),
    },
  ];

  const results = [];
  for (const c of cases) results.push(await run(base, c));
  console.table(results);

  await app.close();
  await db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
