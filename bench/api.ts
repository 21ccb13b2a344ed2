// `npm run bench`: throughput and latency of the API's hot paths on a real server over loopback,
// against a fresh SQLite file (or PostgreSQL with BENCH_DATABASE_URL). Bounded in count and time.
// The load generator shares the process (and the machine's two cores), so figures are lower bounds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase, type Db } from '../server/db';
import { createMailer } from '../server/services/mailer';
import { createMemoryRateLimiter } from '../server/services/rateLimiter';
import { run, type Case } from './measure';

/** A catalogue of 8 plans and 4 packs, and one trialing subscription for the bench user. */
async function seedBillingMirror(db: Db, userId: string) {
  const now = Date.now();
  for (let i = 0; i < 12; i += 1) {
    const plan = i < 8;
    await db
      .insertInto('billing_products')
      .values({ id: `prod_${i}`, name: `Product ${i}`, description: 'Bench', images: '[]', active: 1, metadata: '{"credits_amount":"100"}', synced_at: now })
      .execute();
    const intervals = plan ? ['week', 'month', 'year'] : [null];
    for (const interval of intervals) {
      await db
        .insertInto('billing_prices')
        .values({ id: `price_${i}_${interval ?? 'once'}`, product_id: `prod_${i}`, active: 1, unit_amount: 999, currency: 'usd', recurring_interval: interval, recurring_interval_count: interval ? 1 : null, synced_at: now })
        .execute();
    }
  }
  await db.insertInto('billing_customers').values({ user_id: userId, customer_id: 'cus_bench', default_payment_method: null, created_at: now }).execute();
  await db
    .insertInto('billing_subscriptions')
    .values({
      id: 'sub_bench', user_id: userId, customer_id: 'cus_bench', status: 'trialing', item_id: 'si_bench', price_id: 'price_0_month',
      unit_amount: 999, currency: 'usd', recurring_interval: 'month', recurring_interval_count: 1, product_id: 'prod_0',
      product_name: 'Product 0', product_description: null, cancel_at: null, cancel_at_period_end: 0, trial_end: Math.floor(now / 1000) + 86_400,
      current_period_end: Math.floor(now / 1000) + 86_400, default_payment_method: null, created: Math.floor(now / 1000), synced_at: now,
    })
    .execute();
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-bench-'));
  // Production rules (PUBLIC_URL is then required; the bench's requests send no Origin).
  // Stripe is configured but unreachable: billing reads are answered from the mirror alone.
  const config = loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_WEBHOOK_SECRET: 'whsec_bench',
    STRIPE_API_URL: 'https://127.0.0.1:9',
  });
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
  const me = (await (await fetch(`${base}/api/user`, { headers: { cookie } })).json()) as { id: string };
  await seedBillingMirror(db, me.id);

  const json = { 'content-type': 'application/json' };
  const cases: Case[] = [
    { name: 'GET /healthz', requests: 5000, concurrency: 20, expect: 200, send: (b) => fetch(`${b}/healthz`) },
    { name: 'GET /api/current-sage-build (404)', requests: 5000, concurrency: 20, expect: 404, send: (b) => fetch(`${b}/api/current-sage-build`) },
    { name: 'GET /api/user (session lookup)', requests: 5000, concurrency: 20, expect: 200, send: (b) => fetch(`${b}/api/user`, { headers: { cookie } }) },
    // Read by every sign-in page (login completed, the plugin hand-off).
    { name: 'GET /api/auth/status', requests: 5000, concurrency: 20, expect: 200, send: (b) => fetch(`${b}/api/auth/status`, { headers: { cookie } }) },
    // Choose Your Plan and the dashboard's Subscriptions section.
    { name: 'GET /api/stripe/products (mirror)', requests: 5000, concurrency: 20, expect: 200, send: (b) => fetch(`${b}/api/stripe/products`) },
    {
      name: 'GET /api/stripe/user-subscriptions',
      requests: 5000,
      concurrency: 20,
      expect: 200,
      send: (b) => fetch(`${b}/api/stripe/user-subscriptions`, { headers: { cookie } }),
    },
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
