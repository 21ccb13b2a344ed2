// `npm run resilience` (issue 13): the product's three-instance setup (scripts/localCluster.ts:
// nginx, PostgreSQL, Redis) under five kinds of trouble, each with a criterion:
//   1. fuzz      malformed requests and hostile values to every endpoint (bench/resilience/fuzz.ts),
//                then the same against one instance on SQLite
//   2. staff     (issue 36) every admin route × every role on a staff account: no 5xx, support's
//                writes refused, no license token in any answer; every recovery event × every
//                pending single-use credential: each refused afterwards (staffClasses.ts)
//   3. soak      mixed load through nginx, memory per instance (soak.ts)
//   4. crash     kill -9 during writes, on PostgreSQL and SQLite; no acknowledged write lost, and
//                (issue 39) no acknowledged use, hold or settlement lost or doubled (crash.ts, crashUsage.ts)
//   5. webhooks  Stripe events duplicated and shuffled end in Stripe's state (webhooks.ts)
// It prints one table of figures and exits 1 when a part misses its criterion.
//
//   npm run resilience [-- --short] [-- --only fuzz,staff,soak,crash,webhooks]
//   RESILIENCE_SEED=n              the seed of every fast-check run (printed; default below)
//   RESILIENCE_DATABASE_URL=…      PostgreSQL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
//   RESILIENCE_REDIS_URL=…         Redis (else TEST_REDIS_URL, else redis://127.0.0.1:6379); database 10 is emptied
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { epicEnv, startCluster, type Cluster } from '../scripts/localCluster';
import { startDevIdentityProvider, type DevIdentityProvider } from '../server/devIdentityProvider';
import { startSmtpCatcher, type SmtpCatcher } from '../tests/fixtures/smtpCatcher';
import { startStripeServer, type StripeFixture } from '../tests/fixtures/stripeServer';
import { httpsClient, register, sql, type HttpsClient, type PartResult } from './resilience/common';
import { crashPostgres, crashSqlite } from './resilience/crash';
import { fuzz, fuzzSqlite } from './resilience/fuzz';
import { soak } from './resilience/soak';
import { staffClasses } from './resilience/staffClasses';
import { webhooks } from './resilience/webhooks';

const ROOT = path.resolve(import.meta.dirname, '..');
const DEFAULT_SEED = 1305;
const PARTS = ['fuzz', 'staff', 'soak', 'webhooks', 'crash'] as const;
type Part = (typeof PARTS)[number];

function options() {
  const args = process.argv.slice(2);
  const short = args.includes('--short');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : [...PARTS];
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`--only takes ${PARTS.join(', ')}; not ${unknown.join(', ')}`);
  const seed = Number(process.env.RESILIENCE_SEED ?? DEFAULT_SEED);
  if (!Number.isSafeInteger(seed)) throw new Error('RESILIENCE_SEED must be an integer');
  const redis = new URL(process.env.RESILIENCE_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  // A database of its own: the cluster empties it (scale-out.test.ts uses 9).
  redis.pathname = '/10';
  return {
    short,
    parts: new Set(only as Part[]),
    seed,
    databaseUrl: process.env.RESILIENCE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: redis.href,
  };
}

/** Waits (30 s at most) until ten requests in a row through nginx answer 200; answers how long it took. */
async function settle(client: HttpsClient): Promise<number> {
  const started = Date.now();
  let inARow = 0;
  while (inARow < 10 && Date.now() - started < 30_000) {
    const ok = await client.send({ method: 'GET', path: '/healthz', timeoutMs: 2000 }).then(
      (r) => r.status === 200,
      () => false,
    );
    inARow = ok ? inARow + 1 : 0;
    if (!ok) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return Date.now() - started;
}

async function main(): Promise<number> {
  const opts = options();
  const started = Date.now();
  console.log(`Resilience suite (${opts.short ? 'short' : 'full'}), seed ${opts.seed}`);
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-build.mjs')], { cwd: ROOT, stdio: 'inherit' });

  const serviceToken = randomBytes(24).toString('hex');
  let smtp: SmtpCatcher | undefined;
  let stripe: StripeFixture | undefined;
  let epic: DevIdentityProvider | undefined;
  let cluster: Cluster | undefined;
  const results: PartResult[] = [];
  try {
    smtp = await startSmtpCatcher();
    stripe = await startStripeServer();
    const { env: stripeEnv } = stripe;
    const mail = smtp.url;
    cluster = await startCluster({
      databaseUrl: opts.databaseUrl,
      redisUrl: opts.redisUrl,
      env: async (publicUrl) => {
        epic = await startDevIdentityProvider({ port: 0, redirectUri: `${publicUrl}/api/auth/callback` });
        // Its admin signs in with a password alone: the staff second factor has tests of its own (decision 046).
        return { SMTP_URL: mail, STAFF_SECOND_FACTOR: 'optional', ...epicEnv(epic.settings), AI_SERVICE_TOKEN: serviceToken, ...stripeEnv };
      },
    });
    console.log(`cluster: ${cluster.url} -> ${cluster.instances.map((i) => i.port).join(', ')}`);
    const client = httpsClient(cluster.url, cluster.certificate);
    try {
      // The few accounts every part needs, first: registering is limited to 10 an hour per address.
      const tag = Date.now().toString(36);
      const user = await register(client, `resilience-user-${tag}@example.com`, 'resilience-password');
      const admin = await register(client, `resilience-admin-${tag}@example.com`, 'resilience-password');
      // The fuzzer's admin edits this one (a user must exist for an edit to reach the database).
      const target = await register(client, `resilience-target-${tag}@example.com`, 'resilience-password');
      await sql(cluster.databaseUrl, 'update users set is_admin = 1 where id = $1', [admin.id]);

      const run = async (part: Part, work: () => Promise<PartResult | PartResult[]>) => {
        if (!opts.parts.has(part)) return;
        // Each part starts on a cluster that answers: nginx may still count an instance as failed
        // (max_fails, fail_timeout) after what the part before did.
        const waited = await settle(client);
        const t = Date.now();
        console.log(`\n== ${part} ==${waited > 1000 ? ` (after ${(waited / 1000).toFixed(0)} s until nginx answered 200 again)` : ''}`);
        const out = await work();
        results.push(...(Array.isArray(out) ? out : [out]));
        console.log(`${part} took ${((Date.now() - t) / 1000).toFixed(0)} s`);
      };
      const live = cluster;
      const fixture = stripe;
      await run('fuzz', async () => [
        await fuzz({
          client,
          seed: opts.seed,
          requests: opts.short ? 2000 : 10_000,
          accounts: { user, admin, target },
          serviceToken,
          accessLog: live.accessLog,
          serverLog: () => live.instances.map((i) => i.output()),
        }),
        await fuzzSqlite({ seed: opts.seed, requests: opts.short ? 300 : 2000, serviceToken }),
      ]);
      // The same in --short and full form: a table of cells, each one request or two.
      await run('staff', () => staffClasses({ cluster: live }));
      await run('soak', () =>
        soak({ cluster: live, seconds: opts.short ? 10 : 60, warmUpAtMost: opts.short ? 30 : 90, cookie: user.cookie }),
      );
      await run('webhooks', () => webhooks({ cluster: live, stripe: fixture, seed: opts.seed, orders: opts.short ? 100 : 1000 }));
      await run('crash', async () => [
        ...(await crashPostgres({ cluster: live, serviceToken, kills: opts.short ? 1 : 3, seed: opts.seed })),
        ...(await crashSqlite({ serviceToken, kills: opts.short ? 1 : 3, seed: opts.seed })),
      ]);
      const me = await client.send({ method: 'GET', path: '/api/user', headers: { cookie: user.cookie } });
      if (me.status !== 200) console.warn(`note: the fuzzed user's session no longer works (${me.status})`);
    } finally {
      client.close();
    }
  } finally {
    await cluster?.stop();
    await epic?.close();
    await stripe?.close();
    await smtp?.close();
  }

  for (const r of results.filter((r) => r.failures.length > 0)) {
    console.log(`\n${r.part}: ${r.failures.length} example(s) of what failed:`);
    for (const f of r.failures) console.log(`  ${f}`);
  }
  const rows = results.flatMap((r) => [...r.figures, { part: r.part, figure: `criterion: ${r.criterion}`, value: r.ok ? 'PASS' : 'FAIL' }]);
  console.log(
    `\nResilience ${opts.short ? '(short)' : '(full)'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, seed ${opts.seed}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  console.table(rows);
  const failed = results.filter((r) => !r.ok).map((r) => r.part);
  console.log(failed.length === 0 ? 'Every part met its criterion.' : `Missed: ${failed.join(', ')}`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
