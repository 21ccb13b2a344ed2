// `npm run bench:forgot`: does POST /api/forgot-password tell, by its timing, whether an address
// has an account? The app is built in this process over a fresh database (PostgreSQL with
// BENCH_DATABASE_URL, else SQLite), rate limits lifted and mail dropped; requests for an existing
// account and for unknown addresses are sent in turns, a short pause after each, and their medians
// are printed side by side.
//
//   BENCH_REQUESTS=400    requests of each kind
//   BENCH_DATABASE_URL=…  PostgreSQL
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import type { RateLimiter } from '../server/services/rateLimiter';
import { createPostgresSchema } from '../scripts/postgresSchema';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const unlimited: RateLimiter = {
  hit: async () => ({ allowed: true, retryAfterMs: 0 }),
  giveBack: async () => undefined,
  close: async () => undefined,
};

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] ?? 0;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-bench-forgot-'));
  const schema = process.env.BENCH_DATABASE_URL ? await createPostgresSchema(process.env.BENCH_DATABASE_URL, 'bench_forgot') : null;
  const db = openDatabase({ dataDir, ...(schema ? { databaseUrl: schema.url } : {}) });
  await migrateToLatest(db);
  const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const app = await buildApp({
    config,
    db,
    mailer: { send: async () => undefined },
    rateLimiter: unlimited,
    scryptCost: { N: 1024, r: 8, p: 1 },
  });
  await app.ready();
  const known = 'bench-known@example.com';
  await app.inject({ method: 'POST', url: '/api/register', payload: { email: known, password: 'bench-password-1' } });

  const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
  const send = async (email: string) => {
    const started = process.hrtime.bigint();
    const response = await app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email } });
    if (response.statusCode !== 200) throw new Error(`forgot-password answered ${response.statusCode}`);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // A pause, as a prober would leave between requests: what one request leaves running after
    // its answer does not land in the next one's time.
    await new Promise((resolve) => setTimeout(resolve, 15));
    return ms;
  };
  for (let i = 0; i < 50; i++) await send(i % 2 ? known : `warm-${i}@example.com`);
  for (let i = 0; i < REQUESTS; i++) {
    times.known.push(await send(known));
    times.unknown.push(await send(`nobody-${i}@example.com`));
  }
  await app.close();
  await db.destroy();
  await schema?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const row = (kind: 'known' | 'unknown') => ({
    addresses: kind === 'known' ? 'with an account' : 'unknown',
    'median ms': quantile(times[kind], 0.5).toFixed(2),
    'p95 ms': quantile(times[kind], 0.95).toFixed(2),
  });
  console.log(`forgot-password on ${schema ? 'PostgreSQL' : 'SQLite'}, ${REQUESTS} requests of each kind, in turns`);
  console.table([row('known'), row('unknown')]);
  console.log(`median known / unknown: ${(quantile(times.known, 0.5) / quantile(times.unknown, 0.5)).toFixed(2)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
