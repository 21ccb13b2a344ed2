// Issue 39's peer: the minimal correct usage recorder that `npm run bench:usage` measures the
// product's POST /api/ingest/usage against. It is what a competent Node developer writes in an
// afternoon (Express 5 + better-sqlite3, WAL), not a straw man: every use is durable when answered
// (with synchronous=FULL), charged once per (user, requestId), and refused with 402 rather than
// charged past the allowance. The issue's targets are ratios to it: on SQLite the product records
// at least twice what this peer does with synchronous=FULL; the bench runs it with NORMAL too.
//
// POST /usage, `Authorization: Bearer <PEER_TOKEN>`, JSON {requestId, userId, units, projectId?,
// engineVersion?}, in one transaction: a use already stored under (userId, requestId) answers its
// first answer again (another body: 409); otherwise the period's counter is raised by a conditional
// UPDATE (no row changed: 402, no use stored, nothing charged) and the use is inserted under
// UNIQUE(user_id, request_id). 201 {requestId, units, remaining}. Periods are calendar months (UTC);
// a period takes its user's allowance when it opens.
//
// A standalone server, run as its own process by plain Node (which strips the types):
//   node bench/usagePeer.ts
//   PEER_DATABASE=…       the SQLite file (created with its tables when missing)
//   PEER_SYNCHRONOUS=…    FULL or NORMAL (journal_mode is WAL)
//   PEER_TOKEN=…          the Bearer token callers must send
//   PEER_USERS=…          optional: a JSON file, an array of user ids to create (or update), each
//   PEER_ALLOWANCE=…      with this allowance per period (100,000,000)
//   PORT=…                0 picks a free one; the URL is printed on stdout once listening
// It answers GET /healthz as the bench's servers do (bench/serverProcess.ts startServer).
import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';

const file = process.env.PEER_DATABASE;
const synchronous = process.env.PEER_SYNCHRONOUS;
const token = process.env.PEER_TOKEN;
const port = Number(process.env.PORT ?? '0');
const allowance = Number(process.env.PEER_ALLOWANCE ?? 100_000_000);
if (!file) throw new Error('PEER_DATABASE must name the SQLite file');
if (synchronous !== 'FULL' && synchronous !== 'NORMAL') throw new Error('PEER_SYNCHRONOUS must be FULL or NORMAL');
if (!token) throw new Error('PEER_TOKEN must be set');
if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('PORT must be a port number, or 0');
if (!Number.isSafeInteger(allowance) || allowance < 0) throw new Error('PEER_ALLOWANCE must be a whole number');

const db = new Database(file);
if (db.pragma('journal_mode = WAL', { simple: true }) !== 'wal') throw new Error('journal_mode=WAL did not hold');
db.pragma(`synchronous = ${synchronous}`);
if (db.pragma('synchronous', { simple: true }) !== (synchronous === 'FULL' ? 2 : 1))
  throw new Error(`synchronous=${synchronous} did not hold`);
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');
db.exec(`
  create table if not exists users (
    id text primary key,
    allowance integer not null check (allowance >= 0)
  ) strict;
  create table if not exists periods (
    user_id text not null references users (id),
    period_start integer not null,
    allowance integer not null,
    used integer not null default 0 check (used >= 0),
    primary key (user_id, period_start)
  ) strict;
  create table if not exists uses (
    id integer primary key,
    user_id text not null references users (id),
    request_id text not null,
    units integer not null check (units > 0),
    project_id text,
    engine_version text,
    period_start integer not null,
    remaining integer not null,
    recorded_at integer not null,
    unique (user_id, request_id)
  ) strict;
`);
if (process.env.PEER_USERS) {
  const ids = z.array(z.string().min(1)).parse(JSON.parse(fs.readFileSync(process.env.PEER_USERS, 'utf8')));
  const upsert = db.prepare(
    'insert into users (id, allowance) values (?, ?) on conflict (id) do update set allowance = excluded.allowance',
  );
  db.transaction(() => {
    for (const id of ids) upsert.run(id, allowance);
  })();
}

const seenUse = db.prepare<
  [string, string],
  { units: number; project_id: string | null; engine_version: string | null; remaining: number }
>('select units, project_id, engine_version, remaining from uses where user_id = ? and request_id = ?');
const charge = db.prepare<{ userId: string; periodStart: number; units: number }, { remaining: number }>(
  `update periods set used = used + :units
   where user_id = :userId and period_start = :periodStart and used + :units <= allowance
   returning allowance - used as remaining`,
);
const userAllowance = db.prepare<[string], { allowance: number }>('select allowance from users where id = ?');
const openPeriod = db.prepare(
  'insert into periods (user_id, period_start, allowance, used) values (?, ?, ?, 0) on conflict (user_id, period_start) do nothing',
);
const insertUse = db.prepare(
  `insert into uses (user_id, request_id, units, project_id, engine_version, period_start, remaining, recorded_at)
   values (?, ?, ?, ?, ?, ?, ?, ?)`,
);

const label = (max: number) => z.string().trim().min(1).max(max);
const useSchema = z.object({
  requestId: label(100),
  userId: label(100),
  units: z.number().int().min(1).max(10_000),
  projectId: label(64).optional(),
  engineVersion: label(32).optional(),
});
type Use = z.infer<typeof useSchema>;

type Outcome = { status: 201; body: { requestId: string; units: number; remaining: number } } | { status: 400 | 402 | 409; error: string };

/** The first day of the use's calendar month (UTC), in ms. */
function periodStartOf(now: number): number {
  const day = new Date(now);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
}

// Run IMMEDIATE: the write lock is taken at BEGIN, so the read of a stored use and the writes after
// it see the same state even if another process shares the file. A throw rolls everything back.
const record = db.transaction((use: Use, now: number): Outcome => {
  const seen = seenUse.get(use.userId, use.requestId);
  if (seen) {
    const same =
      seen.units === use.units && seen.project_id === (use.projectId ?? null) && seen.engine_version === (use.engineVersion ?? null);
    if (!same) return { status: 409, error: 'request_id_reused' };
    return { status: 201, body: { requestId: use.requestId, units: seen.units, remaining: seen.remaining } };
  }
  const periodStart = periodStartOf(now);
  const params = { userId: use.userId, periodStart, units: use.units };
  let charged = charge.get(params);
  if (!charged) {
    // No row changed: the period is not open yet, the user is unknown, or the allowance would be passed.
    const user = userAllowance.get(use.userId);
    if (!user) return { status: 400, error: 'unknown_user' };
    if (openPeriod.run(use.userId, periodStart, user.allowance).changes === 1) charged = charge.get(params);
    if (!charged) return { status: 402, error: 'allowance_exhausted' };
  }
  insertUse.run(
    use.userId,
    use.requestId,
    use.units,
    use.projectId ?? null,
    use.engineVersion ?? null,
    periodStart,
    charged.remaining,
    now,
  );
  return { status: 201, body: { requestId: use.requestId, units: use.units, remaining: charged.remaining } };
});

const tokenHash = createHash('sha256').update(token).digest();
/** Compared as SHA-256 digests: equal lengths for timingSafeEqual whatever was sent. */
function authorised(header: string | undefined): boolean {
  const sent = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return sent !== '' && timingSafeEqual(createHash('sha256').update(sent).digest(), tokenHash);
}

const app = express();
app.disable('x-powered-by');
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
// Who is calling is checked before the body is read.
app.post(
  '/usage',
  (req, res, next) => {
    if (authorised(req.get('authorization'))) next();
    else res.status(401).json({ error: 'unauthorized' });
  },
  express.json({ limit: '16kb' }),
  (req, res) => {
    const parsed = useSchema.safeParse(req.body);
    if (!parsed.success) {
      res
        .status(400)
        .json({ error: 'invalid_body', message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      return;
    }
    const outcome = record.immediate(parsed.data, Date.now());
    if (outcome.status === 201) res.status(201).json(outcome.body);
    else res.status(outcome.status).json({ error: outcome.error });
  },
);
// Express's own errors (a body that is not JSON, or too large) as JSON; anything else is a 500.
app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) res.status(status).json({ error: 'bad_request' });
  else {
    console.error(err);
    res.status(500).json({ error: 'internal' });
  }
});

const server = http.createServer(app);
server.listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port} (synchronous=${synchronous}, ${file})`);
});
const stop = () => {
  server.close();
  server.closeAllConnections();
  db.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
