// `npm run bench:usage`: usage metering (issue 26) at scale, against issue 39's peer. Seeds
// BENCH_USES uses (default 10,000,000) among BENCH_CROWD users (default 10,000), a tenth of them one
// heavy user's, and 1,000 users who record during the run (three in four on a plan with a large
// allowance, one in four paying with pack credits), into a fresh SQLite file (or PostgreSQL with
// BENCH_DATABASE_URL, into a schema of its own); then starts the compiled server on it as `npm start`
// does, and the peer (bench/usagePeer.ts: Express 5 + better-sqlite3, the minimal correct recorder)
// twice, with synchronous=FULL (durable, the baseline) and NORMAL, each on a fresh SQLite file of its
// own holding the 1,000 users (the peer is SQLite whatever the product runs on), and measures:
//   - recording at 50 connections with autocannon, in turns round after round: GET /api/user (the
//     baseline), POST /api/ingest/usage with the AI service's token spread over the 1,000 users,
//     then all 50 connections for one user (whose uses queue on their balance row), then the same
//     spread uses to the peer with FULL and with NORMAL; printed as a share of GET /api/user and
//     as a multiple of the durable peer, with a verdict on each of issue 39's targets (on SQLite
//     ≥ 2× the durable peer; ≥ 50 % of GET /api/user; p99 ≤ 50 ms), judged on the spread case in
//     every round;
//   - the heavy user's GET /api/usage and GET /api/usage/history, one request at a time.
//
//   BENCH_ROUNDS=2        rounds of the side-by-side cases
//   BENCH_DURATION=5      seconds per measurement
//   BENCH_USES=…          uses to seed (a tenth the heavy user's)
//   BENCH_DATABASE_URL=…  PostgreSQL
// BENCH_DATA_DIR=… keeps the SQLite file there and reuses it on the next run when it holds the seed
// (the peer's files start afresh every run); BENCH_PG_SCHEMA=… does the same with that PostgreSQL schema.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from '../server/db';
import { sessionCookieName } from '../server/http/sessionCookie';
import { createSessionService } from '../server/services/sessions';
import { freePort } from '../scripts/localProduct';
import { openBenchDatabase } from './benchDatabase';
import { load, run, type Case, type Load } from './measure';
import { startProduct, startServer, stopServers, type Server } from './serverProcess';
import { existingSeed, paysWithCredits, seedUsage } from './usageSeed';

const CONNECTIONS = 50;
const USES = Number(process.env.BENCH_USES ?? 10_000_000);
const CROWD = Number(process.env.BENCH_CROWD ?? 10_000);
const RECORDERS = 1_000;
const DAY_MS = 86_400_000;

const share = (part: number, whole: number) => `${Math.round((100 * part) / whole)} %`;
const times = (part: number, whole: number) => `${(part / whole).toFixed(2)} ×`;

/** Issue 39's targets for recording (the spread case), each round's figures judged against them. */
const PEER_MULTIPLE = 2;
const BASELINE_SHARE = 0.5;
const P99_MS = 50;

type Synchronous = 'FULL' | 'NORMAL';

/**
 * The peer (bench/usagePeer.ts) with `synchronous`, on a fresh SQLite file in `dataDir`, its users
 * the ids in the JSON file `users`; its log goes to peer-full.log or peer-normal.log beside it.
 */
async function startPeer(dataDir: string, synchronous: Synchronous, token: string, users: string): Promise<Server & { file: string }> {
  const name = `peer-${synchronous.toLowerCase()}`;
  const file = path.join(dataDir, `${name}.sqlite`);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    PEER_DATABASE: file,
    PEER_SYNCHRONOUS: synchronous,
    PEER_TOKEN: token,
    PEER_USERS: users,
  };
  return { ...(await startServer(['bench/usagePeer.ts'], env, port, path.join(dataDir, `${name}.log`))), file };
}

/** What the peer stored: its uses, their units, and the units its period counters were raised by. */
function peerTotals(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        'select (select count(*) from uses) as uses, (select coalesce(sum(units), 0) from uses) as units, (select coalesce(sum(used), 0) from periods) as used',
      )
      .get() as { uses: number; units: number; used: number };
  } finally {
    db.close();
  }
}

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
  // The peer records for the same users, with the same token.
  const peerUsers = path.join(bench.dataDir, 'peer-users.json');
  fs.writeFileSync(peerUsers, JSON.stringify(recorderIds));
  const peers = {
    FULL: await startPeer(bench.dataDir, 'FULL', serviceToken, peerUsers),
    NORMAL: await startPeer(bench.dataDir, 'NORMAL', serviceToken, peerUsers),
  };

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

  const spreadUse = () => use(recorderIds[sent % recorderIds.length]!);
  const peerRecorded = { FULL: 0, NORMAL: 0 };

  const sideBySide = [];
  const measured: { baseline: Load; spread: Load; hot: Load; full: Load }[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const baseline = await load(`${base}/api/user`, { cookie }, seconds, CONNECTIONS);
    const spread = await load(ingest, bearer, seconds, CONNECTIONS, spreadUse);
    const hot = await load(ingest, bearer, seconds, CONNECTIONS, () => use(hotUserId));
    const full = await load(`${peers.FULL.url}/usage`, bearer, seconds, CONNECTIONS, spreadUse);
    const normal = await load(`${peers.NORMAL.url}/usage`, bearer, seconds, CONNECTIONS, spreadUse);
    hotRecorded += hot['2xx'];
    peerRecorded.FULL += full['2xx'];
    peerRecorded.NORMAL += normal['2xx'];
    measured.push({ baseline, spread, hot, full });
    const row = (name: string, l: Load) => ({
      case: name,
      round,
      ...l,
      'of GET /api/user': share(l['req/s'], baseline['req/s']),
      '× durable peer': times(l['req/s'], full['req/s']),
    });
    sideBySide.push({ case: 'GET /api/user (session lookup)', round, ...baseline, 'of GET /api/user': '', '× durable peer': '' });
    sideBySide.push(row(`record, ${recorderIds.length} users`, spread));
    sideBySide.push(row('record, one user (hot)', hot));
    sideBySide.push(row(`peer FULL, ${recorderIds.length} users`, full));
    sideBySide.push(row(`peer NORMAL, ${recorderIds.length} users`, normal));
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
    `\n${database}, recording: POST /api/ingest/usage (AI service token) against GET /api/user and issue 39's peer (Express 5 + better-sqlite3, WAL,` +
      ` synchronous=FULL the durable one, and NORMAL), ${CONNECTIONS} connections, ${seconds} s each, in turns.` +
      ` Of the ${recorderIds.length} users, ${recorderIds.filter((_, i) => paysWithCredits(i)).length} pay with pack credits, the rest (and the hot user) from a plan's allowance.`,
  );
  console.table(sideBySide);
  // Issue 39's targets, judged on the spread case (the one the peer runs too) in every round.
  const verdict = (target: string, met: boolean[], figures: string[], note = '') => {
    const some = met.length > 1 ? `, ${met.filter(Boolean).length} of ${met.length} rounds` : '';
    console.log(`${target}: ${met.every(Boolean) ? 'met' : 'not met'}${some} (${figures.join('; ')})${note}`);
  };
  const hotNote = (figures: string[]) => `; one user (hot), not judged: ${figures.join('; ')}`;
  const multiples = measured.map(
    (m) => `${m.spread['req/s']} against ${m.full['req/s']} uses/s, ${times(m.spread['req/s'], m.full['req/s'])}`,
  );
  if (database === 'SQLite')
    verdict(
      `Recording at ≥ ${PEER_MULTIPLE} × the durable peer`,
      measured.map((m) => m.spread['req/s'] >= PEER_MULTIPLE * m.full['req/s']),
      multiples,
    );
  else console.log(`Recording against the durable peer (no target on PostgreSQL): ${multiples.join('; ')}`);
  verdict(
    `Recording at ≥ ${100 * BASELINE_SHARE} % of GET /api/user`,
    measured.map((m) => m.spread['req/s'] >= BASELINE_SHARE * m.baseline['req/s']),
    measured.map((m) => `${m.spread['req/s']} against ${m.baseline['req/s']} req/s, ${share(m.spread['req/s'], m.baseline['req/s'])}`),
    hotNote(measured.map((m) => share(m.hot['req/s'], m.baseline['req/s']))),
  );
  verdict(
    `Recording at p99 ≤ ${P99_MS} ms, ${CONNECTIONS} connections`,
    measured.map((m) => m.spread['p99 ms'] <= P99_MS),
    measured.map((m) => `${m.spread['p99 ms']} ms`),
    hotNote(measured.map((m) => `${m.hot['p99 ms']} ms`)),
  );
  // Uses still in flight when autocannon stops are recorded but not counted: never fewer, never many more.
  if (hotAfter - hotBefore < hotRecorded)
    throw new Error(`the hot user was charged ${hotAfter - hotBefore} units for ${hotRecorded} answers 201`);
  console.log(
    `The hot user's period totals grew by ${hotAfter - hotBefore} units for ${hotRecorded} answers 201 (and the uses in flight at each stop).`,
  );
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    const stored = peerTotals(peers[synchronous].file);
    if (stored.used !== stored.units || stored.uses < peerRecorded[synchronous])
      throw new Error(
        `the peer (${synchronous}) stored ${stored.uses} uses of ${stored.units} units, charged ${stored.used}, for ${peerRecorded[synchronous]} answers 201`,
      );
    console.log(
      `The peer (${synchronous}) stored ${stored.uses} uses and charged their ${stored.used} units for ${peerRecorded[synchronous]} answers 201.`,
    );
  }
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
