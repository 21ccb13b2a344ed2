// Part 4 of the resilience suite: Stripe's webhook events for one subscription's life, duplicated
// and shuffled by fast-check (≥ 1,000 orders; 100 with --short), delivered to random instances,
// must leave the mirror in Stripe's final state. Each order has its own plan, user and customer
// (webhookLifecycle.ts). The fixture's events are captured instead of delivered; each is then
// delivered 1–3 times, freshly signed, in a shuffled order, several at once, straight to an
// instance's /api/stripe/webhook. In an "interleaved" order some copies go out between lifecycle
// steps (an event may reach us while Stripe has already moved on, as it does for real); the rest
// after the last step. Then the mirror's rows are compared with the fixture's objects.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import Stripe from 'stripe';
import type { Cluster } from '../../scripts/localCluster';
import type { StripeEvent, StripeFixture } from '../../tests/fixtures/stripeServer';
import { count, pool, type PartResult } from './common';
import { applyStep, expectedMirror, startOrder, STEPS, type MirrorState, type Order } from './webhookLifecycle';

const CONCURRENT_ORDERS = 8;

const scenario = fc.record({
  trial: fc.boolean(),
  card: fc.boolean(),
  interleaved: fc.boolean(),
  steps: fc.array(fc.constantFrom(...STEPS), { minLength: 1, maxLength: 8 }),
  /** Every other choice (copies, order, instance, batch sizes) is read from these in turn. */
  choices: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** Successive choices from the scenario's numbers (cycling, each time mixed with a counter). */
function chooser(numbers: number[]) {
  let i = 0;
  return (range: number) => {
    const n = numbers[i % numbers.length] ?? 0;
    const x = (n + Math.floor(i / numbers.length) * 2_654_435_761) >>> 0;
    i += 1;
    return x % range;
  };
}

interface Copy {
  event: number;
  type: string;
  payload: string;
}

/** Whose order an event is: its customer, or its product for catalogue events. */
function keyOf(event: StripeEvent): string {
  const object = event.data.object as { id?: string; customer?: string; product?: string };
  if (event.type.startsWith('product.')) return object.id ?? '';
  if (event.type.startsWith('price.')) return object.product ?? '';
  if (event.type === 'customer.updated' || event.type === 'customer.deleted') return object.id ?? '';
  return object.customer ?? '';
}

async function mirrorOf(db: pg.Pool, order: Order): Promise<MirrorState | { missing: string }> {
  const [sub] = (
    await db.query(
      'select user_id, customer_id, status, item_id, price_id, unit_amount, recurring_interval, product_id, product_name, cancel_at, cancel_at_period_end, trial_end, current_period_end, default_payment_method from billing_subscriptions where id = $1',
      [order.subscriptionId],
    )
  ).rows;
  const [customer] = (
    await db.query('select customer_id, default_payment_method from billing_customers where user_id = $1', [order.userId])
  ).rows;
  const [product] = (await db.query('select name, active from billing_products where id = $1', [order.productId])).rows;
  const prices = (
    await db.query<{ id: string; active: number }>('select id, active from billing_prices where product_id = $1', [order.productId])
  ).rows;
  if (!sub || !customer || !product)
    return { missing: [!sub && 'subscription', !customer && 'customer', !product && 'product'].filter(Boolean).join(', ') };
  return { subscription: sub, customer, product, prices: Object.fromEntries(prices.map((p) => [p.id, Number(p.active)])) } as MirrorState;
}

/** The fields that differ, as `field: expected ≠ actual`. */
function differences(expected: MirrorState, actual: MirrorState): string[] {
  const out: string[] = [];
  for (const group of ['subscription', 'customer', 'product', 'prices'] as const) {
    const e = expected[group] as Record<string, unknown>;
    const a = actual[group] as Record<string, unknown>;
    for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
      const norm = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : (v ?? null));
      if (norm(e[key]) !== norm(a[key])) out.push(`${group}.${key}: Stripe ${JSON.stringify(e[key])} ≠ mirror ${JSON.stringify(a[key])}`);
    }
  }
  return out;
}

interface Context {
  cluster: Cluster;
  stripe: StripeFixture;
  api: Stripe;
  db: pg.Pool;
  seed: number;
  /** A run's mark in e-mail addresses and user names. */
  tag: string;
  /** Each order's captured events, by the keys its events carry (customer and product ids). */
  captured: Map<string, Copy[]>;
  tally: { deliveries: number; steps: number };
}

/** One order, start to end; answers what did not converge (empty when everything did). */
async function runOrder(ctx: Context, index: number, s: Scenario): Promise<string[]> {
  const { cluster, stripe, api, db } = ctx;
  const choose = chooser(s.choices);
  const userId = randomUUID();
  const email = `webhook-${ctx.tag}-${index}@example.com`;
  await db.query(
    "insert into users (id, username, email, email_verified_at, password_hash, status, is_admin, license_token, epic_account_id, epic_display_name, created_at, updated_at) values ($1, $2, $3, null, null, 'Active', 0, $4, null, null, $5, $5)",
    [userId, `webhook-${ctx.tag}-${index}`, email, randomUUID(), Date.now()],
  );
  const inbox: Copy[] = [];
  const pending: Copy[] = [];
  const log: string[] = [];
  let seen = 0;
  const collect = () => {
    // 1–3 copies of each event captured since the last look.
    for (const copy of inbox.slice(seen)) for (let k = choose(3); k >= 0; k -= 1) pending.push(copy);
    seen = inbox.length;
  };
  const deliver = async (copies: Copy[]) => {
    // Shuffled (Fisher–Yates on the scenario's choices), then sent in small concurrent batches.
    for (let i = copies.length - 1; i > 0; i -= 1) {
      const j = choose(i + 1);
      [copies[i], copies[j]] = [copies[j] as Copy, copies[i] as Copy];
    }
    for (let at = 0; at < copies.length;) {
      const batch = copies.slice(at, at + 1 + choose(4));
      at += batch.length;
      await Promise.all(
        batch.map(async (copy) => {
          const instance = cluster.instances[choose(cluster.instances.length)];
          if (!instance) throw new Error('webhooks: no instance');
          const signature = Stripe.webhooks.generateTestHeaderString({ payload: copy.payload, secret: stripe.webhookSecret });
          const res = await fetch(`${instance.url}/api/stripe/webhook`, {
            method: 'POST',
            headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
            body: copy.payload,
            signal: AbortSignal.timeout(30_000),
          });
          ctx.tally.deliveries += 1;
          log.push(`${copy.type}#${copy.event}→${instance.index}${res.status === 200 ? '' : ` (${res.status})`}`);
          if (res.status !== 200)
            throw new Error(`instance ${instance.index} answered ${res.status} to ${copy.type}: ${(await res.text()).slice(0, 200)}`);
        }),
      );
      log.push('|');
    }
  };

  const order = await startOrder(stripe, api, {
    index,
    userId,
    email,
    trial: s.trial,
    card: s.card,
    claim: (key) => ctx.captured.set(key, inbox),
  });
  collect();
  for (const [n, step] of s.steps.entries()) {
    if (s.interleaved && pending.length > 0) {
      // Some copies reach us before Stripe moves on; the others stay in flight.
      const early = pending.filter(() => choose(2) === 0);
      for (const copy of early) pending.splice(pending.indexOf(copy), 1);
      await deliver(early);
    }
    if (await applyStep(stripe, api, order, step, n)) {
      order.applied.push(step);
      ctx.tally.steps += 1;
    }
    collect();
  }
  await deliver(pending.splice(0));

  const actual = await mirrorOf(db, order);
  const diff = 'missing' in actual ? [`mirror has no ${actual.missing}`] : differences(expectedMirror(stripe, order), actual);
  if (diff.length === 0) return [];
  const how = `${s.trial ? 'trial' : 'no trial'}, ${s.card ? 'card' : 'no card'}, ${s.interleaved ? 'interleaved' : 'after the last step'}`;
  return [
    `order ${index} (seed ${ctx.seed}; ${how}; steps ${order.applied.join(' → ') || 'none'}): ${diff.join('; ')}`,
    `      events: ${inbox.map((c) => `#${c.event} ${c.type}`).join(', ')}`,
    `      delivered (| between batches): ${log.join(' ')}`,
  ];
}

export async function webhooks(opts: { cluster: Cluster; stripe: StripeFixture; seed: number; orders: number }): Promise<PartResult> {
  const { cluster, stripe } = opts;
  const scenarios = fc.sample(scenario, { seed: opts.seed, numRuns: opts.orders });
  console.log(`webhooks: ${count(opts.orders)} orders, seed ${opts.seed}`);
  const ctx: Context = {
    cluster,
    stripe,
    api: stripe.client(),
    db: new pg.Pool({ connectionString: cluster.databaseUrl, max: 4 }),
    seed: opts.seed,
    tag: Date.now().toString(36),
    captured: new Map(),
    tally: { deliveries: 0, steps: 0 },
  };

  // Every event the fixture makes is captured for the order it belongs to, not delivered.
  let unclaimed = 0;
  let eventNumber = 0;
  stripe.deliverTo(async (payload) => {
    const event = JSON.parse(payload) as StripeEvent;
    const list = ctx.captured.get(keyOf(event));
    if (list) list.push({ event: eventNumber++, type: event.type, payload });
    else unclaimed += 1;
    return 200;
  });

  const failures: string[] = [];
  let failedOrders = 0;
  const started = performance.now();
  try {
    await pool(scenarios.length, CONCURRENT_ORDERS, async (index) => {
      let problems: string[];
      try {
        problems = await runOrder(ctx, index, scenarios[index] as Scenario);
      } catch (err) {
        problems = [`order ${index} (seed ${opts.seed}) failed: ${err instanceof Error ? err.message : String(err)}`];
      }
      if (problems.length === 0) return;
      failedOrders += 1;
      if (failedOrders <= 5) failures.push(problems.join('\n'));
    });
  } finally {
    stripe.deliverTo(null);
    await ctx.db.end();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    part: 'webhooks',
    criterion: "every order's mirror equals Stripe's final state",
    ok: failedOrders === 0,
    figures: [
      { part: 'webhooks', figure: 'orders (seed)', value: `${count(opts.orders)} (${opts.seed}) in ${seconds.toFixed(0)} s` },
      { part: 'webhooks', figure: 'lifecycle steps applied', value: count(ctx.tally.steps) },
      {
        part: 'webhooks',
        figure: 'deliveries (1–3 copies per event)',
        value: `${count(ctx.tally.deliveries)} to ${cluster.instances.length} instances`,
      },
      { part: 'webhooks', figure: 'orders not converged', value: failedOrders },
      ...(unclaimed ? [{ part: 'webhooks', figure: 'events of no order (not delivered)', value: unclaimed }] : []),
    ],
    failures,
  };
}
