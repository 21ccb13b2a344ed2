// `npm run bench:orgs`: organisations (issue 38) at scale. Seeds one organisation of 1,000 members,
// each holding one of its plan's 1,000 seats, with BENCH_USES uses (default 10,000,000) over the
// last year, and 100 users of a personal plan with as many uses each as a member (bench/orgsSeed.ts),
// into a fresh SQLite file (or PostgreSQL with BENCH_DATABASE_URL, into a schema of its own); then
// starts the compiled server on it as `npm start` does and measures, round after round, each case
// in turn:
//   - recording, POST /api/ingest/usage with the AI service's token, each kind spread over 100
//     users: a personal plan's use (the baseline), a seat holder's paid by their seat (100 members
//     drawn at random from the 900 within their seat's allowance) and a heavy member's paid by the
//     pool; autocannon at 50 connections, then one use at a time;
//   - the owner's reads, one request at a time: GET /api/user (the baseline), the members table,
//     the usage by member over 30 days, and the period's CSV: the time to its first use and the
//     time to download all of it.
//
//   BENCH_ROUNDS=2        rounds of the side-by-side cases
//   BENCH_DURATION=5      seconds per autocannon measurement
//   BENCH_USES=…          uses to seed
//   BENCH_DATABASE_URL=…  PostgreSQL
// BENCH_DATA_DIR=… keeps the SQLite file there and reuses it on the next run when it holds the seed;
// BENCH_PG_SCHEMA=… does the same with that PostgreSQL schema. A kept seed serves until the
// organisation's period ends, two days after seeding.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from '../server/db';
import { sessionCookieName } from '../server/http/sessionCookie';
import { createSessionService } from '../server/services/sessions';
import { openBenchDatabase } from './benchDatabase';
import { load, run, summarise, type Case, type Load } from './measure';
import { existingOrgSeed, MEMBERS, PERIOD_DAYS_IN, seedOrgs, type OrgSeed } from './orgsSeed';
import { startProduct, stopServers } from './serverProcess';
import { DAY_MS } from './usageSeed';

const CONNECTIONS = 50;
const USES = Number(process.env.BENCH_USES ?? 10_000_000);
const PERSONAL = 100;
/** Requests per round of each one-at-a-time case. */
const READS = 100;
const RECORDS = 200;
const CSV_FIRST = 50;
const CSV_FULL = 2;
const CSV_PAUSE_MS = 100;
/** As a browser asks. */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** What the organisation paid this period (seats and pool) and what its pool holds. */
async function orgFigures(db: Db, seed: OrgSeed) {
  const [paid, pool] = await Promise.all([
    db
      .selectFrom('org_member_periods')
      .select((eb) => [eb.fn.sum<number>('seat_used').as('seat'), eb.fn.sum<number>('pool_used').as('pool')])
      .where('org_id', '=', seed.orgId)
      .where('period_start', '=', seed.period.start)
      .executeTakeFirstOrThrow(),
    db.selectFrom('org_pools').select('credits').where('org_id', '=', seed.orgId).executeTakeFirstOrThrow(),
  ]);
  return { seat: Number(paid.seat ?? 0), pool: Number(paid.pool ?? 0), credits: Number(pool.credits) };
}

/** The personal users' allowance used, all periods: one unit per use. */
async function personalUnits(db: Db, userIds: string[]): Promise<number> {
  const row = await db
    .selectFrom('usage_periods')
    .select((eb) => eb.fn.sum<number>('allowance_used').as('a'))
    .where('user_id', 'in', userIds)
    .executeTakeFirst();
  return Number(row?.a ?? 0);
}

/**
 * The period's CSV, one request at a time: to its first use's line, then reading no further. The
 * server drops the rest of a dropped download once its batch in progress is done: a pause after
 * each keeps that from the next request's time, as a person's downloads are never back to back.
 */
async function csvFirstUse(url: string, headers: Record<string, string>, requests: number, name: string) {
  const latencies: number[] = [];
  const toHeaders: number[] = [];
  let failures = 0;
  const started = performance.now();
  for (let k = 0; k < requests; k += 1) {
    const t = performance.now();
    const controller = new AbortController();
    const res = await fetch(url, { headers, signal: controller.signal });
    toHeaders.push(performance.now() - t);
    let lines = 0;
    if (res.status !== 200 || !res.body) failures += 1;
    else {
      // The header line, then the first use's; the time is taken before the body is dropped.
      let at = 0;
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        for (const byte of chunk) if (byte === 10) lines += 1;
        if (lines >= 2) {
          at = performance.now() - t;
          break;
        }
      }
      if (lines < 2) failures += 1;
      else latencies.push(at);
    }
    controller.abort();
    await sleep(CSV_PAUSE_MS);
  }
  const seconds = (performance.now() - started) / 1000 - (requests * CSV_PAUSE_MS) / 1000;
  return {
    ...summarise(name, latencies, seconds, failures),
    'headers p50 ms': summarise('', toHeaders, seconds, 0)['p50 ms'],
  };
}

/** The period's whole CSV, downloaded `times` one after another. */
async function csvWhole(url: string, headers: Record<string, string>, times: number, name: string) {
  const rows = [];
  for (let k = 0; k < times; k += 1) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const ms = performance.now() - t;
    rows.push({
      case: name,
      status: res.status,
      encoding: res.headers.get('content-encoding') ?? 'identity',
      'uses (lines - 1)': lines - 1,
      'MB (decoded)': (bytes / 1e6).toFixed(1),
      ms: Math.round(ms),
      'uses/s': Math.round((lines - 1) / (ms / 1000)),
    });
  }
  return rows;
}

async function main() {
  const rounds = Number(process.env.BENCH_ROUNDS ?? '2');
  const seconds = Number(process.env.BENCH_DURATION ?? '5');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) throw new Error('BENCH_ROUNDS must be a whole number from 1 to 10');
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 60) throw new Error('BENCH_DURATION must be from 1 to 60 seconds');
  if (!Number.isInteger(USES) || USES < 1_200) throw new Error('BENCH_USES must be a whole number of at least 1,200');

  const bench = await openBenchDatabase('bench_orgs');
  const { db, label: database } = bench;
  const started = performance.now();
  let last = 0;
  let seed: OrgSeed | undefined = await existingOrgSeed(db);
  if (seed) console.log(`reusing the seeded organisation in ${bench.kept}`);
  else {
    const seeded = await seedOrgs(db, { uses: USES, personal: PERSONAL }, (what, done, total) => {
      if (done === total || performance.now() - last > 10_000) {
        last = performance.now();
        console.log(`seeding ${what}: ${done}/${total} (${Math.round((performance.now() - started) / 1000)} s)`);
      }
    });
    seed = seeded;
    // Statistics and the visibility map, as autovacuum keeps them on a live database after bulk inserts.
    if (bench.databaseUrl) await sql`vacuum analyze`.execute(db);
    console.log(
      `seeded ${seeded.uses} of the organisation's uses and ${seeded.personalUses} personal ones in ${Math.round((performance.now() - started) / 1000)} s`,
    );
  }
  const stored = await db
    .selectFrom('org_member_periods')
    .select((eb) => [eb.fn.sum<number>('seat_used').as('seat'), eb.fn.sum<number>('pool_used').as('pool')])
    .where('org_id', '=', seed.orgId)
    .executeTakeFirstOrThrow();
  const before = await orgFigures(db, seed);
  const today = Math.floor(Date.now() / DAY_MS);
  const daily = await db
    .selectFrom('org_usage_daily')
    .select((eb) => eb.fn.countAll<number>().as('rows'))
    .where('org_id', '=', seed.orgId)
    .where('day', '>', today - 30)
    .executeTakeFirstOrThrow();

  const serviceToken = randomBytes(32).toString('hex');
  const server = await startProduct(bench.dataDir, bench.databaseUrl, { AI_SERVICE_TOKEN: serviceToken });
  const base = server.url;

  // The owner signs in as the dashboard does: a session row and its cookie.
  const sessions = createSessionService(db, { idleMs: DAY_MS, absoluteMs: DAY_MS });
  const { token } = await sessions.start(seed.ownerId, true, 'password');
  const owner = { cookie: `${sessionCookieName(false)}=${token}`, ...BROWSER };

  const runTag = randomBytes(4).toString('hex');
  let sent = 0;
  const use = (userId: string) => {
    sent += 1;
    return { requestId: `${runTag}-${sent}`, userId, units: 1, projectId: `project-${sent % 20}`, engineVersion: '5.6' };
  };
  const ingest = `${base}/api/ingest/usage`;
  const bearer = { authorization: `Bearer ${serviceToken}` };
  // The hundred seat holders with the most of their seat left: a kept seed's seats last for many runs.
  const seatsLeft = await db
    .selectFrom('org_seats')
    .select('user_id')
    .where('org_id', '=', seed.orgId)
    .where('user_id', 'in', seed.seatIds)
    .orderBy('allowance_used')
    .limit(seed.personalIds.length)
    .execute();
  const seatHolders = seatsLeft.map((row) => row.user_id!);
  const kinds = [
    { name: 'personal plan', ids: seed.personalIds },
    { name: 'seat', ids: seatHolders },
    { name: 'pool (past the seat)', ids: seed.poolIds },
  ];
  const personalBefore = await personalUnits(db, seed.personalIds);
  const answered = new Map<string, number>(kinds.map((k) => [k.name, 0]));
  const count = (name: string, n: number) => answered.set(name, answered.get(name)! + n);

  // Recording at 50 connections, each kind in turn, the order reversed every other round.
  const loaded: (Load & { case: string; round: number; 'cost ÷ personal': string })[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const order = round % 2 === 1 ? kinds : [...kinds].reverse();
    const byName = new Map<string, Load>();
    for (const kind of order) {
      const result = await load(ingest, bearer, seconds, CONNECTIONS, () => use(kind.ids[sent % kind.ids.length]!));
      count(kind.name, result['2xx']);
      byName.set(kind.name, result);
    }
    const personal = byName.get('personal plan')!;
    for (const kind of kinds) {
      const result = byName.get(kind.name)!;
      loaded.push({
        case: `record, ${kind.name}, ${kind.ids.length} users`,
        round,
        ...result,
        'cost ÷ personal': (personal['req/s'] / result['req/s']).toFixed(2),
      });
    }
  }

  // One use at a time, each kind in turn.
  const recordOne = (kind: (typeof kinds)[number]): Case => ({
    name: `record one at a time, ${kind.name}`,
    requests: RECORDS,
    concurrency: 1,
    expect: 201,
    send: (b) =>
      fetch(`${b}/api/ingest/usage`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify(use(kind.ids[sent % kind.ids.length]!)),
      }),
  });
  const single: (Awaited<ReturnType<typeof run>> & { round: number; 'p50 ÷ personal': string })[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const order = round % 2 === 1 ? kinds : [...kinds].reverse();
    const byName = new Map<string, Awaited<ReturnType<typeof run>>>();
    for (const kind of order) {
      const result = await run(base, recordOne(kind));
      count(kind.name, result.requests - result.failures);
      byName.set(kind.name, result);
    }
    const personal = Number(byName.get('personal plan')!['p50 ms']);
    for (const kind of kinds) {
      const result = byName.get(kind.name)!;
      single.push({ ...result, round, 'p50 ÷ personal': (Number(result['p50 ms']) / personal).toFixed(2) });
    }
  }
  const after = await orgFigures(db, seed);
  const personalAfter = await personalUnits(db, seed.personalIds);

  // The owner's reads, one request at a time, in turns.
  const get = (url: string) => (b: string) => fetch(`${b}${url}`, { headers: owner });
  const one = (name: string, url: string): Case => ({ name, requests: READS, concurrency: 1, expect: 200, send: get(url) });
  const org = `/api/orgs/${seed.orgId}`;
  const readCases = [
    one('GET /api/user (session lookup)', '/api/user'),
    one('GET …/members', `${org}/members`),
    one('GET …/usage?days=30', `${org}/usage?days=30`),
  ];
  const csvUrl = `${base}${org}/usage/period.csv`;
  const reads: Record<string, unknown>[] = [];
  const csvFirst: Record<string, unknown>[] = [];
  const csvAll: Awaited<ReturnType<typeof csvWhole>> = [];
  for (let round = 1; round <= rounds; round += 1) {
    for (const c of readCases) reads.push({ ...(await run(base, c)), round });
    csvFirst.push({ ...(await csvFirstUse(csvUrl, owner, CSV_FIRST, 'period.csv to its first use, as a browser asks (br)')), round });
    csvFirst.push({
      ...(await csvFirstUse(
        csvUrl,
        { cookie: owner.cookie, 'accept-encoding': 'identity' },
        CSV_FIRST,
        'period.csv to its first use, uncompressed',
      )),
      round,
    });
    csvAll.push(...(await csvWhole(csvUrl, owner, CSV_FULL, 'period.csv whole, as a browser asks (br)')));
  }

  const heldNow = before.seat + before.pool;
  console.log(
    `\n${database}: one organisation of ${MEMBERS} members holding ${MEMBERS} seats (${seed.seatAllowance} queries each a period), ` +
      `${Number(stored.seat) + Number(stored.pool)} of its uses stored (over the last year), of which ${Number(stored.pool)} paid by the pool; ` +
      `its current period began ${PERIOD_DAYS_IN} days ago and held ${heldNow} uses when the run began ` +
      `(${before.pool} of them the pool's); ${daily.rows} daily rows in the last 30 days.`,
  );
  console.log(
    `\n${database}, recording: POST /api/ingest/usage (AI service token), ${CONNECTIONS} connections, ${seconds} s each, in turns. ` +
      `"cost ÷ personal" is the personal plan's rate over the case's in the same round.`,
  );
  console.table(loaded);
  console.log(`\n${database}, recording one use at a time, ${RECORDS} each, in turns:`);
  console.table(single);
  // Uses in flight when autocannon stops are recorded but not counted: never fewer, never many more.
  const grew = { seat: after.seat - before.seat, pool: after.pool - before.pool, personal: personalAfter - personalBefore };
  // A seat holder whose seat runs out meanwhile is paid for by the pool: the two together.
  const checks = [
    ['organisation', grew.seat + grew.pool, answered.get('seat')! + answered.get('pool (past the seat)')!],
    ['personal', grew.personal, answered.get('personal plan')!],
  ] as const;
  for (const [what, grown, answers] of checks)
    if (grown < answers) throw new Error(`the ${what} totals grew by ${grown} for ${answers} answers 201`);
  if (before.credits - after.credits !== grew.pool)
    throw new Error(`the pool lost ${before.credits - after.credits} credits for ${grew.pool} uses`);
  console.log(
    `Seats' totals grew by ${grew.seat} for ${answered.get('seat')} answers 201, the pool's by ${grew.pool} for ${answered.get('pool (past the seat)')} ` +
      `(its credits by as many), the personal plans' by ${grew.personal} for ${answered.get('personal plan')} (and the uses in flight at each stop).`,
  );
  console.log(`\n${database}, the owner's reads, one request at a time, ${READS} each per round:`);
  console.table(reads);
  console.log(
    `\n${database}, the period's CSV (${heldNow} uses and the run's), ${CSV_FIRST} requests each per round, read to the first use's line then dropped:`,
  );
  console.table(csvFirst);
  const held = await orgFigures(db, seed);
  const short = csvAll.filter((row) => row['uses (lines - 1)'] !== held.seat + held.pool);
  if (short.length) throw new Error(`a whole CSV held ${short[0]!['uses (lines - 1)']} uses of the period's ${held.seat + held.pool}`);
  console.log(`\n${database}, the period's whole CSV (every one of the ${held.seat + held.pool} uses), ${CSV_FULL} downloads per round:`);
  console.table(csvAll);

  stopServers();
  await bench.close();
}

main().catch((err: unknown) => {
  console.error(err);
  stopServers();
  process.exit(1);
});
