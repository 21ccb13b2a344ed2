// Part 3 of the resilience suite: instances killed with SIGKILL (no drain, no flush) while the AI
// service stores messages (POST /api/ingest/messages) at a steady rate and, beside them, meters
// usage (crashUsage.ts: uses, holds and their settlements, each sent again until answered), then
// started again.
// Criteria: every write that was acknowledged (201 with the stored message's id) is in the
// database afterwards. Writes in flight at the kill fail; those are counted, not lost. Every
// acknowledged use, hold and settlement is in the database once, and the users' totals and
// credits are the sum of their uses (issue 39).
//   PostgreSQL: the cluster, writes through nginx, one instance killed and restarted at a time.
//   SQLite: one instance on its own data directory, written to directly, killed and restarted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Cluster } from '../../scripts/localCluster';
import { waitForExit } from '../../scripts/localProduct';
import { openDatabase, openSqlite } from '../../server/db';
import { startProduct, type Server } from '../serverProcess';
import { count, httpsClient, sleep, sql, type PartResult } from './common';
import { checkUsage, seedUsageUsers, USAGE_ATTEMPT_TIMEOUT_MS, USAGE_RATE_PER_SECOND, usageResult, usageTraffic } from './crashUsage';

const RATE_PER_SECOND = 300;
const TICK_MS = 20;
const MAX_IN_FLIGHT = 400;

interface Tally {
  sent: number;
  /** The stored message's id, by write number, for each 201. */
  acknowledged: Map<number, string>;
  failed: number;
  failures: Map<string, number>;
}

/**
 * Sends writes at `rate` a second until stopped; `write(n)` answers the stored id or throws.
 * Writes are numbered so a stored row can be told apart from an acknowledged one.
 */
function steadyWriter(write: (n: number) => Promise<string>, rate = RATE_PER_SECOND) {
  const tally: Tally = { sent: 0, acknowledged: new Map(), failed: 0, failures: new Map() };
  const inFlight = new Set<Promise<void>>();
  const perTick = (rate * TICK_MS) / 1000;
  let owed = 0;
  const timer = setInterval(() => {
    owed += perTick;
    while (owed >= 1 && inFlight.size < MAX_IN_FLIGHT) {
      owed -= 1;
      const n = tally.sent;
      tally.sent += 1;
      const p = write(n)
        .then((id) => void tally.acknowledged.set(n, id))
        .catch((err: unknown) => {
          tally.failed += 1;
          const why = err instanceof Error ? err.message.slice(0, 80) : String(err);
          tally.failures.set(why, (tally.failures.get(why) ?? 0) + 1);
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    owed = Math.min(owed, perTick * 5);
  }, TICK_MS);
  return {
    tally,
    async stop() {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      return tally;
    },
  };
}

const body = (session: string, n: number) =>
  JSON.stringify({ sessionId: `${session}-${n}`, message: { n, role: 'assistant', content: `crash test write ${n}` } });

function idOf(status: number, text: string): string {
  if (status !== 201) throw new Error(`status ${status}`);
  const id = (JSON.parse(text) as { id?: unknown }).id;
  if (typeof id !== 'string') throw new Error('201 without an id');
  return id;
}

/** Acknowledged writes missing from `stored` (write number → id), and rows stored though never acknowledged. */
function compare(tally: Tally, stored: Map<string, number>) {
  const lost = [...tally.acknowledged].filter(([, id]) => !stored.has(id));
  const acknowledgedIds = new Set(tally.acknowledged.values());
  const unacknowledgedStored = [...stored.keys()].filter((id) => !acknowledgedIds.has(id)).length;
  return { lost, unacknowledgedStored };
}

function result(
  part: string,
  tally: Tally,
  lost: [number, string][],
  unacknowledgedStored: number,
  kills: number,
  seconds: number,
): PartResult {
  const reasons = [...tally.failures].map(([why, n]) => `${n}× ${why}`).join('; ');
  return {
    part,
    criterion: 'every acknowledged write is in the database after kill -9 and restart',
    ok: lost.length === 0 && tally.acknowledged.size > 0,
    figures: [
      { part, figure: 'kills (SIGKILL, then start)', value: `${kills} in ${seconds.toFixed(0)} s at ${RATE_PER_SECOND} writes/s` },
      { part, figure: 'writes acknowledged', value: count(tally.acknowledged.size) },
      {
        part,
        figure: 'writes failed (at the kills)',
        value: `${count(tally.failed)}${unacknowledgedStored ? `, of which ${unacknowledgedStored} stored anyway` : ''}`,
      },
      { part, figure: 'acknowledged writes lost', value: lost.length },
    ],
    failures: [
      ...lost.slice(0, 5).map(([n, id]) => `write ${n} answered 201 with id ${id} but is not in the database`),
      ...(tally.acknowledged.size === 0 ? ['no write was acknowledged at all'] : []),
      ...(lost.length > 0 && reasons ? [`failed writes: ${reasons}`] : []),
    ],
  };
}

export async function crashPostgres(opts: { cluster: Cluster; serviceToken: string; kills: number; seed: number }): Promise<PartResult[]> {
  const { cluster } = opts;
  const client = httpsClient(cluster.url, cluster.certificate, MAX_IN_FLIGHT);
  const session = `crash-pg-${Date.now().toString(36)}`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${opts.serviceToken}` };
  const db = openDatabase({ databaseUrl: cluster.databaseUrl, dataDir: os.tmpdir() });
  try {
    const usage = usageTraffic({
      seed: opts.seed,
      users: await seedUsageUsers(db, session),
      prefix: session,
      post: async (to, payload) => {
        const res = await client.send({ method: 'POST', path: to, headers, body: payload, timeoutMs: USAGE_ATTEMPT_TIMEOUT_MS });
        return { status: res.status, text: res.body.toString() };
      },
    });
    const started = performance.now();
    const writer = steadyWriter(async (n) => {
      const res = await client.send({ method: 'POST', path: '/api/ingest/messages', headers, body: body(session, n), timeoutMs: 15_000 });
      return idOf(res.status, res.body.toString());
    });
    const usageWriter = steadyWriter(usage.write, USAGE_RATE_PER_SECOND);
    try {
      await sleep(2000);
      for (let k = 0; k < opts.kills; k += 1) {
        const instance = cluster.instances[k % cluster.instances.length];
        if (!instance) throw new Error('crash: the cluster has no instances');
        console.log(`crash (PostgreSQL): kill -9 instance ${instance.index} at write ${writer.tally.sent}`);
        await instance.kill();
        await sleep(1000);
        await instance.start();
        console.log(`crash (PostgreSQL): instance ${instance.index} is back at write ${writer.tally.sent}`);
        await sleep(2000);
      }
    } finally {
      // The usage writer's last operations may still be sent again: they end once answered.
      await Promise.all([writer.stop(), usageWriter.stop()]);
      client.close();
    }
    const seconds = (performance.now() - started) / 1000;
    const rows = await sql<{ id: string; session_id: string }>(
      cluster.databaseUrl,
      'select id, session_id from stored_messages where session_id like $1',
      [`${session}-%`],
    );
    const stored = new Map(rows.map((r) => [r.id, Number(r.session_id.slice(session.length + 1))]));
    const { lost, unacknowledgedStored } = compare(writer.tally, stored);
    return [
      result('crash (PostgreSQL)', writer.tally, lost, unacknowledgedStored, opts.kills, seconds),
      usageResult('crash: usage (PostgreSQL)', usage, usageWriter.tally, await checkUsage(db, usage)),
    ];
  } finally {
    await db.destroy();
  }
}

export async function crashSqlite(opts: { serviceToken: string; kills: number; seed: number }): Promise<PartResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-resilience-sqlite-'));
  const extra = { AI_SERVICE_TOKEN: opts.serviceToken, LOG_LEVEL: 'warn' };
  let server: Server = await startProduct(dataDir, undefined, extra);
  const session = `crash-sqlite-${Date.now().toString(36)}`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${opts.serviceToken}` };
  const file = path.join(dataDir, 'sage.db');
  // The users are made beside the running instance, which made the schema.
  const seeding = openSqlite(file);
  const users = await seedUsageUsers(seeding, session)
    .catch(async (err: unknown) => {
      server.child.kill('SIGTERM');
      await waitForExit(server.child, 15_000);
      throw err;
    })
    .finally(() => seeding.destroy());
  const usage = usageTraffic({
    seed: opts.seed,
    users,
    prefix: session,
    post: async (to, payload) => {
      const res = await fetch(`${server.url}${to}`, {
        method: 'POST',
        headers,
        body: payload,
        signal: AbortSignal.timeout(USAGE_ATTEMPT_TIMEOUT_MS),
      });
      return { status: res.status, text: await res.text() };
    },
  });
  const started = performance.now();
  const writer = steadyWriter(async (n) => {
    const res = await fetch(`${server.url}/api/ingest/messages`, {
      method: 'POST',
      headers,
      body: body(session, n),
      signal: AbortSignal.timeout(15_000),
    });
    return idOf(res.status, await res.text());
  });
  const usageWriter = steadyWriter(usage.write, USAGE_RATE_PER_SECOND);
  try {
    await sleep(2000);
    for (let k = 0; k < opts.kills; k += 1) {
      console.log(`crash (SQLite): kill -9 at write ${writer.tally.sent}`);
      server.child.kill('SIGKILL');
      await waitForExit(server.child, 5000);
      await sleep(500);
      server = await startProduct(dataDir, undefined, extra);
      console.log(`crash (SQLite): back at write ${writer.tally.sent}`);
      await sleep(2000);
    }
  } finally {
    // The usage writer's last operations may still be sent again: they end once answered.
    await Promise.all([writer.stop(), usageWriter.stop()]);
    server.child.kill('SIGTERM');
    await waitForExit(server.child, 15_000);
  }
  const seconds = (performance.now() - started) / 1000;
  // Read from the file itself once the server is gone, as a restore would find it.
  const db = new SQLite(file, { readonly: true });
  let stored: Map<string, number>;
  try {
    const rows = db.prepare('select id, session_id from stored_messages where session_id like ?').all(`${session}-%`) as {
      id: string;
      session_id: string;
    }[];
    stored = new Map(rows.map((r) => [r.id, Number(r.session_id.slice(session.length + 1))]));
  } finally {
    db.close();
  }
  const { lost, unacknowledgedStored } = compare(writer.tally, stored);
  const metered = openSqlite(file);
  const verdict = await checkUsage(metered, usage).finally(() => metered.destroy());
  fs.rmSync(dataDir, { recursive: true, force: true });
  return [
    result('crash (SQLite)', writer.tally, lost, unacknowledgedStored, opts.kills, seconds),
    usageResult('crash: usage (SQLite)', usage, usageWriter.tally, verdict),
  ];
}
