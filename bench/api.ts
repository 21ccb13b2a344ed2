// `npm run bench`: the API's hot paths on the compiled server, started as `npm start` runs it (plain
// node on dist/server, NODE_ENV=production, logging at the default level into a file), against a
// fresh SQLite file (or PostgreSQL with BENCH_DATABASE_URL). Load comes from autocannon on the same
// machine (50 connections). Beside it runs a bare Fastify server (bench/bareServer.mjs) answering
// GET /api/user and GET /download with the same bodies; the two are measured in turns, round after
// round (the machine is shared and noisy), and the product's figures are printed as a share of the
// bare server's. Also printed: the time from starting the server to a ready /healthz.
//
//   BENCH_ROUNDS=2        rounds of the side-by-side cases
//   BENCH_DURATION=5      seconds per measurement
//   BENCH_DATABASE_URL=…  run the product on PostgreSQL
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase, type Db } from '../server/db';
import { freePort } from '../scripts/localProduct';
import { run as runFetches } from './measure';
import { startProduct, startServer, stopServers } from './serverProcess';

const CONNECTIONS = 50;
/** A catalogue of 8 plans and 4 packs, and one trialing subscription for the bench user. */
async function seedBillingMirror(db: Db, userId: string) {
  const now = Date.now();
  for (let i = 0; i < 12; i += 1) {
    const plan = i < 8;
    await db
      .insertInto('billing_products')
      .values({
        id: `prod_${i}`,
        name: `Product ${i}`,
        description: 'Bench',
        images: '[]',
        active: 1,
        metadata: '{"credits_amount":"100"}',
        synced_at: now,
      })
      .execute();
    const intervals = plan ? ['week', 'month', 'year'] : [null];
    for (const interval of intervals) {
      await db
        .insertInto('billing_prices')
        .values({
          id: `price_${i}_${interval ?? 'once'}`,
          product_id: `prod_${i}`,
          active: 1,
          unit_amount: 999,
          currency: 'usd',
          recurring_interval: interval,
          recurring_interval_count: interval ? 1 : null,
          synced_at: now,
        })
        .execute();
    }
  }
  await db
    .insertInto('billing_customers')
    .values({ user_id: userId, customer_id: 'cus_bench', default_payment_method: null, created_at: now })
    .execute();
  await db
    .insertInto('billing_subscriptions')
    .values({
      id: 'sub_bench',
      user_id: userId,
      customer_id: 'cus_bench',
      status: 'trialing',
      item_id: 'si_bench',
      price_id: 'price_0_month',
      unit_amount: 999,
      currency: 'usd',
      recurring_interval: 'month',
      recurring_interval_count: 1,
      product_id: 'prod_0',
      product_name: 'Product 0',
      product_description: null,
      cancel_at: null,
      cancel_at_period_end: 0,
      trial_end: Math.floor(now / 1000) + 86_400,
      current_period_end: Math.floor(now / 1000) + 86_400,
      default_payment_method: null,
      created: Math.floor(now / 1000),
      synced_at: now,
    })
    .execute();
}

interface Load {
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  /** Answers other than 2xx, and connection errors: a correct run has none. */
  failures: number;
}

/** autocannon at `connections` for `seconds` against one URL. */
async function load(url: string, headers: Record<string, string>, seconds: number, connections = CONNECTIONS): Promise<Load> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  return {
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

const share = (part: number, whole: number) => `${Math.round((100 * part) / whole)} %`;

async function main() {
  const rounds = Number(process.env.BENCH_ROUNDS ?? '2');
  const seconds = Number(process.env.BENCH_DURATION ?? '5');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) throw new Error('BENCH_ROUNDS must be a whole number from 1 to 10');
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 60) throw new Error('BENCH_DURATION must be from 1 to 60 seconds');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  // Stripe is configured but unreachable: billing reads are answered from the mirror alone.
  const product = await startProduct(dataDir, databaseUrl, {
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_WEBHOOK_SECRET: 'whsec_bench',
    STRIPE_API_URL: 'https://127.0.0.1:9',
  });

  // One signed-in user whose cookie the session-lookup cases reuse.
  const email = `bench-${Date.now()}@example.com`;
  const registered = await fetch(`${product.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password' }),
  });
  if (registered.status !== 201) throw new Error(`POST /api/register answered ${registered.status}: ${await registered.text()}`);
  const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const userBody = await (await fetch(`${product.url}/api/user`, { headers: { cookie } })).text();
  const db = openDatabase({ dataDir, databaseUrl });
  await seedBillingMirror(db, (JSON.parse(userBody) as { id: string }).id);
  await db.destroy();
  const pageBody = await (await fetch(`${product.url}/download`)).text();

  // The bare server answers the very same bodies.
  fs.writeFileSync(path.join(dataDir, 'user.json'), userBody);
  fs.writeFileSync(path.join(dataDir, 'download.html'), pageBody);
  const barePort = await freePort();
  const bare = await startServer(
    ['bench/bareServer.mjs'],
    {
      ...process.env,
      PORT: String(barePort),
      BARE_USER_BODY: path.join(dataDir, 'user.json'),
      BARE_PAGE_BODY: path.join(dataDir, 'download.html'),
    },
    barePort,
    path.join(dataDir, 'bare.log'),
  );
  console.log(
    `Startup, spawn to a ready /healthz: the product ${Math.round(product.startupMs)} ms (${databaseUrl ? 'PostgreSQL' : 'SQLite'}, migrations checked), the bare server ${Math.round(bare.startupMs)} ms.`,
  );

  const paired: { case: string; path: string; headers: Record<string, string> }[] = [
    { case: 'GET /api/user (session lookup)', path: '/api/user', headers: { cookie } },
    { case: 'GET /download (pre-rendered page)', path: '/download', headers: {} },
  ];
  const sideBySide = [];
  for (let round = 1; round <= rounds; round += 1) {
    for (const c of paired) {
      const baseline = await load(`${bare.url}${c.path}`, c.headers, seconds);
      const measured = await load(`${product.url}${c.path}`, c.headers, seconds);
      sideBySide.push({ case: c.case, round, server: 'bare Fastify', ...baseline, share: '' });
      sideBySide.push({ case: c.case, round, server: 'product', ...measured, share: share(measured['req/s'], baseline['req/s']) });
    }
  }
  console.log(
    `\nThe product against a bare Fastify server answering the same body (${CONNECTIONS} connections, ${seconds} s each, in turns):`,
  );
  console.table(sideBySide);

  // Visitors and signed-in users at once, half the connections each, asking as browsers do: with
  // the Accept-Encoding every browser sends (the page then leaves precompressed; the user JSON is
  // too small to compress). The side-by-side cases above ask for identity, which is all the bare
  // server offers.
  const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  const [mixedUser, mixedPage] = await Promise.all([
    load(`${product.url}/api/user`, { ...browser, cookie }, seconds, CONNECTIONS / 2),
    load(`${product.url}/download`, browser, seconds, CONNECTIONS / 2),
  ]);
  console.log(`\nMixed load on the product, as browsers ask (${CONNECTIONS / 2} + ${CONNECTIONS / 2} connections, ${seconds} s):`);
  console.table([
    { case: 'GET /api/user', ...mixedUser },
    { case: 'GET /download', ...mixedPage },
  ]);

  const others: { case: string; path: string; headers: Record<string, string> }[] = [
    { case: 'GET /healthz', path: '/healthz', headers: {} },
    { case: 'GET /api/auth/status', path: '/api/auth/status', headers: { cookie } },
    { case: 'GET /api/stripe/products (mirror)', path: '/api/stripe/products', headers: {} },
    { case: 'GET /api/stripe/user-subscriptions', path: '/api/stripe/user-subscriptions', headers: { cookie } },
  ];
  const rest = [];
  for (const c of others) rest.push({ case: c.case, ...(await load(`${product.url}${c.path}`, c.headers, seconds)) });
  // scrypt N=2^17 dominates: this is the cost a sign-in is meant to have.
  const login = await runFetches(product.url, {
    name: 'POST /api/login (scrypt)',
    requests: 10,
    concurrency: 2,
    expect: 200,
    send: (b) =>
      fetch(`${b}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bench-password' }),
      }),
  });
  console.log(`\nOther reads on the product (${CONNECTIONS} connections, ${seconds} s each), and sign-in:`);
  console.table(rest);
  console.table([login]);

  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().then(stopServers, (err: unknown) => {
  console.error(err);
  stopServers();
  process.exitCode = 1;
});
