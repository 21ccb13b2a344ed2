// `npm run bench:admin`: the admin console's reads at scale. Seeds BENCH_USERS users (default
// 1,000,000), BENCH_MESSAGES stored messages (default 5,000,000) and BENCH_AUDIT audit entries
// (default 1,000,000, bench/adminAudit.ts: the audit log's filters) into a fresh SQLite file (or
// PostgreSQL with BENCH_DATABASE_URL, into a schema of its own), starts the compiled server on it as
// `npm start` does, and measures each read one request at a time, as an admin's clicks arrive.
// Seeding takes minutes; the figures go in docs/performance.md.
// BENCH_DATA_DIR=… keeps the SQLite file there and reuses it on the next run (migrated to the
// latest schema, not seeded again) when it already holds BENCH_USERS users; BENCH_PG_SCHEMA=… does
// the same with that PostgreSQL schema.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../server/db';
import { listQuery, type ListParams } from '../contract/restList';
import { createPostgresSchema, keptPostgresSchema } from '../scripts/postgresSchema';
import { seedDemoData } from '../server/services/demoData';
import { auditCases, seedAudit } from './adminAudit';
import { run, type Case } from './measure';
import { startProduct, stopServers } from './serverProcess';

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
/** Audit entries (issue 28's filters are measured at 1,000,000). */
const AUDIT = Number(process.env.BENCH_AUDIT ?? 1_000_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5_000_000);
/** One of seedDemoData's 20 last names: in one username and e-mail in 20. */
const COMMON = 'lovelace';
/** The last of its first names: the users who have it come last in username order. */
const LAST_COMMON = 'yukihiro';

async function main() {
  const keptDir = process.env.BENCH_DATABASE_URL ? undefined : process.env.BENCH_DATA_DIR;
  if (keptDir) fs.mkdirSync(keptDir, { recursive: true });
  const dataDir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sage-bench-admin-'));
  const keptSchema = process.env.BENCH_DATABASE_URL ? process.env.BENCH_PG_SCHEMA : undefined;
  const pgSchema = process.env.BENCH_DATABASE_URL
    ? keptSchema
      ? await keptPostgresSchema(process.env.BENCH_DATABASE_URL, keptSchema)
      : await createPostgresSchema(process.env.BENCH_DATABASE_URL, 'bench')
    : null;
  const kept = Boolean(keptDir ?? keptSchema);
  const db = openDatabase({ dataDir, databaseUrl: pgSchema?.url });
  await migrateToLatest(db);

  const started = performance.now();
  let last = 0;
  const seeded = kept
    ? Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    : 0;
  if (seeded >= USERS) console.log(`reusing ${seeded} users and their messages in ${keptDir ?? keptSchema}`);
  else
    await seedDemoData(db, { users: USERS, messages: MESSAGES }, (what, done, total) => {
      if (done === total || performance.now() - last > 10_000) {
        last = performance.now();
        console.log(`seeding ${what}: ${done}/${total} (${Math.round((performance.now() - started) / 1000)} s)`);
      }
    });
  await seedAudit(db, AUDIT);
  // Statistics and the visibility map, as autovacuum keeps them on a live database after bulk
  // inserts (PostgreSQL reads an index alone only where the map says so; SQLite needs neither).
  if (pgSchema) await sql`vacuum analyze`.execute(db);

  // The compiled server in a process of its own, as `npm start` runs it: the measuring client
  // (below) does not share its event loop.
  const server = await startProduct(dataDir, pgSchema?.url);
  const base = server.url;
  const email = `bench-admin-${Date.now()}@example.com`;
  const registered = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password' }),
  });
  const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  await db.updateTable('users').set({ is_admin: 1 }).where('email', '=', email).execute();
  const sample = await db
    .selectFrom('users')
    .select(['id', 'username', 'email'])
    .orderBy('created_at')
    .offset(Math.floor(USERS / 2))
    .limit(1)
    .executeTakeFirstOrThrow();
  // seedDemoData's names are `first.last<n>`, its e-mails `first.last<n>.<id start>@domain`.
  const usernameMiddle = sample.username.slice(2);
  const sampleEmail = sample.email ?? '';
  const emailMiddle = sampleEmail.slice(sampleEmail.indexOf('.') + 1, sampleEmail.indexOf('@') + 4);
  const session = await db
    .selectFrom('stored_messages')
    .select('session_id')
    .orderBy('created_at')
    .offset(Math.floor(MESSAGES / 3))
    .limit(1)
    .executeTakeFirstOrThrow();

  // Admins use a browser: ask with the Accept-Encoding every browser sends (brotli at the dynamic
  // quality), not undici's gzip-only default.
  const get = (url: string) => (b: string) => fetch(`${b}${url}`, { headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' } });
  const one = (name: string, url: string, requests = 100): Case => ({ name, requests, concurrency: 1, expect: 200, send: get(url) });
  // The user list speaks react-admin's simple-rest dialect (contract/restList.ts): JSON parameters.
  const users = (params: ListParams) => `/api/admin/users?${listQuery(params)}`;
  const cases: Case[] = [
    one('user list, page 1 (newest first)', users({ range: [0, 24] })),
    one('user list, page 200 by username', users({ sort: ['username', 'ASC'], range: [4975, 4999] })),
    one('user list filtered by q (prefix)', users({ filter: { q: sample.username.slice(0, 8) } })),
    one('user search (prefix of a username)', `/api/admin/users/search?query=${encodeURIComponent(sample.username.slice(0, 10))}`),
    one('user search (exact e-mail start)', `/api/admin/users/search?query=${encodeURIComponent(sample.username)}`),
    // Issue 14: 3 or more characters anywhere (a trigram index on each database).
    one('user search (middle of a username)', `/api/admin/users/search?query=${encodeURIComponent(usernameMiddle)}`),
    one('user search (middle of an e-mail)', `/api/admin/users/search?query=${encodeURIComponent(emailMiddle)}`),
    one('user list filtered by q (middle of a username)', users({ filter: { q: usernameMiddle } })),
    // Terms many users have: a search lists at most SEARCH_LIST_LIMIT of them (decision 020), sorted.
    one('user search (common part: 1 user in 20)', `/api/admin/users/search?query=${COMMON}`, 20),
    one('user list filtered by q (common part: 1 user in 20)', users({ filter: { q: COMMON } })),
    one('user search (1 user in 20, all last by username)', `/api/admin/users/search?query=${LAST_COMMON}`, 20),
    one('user list filtered by q (1 user in 20, all last by username)', users({ filter: { q: LAST_COMMON }, sort: ['username', 'ASC'] })),
    one(
      'user list filtered by q (1 user in 20), its last page by e-mail',
      users({ filter: { q: COMMON }, sort: ['email', 'DESC'], range: [975, 999] }),
    ),
    one('user search (part of every e-mail)', '/api/admin/users/search?query=example', 10),
    one('user list filtered by q (part of every e-mail)', users({ filter: { q: 'example' } })),
    one('find message by session id', `/api/admin/messages/search?sessionId=${encodeURIComponent(session.session_id)}`),
    one('recent messages (20)', '/api/admin/messages/recent?limit=20'),
    one('recent messages (1000)', '/api/admin/messages/recent?limit=1000'),
    one('user count (grove-metrics)', '/api/admin/grove-metrics'),
    one('Home charts, 30 days (insights)', '/api/admin/insights?days=30'),
    one('Home charts, 90 days (insights)', '/api/admin/insights?days=90'),
    ...auditCases(one),
  ];
  const results = [];
  for (const c of cases) results.push(await run(base, c));
  console.log(`${pgSchema ? 'PostgreSQL' : 'SQLite'}: ${USERS} users, ${MESSAGES} stored messages, ${AUDIT} audit entries`);
  console.table(results);

  stopServers();
  await db.destroy();
  await pgSchema?.drop();
  if (!keptDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  stopServers();
  process.exit(1);
});
