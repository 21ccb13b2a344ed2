// `npm run bench:usage`: usage metering (issue 26) at scale. Seeds BENCH_USES uses (default
// 10,000,000) among BENCH_CROWD users (default 10,000), a tenth of them one heavy user's, and
// 1,000 users who record during the run (three in four on a plan with a large allowance, one in
// four paying with pack credits), into a fresh SQLite file (or PostgreSQL with BENCH_DATABASE_URL,
// into a schema of its own); then starts the compiled server on it as `npm start` does and measures:
//   - recording, POST /api/ingest/usage with the AI service's token, autocannon at 50 connections,
//     spread over the 1,000 users, then all 50 connections for one user (whose uses queue on their
//     balance row), in turns with GET /api/user at the same concurrency, round after round;
//   - the heavy user's GET /api/usage and GET /api/usage/history, one request at a time.
//
//   BENCH_ROUNDS=2        rounds of the side-by-side cases
//   BENCH_DURATION=5      seconds per measurement
//   BENCH_USES=…          uses to seed (a tenth the heavy user's)
//   BENCH_DATABASE_URL=…  PostgreSQL
// BENCH_DATA_DIR=… keeps the SQLite file there and reuses it on the next run when it holds the seed;
// BENCH_PG_SCHEMA=… does the same with that PostgreSQL schema.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../server/db';
import { sessionCookieName } from '../server/http/sessionCookie';
import { createSessionService } from '../server/services/sessions';
import { openBenchDatabase } from './benchDatabase';
import { load, run, type Case } from './measure';
import { startProduct, stopServers } from './serverProcess';
import { existingSeed, paysWithCredits, seedUsage } from './usageSeed';

const CONNECTIONS = 50;
const USES = Number(process.env.BENCH_USES ?? 10_000_000);
const CROWD = Number(process.env.BENCH_CROWD ?? 10_000);
const RECORDERS = 1_000;
const DAY_MS = 86_400_000;

const share = (part: number, whole: number) => `${Math.round((100 * part) / whole)} %`;

/** The user's totals for every period: recording adds one use, and one unit, per 201. */
async function recordedUnits(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('usage_periods')
    .select((eb) => [eb.fn.sum<number>('allowance_used').as('a'), eb.fn.sum<number>('credits_used').as('c')])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.a ?? 0) + Number(row?.c ?? 0);
}

async function main() {
  const rounds = Number(process.env.BENCH_ROUNDS ?? '2');
  const seconds = Number(process.env.BENCH_DURATION ?? '5');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) throw new Error('BENCH_ROUNDS must be a whole number from 1 to 10');
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 60) throw new Error('BENCH_DURATION must be from 1 to 60 seconds');
  if (!Number.isInteger(USES) || USES < 10) throw new Error('BENCH_USES must be a whole number of at least 10');

  const bench = await openBenchDatabase('bench_usage');
  const { db, label: database } = bench;

  const started = performance.now();
  let last = 0;
  let seed = await existingSeed(db);
  const seeded = seed ? 'the kept' : USES;
  if (seed) console.log(`reusing the seeded uses in ${bench.kept}`);
  else {
    seed = await seedUsage(db, { crowd: CROWD, uses: USES, recorders: RECORDERS }, (what, done, total) => {
      if (done === total || performance.now() - last > 10_000) {
        last = performance.now();
        console.log(`seeding ${what}: ${done}/${total} (${Math.round((performance.now() - started) / 1000)} s)`);
      }
    });
    // Statistics and the visibility map, as autovacuum keeps them on a live database after bulk inserts.
    if (bench.databaseUrl) await sql`vacuum analyze`.execute(db);
    console.log(`seeded in ${Math.round((performance.now() - started) / 1000)} s`);
  }
  const { heavyUserId, recorderIds } = seed;
  const heavy = await db
    .selectFrom('usage_daily')
    .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.sum<number>('uses').as('uses')])
    .where('user_id', '=', heavyUserId)
    .where('day', '>', Math.floor(Date.now() / DAY_MS) - 90)
    .executeTakeFirstOrThrow();

  const serviceToken = randomBytes(32).toString('hex');
  const server = await startProduct(bench.dataDir, bench.databaseUrl, { AI_SERVICE_TOKEN: serviceToken });
  const base = server.url;

  // The baseline: a signed-in user's session lookup, as bench/api.ts measures it.
  const registered = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-usage-${Date.now()}@example.com`, password: 'bench-password' }),
  });
  if (registered.status !== 201) throw new Error(`POST /api/register answered ${registered.status}: ${await registered.text()}`);
  const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

  const runTag = randomBytes(4).toString('hex');
  let sent = 0;
  const use = (userId: string) => {
    sent += 1;
    return { requestId: `${runTag}-${sent}`, userId, units: 1, projectId: `project-${sent % 5}`, engineVersion: '5.6' };
  };
  const hotUserId = recorderIds[0]!;
  if (paysWithCredits(0)) throw new Error('the hot user is meant to be on a plan');
  const ingest = `${base}/api/ingest/usage`;
  const bearer = { authorization: `Bearer ${serviceToken}` };
  const hotBefore = await recordedUnits(db, hotUserId);
  let hotRecorded = 0;

  const sideBySide = [];
  for (let round = 1; round <= rounds; round += 1) {
    const baseline = await load(`${base}/api/user`, { cookie }, seconds, CONNECTIONS);
    const spread = await load(ingest, bearer, seconds, CONNECTIONS, () => use(recorderIds[sent % recorderIds.length]!));
    const hot = await load(ingest, bearer, seconds, CONNECTIONS, () => use(hotUserId));
    hotRecorded += hot['2xx'];
    sideBySide.push({ case: 'GET /api/user (session lookup)', round, ...baseline, share: '' });
    sideBySide.push({ case: `record, ${recorderIds.length} users`, round, ...spread, share: share(spread['req/s'], baseline['req/s']) });
    sideBySide.push({ case: 'record, one user (hot)', round, ...hot, share: share(hot['req/s'], baseline['req/s']) });
  }
  const hotAfter = await recordedUnits(db, hotUserId);

  // The heavy user signs in as the dashboard does: a session row and its cookie.
  const sessions = createSessionService(db, { idleMs: DAY_MS, absoluteMs: DAY_MS });
  const { token } = await sessions.start(heavyUserId, true, 'password');
  const heavyCookie = `${sessionCookieName(false)}=${token}`;
  const get = (url: string) => (b: string) =>
    fetch(`${b}${url}`, { headers: { cookie: heavyCookie, 'accept-encoding': 'gzip, deflate, br, zstd' } });
  const one = (name: string, url: string, requests = 200): Case => ({ name, requests, concurrency: 1, expect: 200, send: get(url) });
  const reads = [];
  for (const c of [
    one('GET /api/usage (summary)', '/api/usage'),
    one('GET /api/usage/history?days=30', '/api/usage/history?days=30'),
    one('GET /api/usage/history?days=90', '/api/usage/history?days=90'),
  ])
    reads.push(await run(base, c));

  console.log(
    `\n${database}, recording: POST /api/ingest/usage (AI service token) against GET /api/user, ${CONNECTIONS} connections, ${seconds} s each, in turns.` +
      ` Of the ${recorderIds.length} users, ${recorderIds.filter((_, i) => paysWithCredits(i)).length} pay with pack credits, the rest (and the hot user) from a plan's allowance.`,
  );
  console.table(sideBySide);
  // Uses still in flight when autocannon stops are recorded but not counted: never fewer, never many more.
  if (hotAfter - hotBefore < hotRecorded)
    throw new Error(`the hot user was charged ${hotAfter - hotBefore} units for ${hotRecorded} answers 201`);
  console.log(
    `The hot user's period totals grew by ${hotAfter - hotBefore} units for ${hotRecorded} answers 201 (and the uses in flight at each stop).`,
  );
  console.log(
    `\n${database}, the heavy user's usage (a tenth of ${seeded} uses over a year; ${Number(heavy.uses)} in the last 90 days, ${heavy.rows} daily rows), one request at a time:`,
  );
  console.table(reads);

  stopServers();
  await bench.close();
}

main().catch((err: unknown) => {
  console.error(err);
  stopServers();
  process.exit(1);
});
