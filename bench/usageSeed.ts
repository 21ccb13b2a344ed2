// bench:usage's data: a crowd of users from seedDemoData, `uses` uses among them of which a tenth
// are one heavy user's, spread over the last year, and 1,000 users who record during the run.
// Uses are written with one INSERT … SELECT per batch over a generated series (generate_series on
// PostgreSQL, a recursive CTE on SQLite); the daily roll-ups and period totals are summed from them.
// bench/orgsSeed.ts seeds an organisation's uses with the same parts (insertUses, rollUpUses).
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Db } from '../server/db';
import type { BillingProductsTable, BillingSubscriptionsTable, UsersTable } from '../server/db/schema';
import { seedDemoData } from '../server/services/demoData';

export const DAY_MS = 86_400_000;
/** Billing periods of the seeded plans: 30 days, the current one started 10 days ago. */
export const PERIOD_MS = 30 * DAY_MS;
/** Uses go back this far: the history's 90 days and the months before them. */
export const HISTORY_DAYS = 365;
/** Uses per INSERT … SELECT: a statement of seconds, and a progress line after each. */
export const BATCH = 500_000;
/** The heavy user's Unreal projects and everyone's engine versions: the history's tables group by them. */
const HEAVY_PROJECTS = 8;
const CROWD_PROJECTS = 5;
const ENGINE_VERSIONS = 4;

export const HEAVY_USERNAME = 'bench.heavy';
const RECORDER_PREFIX = 'bench.recorder';
/** Recorders whose index is 3 mod 4 have no plan and pay with pack credits (a ledger entry per use). */
export const paysWithCredits = (index: number) => index % 4 === 3;

export type Progress = (what: string, done: number, total: number) => void;

export interface UsageSeed {
  heavyUserId: string;
  /** The users who record during the run, in order; see paysWithCredits. */
  recorderIds: string[];
}

export interface UsageSeedCounts {
  /** Users of seedDemoData's crowd, among whom the uses other than the heavy user's are spread. */
  crowd: number;
  uses: number;
  recorders: number;
}

export const benchUser = (username: string, now: number): UsersTable => ({
  id: randomUUID(),
  username,
  email: `${username}@bench.example`,
  email_verified_at: now,
  password_hash: null,
  status: 'Active',
  is_admin: 0,
  license_token: randomBytes(32).toString('base64url'),
  epic_account_id: null,
  epic_display_name: null,
  created_at: now,
  updated_at: now,
  last_sign_in_at: null,
  last_sign_in_method: null,
});

/** A plan as the Stripe mirror keeps it: `queries` per period (its credits_amount), none for Unlimited. */
export const benchProduct = (id: string, name: string, queries: number | null, now: number): BillingProductsTable => ({
  id,
  name,
  description: null,
  images: '[]',
  active: 1,
  metadata: queries === null ? '{}' : JSON.stringify({ credits_amount: String(queries) }),
  synced_at: now,
});

/** The Large plan: an allowance no run uses up, so that no use is refused. */
export const LARGE_PLAN = { id: 'prod_bench_large', name: 'Bench Large', queries: 100_000_000 };

/** A user's live monthly subscription to `product`, in the period starting `periodStart` (whole seconds). */
export const benchSubscription = (
  userId: string,
  n: string,
  product: { id: string; name: string },
  periodStart: number,
  now: number,
): BillingSubscriptionsTable => ({
  id: `sub_bench_${n}`,
  user_id: userId,
  customer_id: `cus_bench_${n}`,
  status: 'active',
  item_id: `si_bench_${n}`,
  price_id: `price_${product.id}`,
  unit_amount: 2000,
  currency: 'usd',
  recurring_interval: 'month',
  recurring_interval_count: 1,
  product_id: product.id,
  product_name: product.name,
  product_description: null,
  cancel_at: null,
  cancel_at_period_end: 0,
  trial_end: null,
  current_period_start: Math.floor(periodStart / 1000),
  current_period_end: Math.floor((periodStart + PERIOD_MS) / 1000),
  default_payment_method: null,
  created: Math.floor(periodStart / 1000),
  synced_at: now,
});

/** A number as SQL text, for the generated statements' constants. */
export const n = (v: number) => sql.raw(String(v));

/**
 * How seeded uses were paid and placed: SQL over a use's number `i`, `user_id`, `pos` (its place
 * among its user's uses), `per` (how many the user has) and `t` (when it happened).
 */
export interface UsePayment {
  fromAllowance: RawBuilder<unknown>;
  fromCredits: RawBuilder<unknown>;
  /** The user's own period (usage_periods). */
  periodStart: RawBuilder<unknown>;
  orgId: RawBuilder<unknown>;
  orgPeriodStart: RawBuilder<unknown>;
  fromSeat: RawBuilder<unknown>;
  fromPool: RawBuilder<unknown>;
  /** The first answer, as JSON text; its requestId is `'seed-' || i`. */
  answer: RawBuilder<unknown>;
  engineVersion: RawBuilder<unknown>;
}

/** Uses numbered `from`…`to`, each user's `per` of them spread evenly over `span` ms from `start`. */
export interface UseSeries {
  from: number;
  to: number;
  start: number;
  span: number;
  /**
   * Over `i` and `join`'s columns: the user, the use's place 0…per-1 among theirs, how many they
   * have (`per`, the same for a user's every use) and the project's number.
   */
  user: RawBuilder<unknown>;
  pos: RawBuilder<unknown>;
  per: RawBuilder<unknown>;
  project: RawBuilder<unknown>;
  join: RawBuilder<unknown>;
  paid: UsePayment;
}

/** Writes one series of uses in one INSERT … SELECT. */
export async function insertUses(db: Db, uses: UseSeries): Promise<void> {
  const postgres = isPostgres(db);
  const { from, to, paid } = uses;
  const series = postgres
    ? { with: sql``, from: sql`generate_series(${n(from)}::bigint, ${n(to)}::bigint) as s(i)` }
    : { with: sql`with recursive s(i) as (select ${n(from)} union all select i + 1 from s where i < ${n(to)})`, from: sql`s` };
  // 64 hex digits, as the SHA-256 of a real use's content.
  const fingerprint = postgres ? sql`md5(i::text) || md5((i + 1)::text)` : sql`lower(hex(randomblob(32)))`;
  await sql`${series.with}
    insert into usage_events (id, user_id, request_id, fingerprint, units, from_allowance, from_credits, period_start,
      occurred_at, recorded_at, project_id, engine_version, plugin_version, model, feature, answer,
      org_id, org_period_start, from_seat, from_pool)
    select 'seed-' || i, user_id, 'seed-' || i, ${fingerprint}, 1, ${paid.fromAllowance}, ${paid.fromCredits}, ${paid.periodStart},
      t, t, project_id, ${paid.engineVersion}, '1.4.0', 'sage-1', null, ${paid.answer},
      ${paid.orgId}, ${paid.orgPeriodStart}, ${paid.fromSeat}, ${paid.fromPool}
    from (
      select i, user_id, pos, per, project_id, ${n(uses.start)} + pos * ${n(uses.span)} / per as t
      from (
        select i, ${uses.user} as user_id, ${uses.pos} as pos, ${uses.per} as per, 'project-' || (${uses.project}) as project_id
        from ${series.from} ${uses.join}
      ) y
    ) x`.execute(db);
}

/**
 * What recording would have summed from the seeded uses: the charts' daily rows and each user's
 * period totals, their end `periodEnd` (SQL over `period_start`). PostgreSQL gets the memory to
 * sum them in one pass (its default work_mem spills to disk).
 */
export async function rollUpUses(db: Db, periodEnd: RawBuilder<unknown>, progress: Progress): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (isPostgres(db)) await sql`set local work_mem = '512MB'`.execute(trx);
    await sql`insert into usage_daily (user_id, day, project_id, engine_version, uses, units)
      select user_id, occurred_at / ${n(DAY_MS)}, project_id, engine_version, count(*), sum(units)
      from usage_events group by user_id, occurred_at / ${n(DAY_MS)}, project_id, engine_version`.execute(trx);
    progress('daily roll-ups', 1, 1);
    await sql`insert into usage_periods (user_id, period_start, period_end, allowance_used, credits_used)
      select user_id, period_start, ${periodEnd}, sum(from_allowance), sum(from_credits)
      from usage_events group by user_id, period_start`.execute(trx);
    progress('period totals', 1, 1);
  });
}

/** The seed already in the database (a kept file or schema), or undefined. */
export async function existingSeed(db: Db): Promise<UsageSeed | undefined> {
  const heavy = await db.selectFrom('users').select('id').where('username', '=', HEAVY_USERNAME).executeTakeFirst();
  if (!heavy) return undefined;
  const recorders = await db.selectFrom('users').select(['id', 'username']).where('username', 'like', `${RECORDER_PREFIX}%`).execute();
  const index = (username: string) => Number(username.slice(RECORDER_PREFIX.length));
  recorders.sort((a, b) => index(a.username) - index(b.username));
  return { heavyUserId: heavy.id, recorderIds: recorders.map((r) => r.id) };
}

export async function seedUsage(db: Db, counts: UsageSeedCounts, progress: Progress, now = Date.now()): Promise<UsageSeed> {
  await seedDemoData(db, { users: counts.crowd, messages: 0, now }, progress);

  // Plans as the Stripe mirror keeps them: Unlimited (no credits_amount) for the heavy user, a
  // large allowance for the recorders so that no use is refused.
  const unlimited = { id: 'prod_bench_unlimited', name: 'Bench Unlimited' };
  await db
    .insertInto('billing_products')
    .values([benchProduct(unlimited.id, unlimited.name, null, now), benchProduct(LARGE_PLAN.id, LARGE_PLAN.name, LARGE_PLAN.queries, now)])
    .execute();
  // Whole seconds, as Stripe's periods: the server's period starts where the seeded totals do.
  const periodStart = Math.floor((now - 10 * DAY_MS) / 1000) * 1000;

  const heavy = benchUser(HEAVY_USERNAME, now);
  const recorders = Array.from({ length: counts.recorders }, (_, i) => benchUser(`${RECORDER_PREFIX}${i}`, now));
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('users').values(heavy).execute();
    await trx
      .insertInto('billing_subscriptions')
      .values(benchSubscription(heavy.id, 'heavy', unlimited, periodStart, now))
      .execute();
    for (let from = 0; from < recorders.length; from += 500) {
      const some = recorders.slice(from, from + 500);
      await trx.insertInto('users').values(some).execute();
      const planned = some.map((user, k) => ({ user, i: from + k })).filter(({ i }) => !paysWithCredits(i));
      const paying = some.map((user, k) => ({ user, i: from + k })).filter(({ i }) => paysWithCredits(i));
      if (planned.length)
        await trx
          .insertInto('billing_subscriptions')
          .values(planned.map(({ user, i }) => benchSubscription(user.id, String(i), LARGE_PLAN, periodStart, now)))
          .execute();
      // Through the ledger, so its trigger writes the balance as a pack purchase would.
      if (paying.length)
        await trx
          .insertInto('credit_ledger')
          .values(
            paying.map(({ user, i }) => ({
              id: randomUUID(),
              user_id: user.id,
              amount: 100_000_000,
              reason: 'Credit pack',
              source: `bench:${i}`,
              created_at: now,
            })),
          )
          .execute();
    }
  });

  // The crowd numbered 0…crowd-1, for the series to join on.
  await sql`create table bench_usage_users (n integer primary key, user_id text not null)`.execute(db);
  await sql`insert into bench_usage_users (n, user_id)
    select row_number() over (order by created_at, id) - 1, id from users where username not like 'bench.%'`.execute(db);

  const heavyUses = Math.floor(counts.uses / 10);
  const crowdUses = counts.uses - heavyUses;
  const perCrowdUser = Math.max(1, Math.ceil(crowdUses / counts.crowd));
  const span = HISTORY_DAYS * DAY_MS - 1;
  const start = now - HISTORY_DAYS * DAY_MS;
  // Every period boundary of the seeded plans: periodStart - k × PERIOD_MS.
  const base = periodStart - Math.ceil(HISTORY_DAYS / 30 + 1) * PERIOD_MS;
  const periodEnd = new Date(periodStart + PERIOD_MS).toISOString();
  const fromAllowance: UsePayment = {
    fromAllowance: sql`1`,
    fromCredits: sql`0`,
    periodStart: sql`${n(base)} + ((t - ${n(base)}) / ${n(PERIOD_MS)}) * ${n(PERIOD_MS)}`,
    orgId: sql`null`,
    orgPeriodStart: sql`null`,
    fromSeat: sql`0`,
    fromPool: sql`0`,
    answer: sql`'{"requestId":"seed-' || i || '","units":1,"charged":{"allowance":1,"credits":0},"remaining":{"allowance":null,"credits":0,"periodEnd":"${sql.raw(periodEnd)}"}}'`,
    engineVersion: sql`'5.' || (4 + pos / 7 % ${n(ENGINE_VERSIONS)})`,
  };

  const total = heavyUses + crowdUses;
  for (let from = 0; from < heavyUses; from += BATCH) {
    const to = Math.min(heavyUses, from + BATCH) - 1;
    await insertUses(db, {
      from,
      to,
      per: n(heavyUses),
      start,
      span,
      user: sql`cast(${heavy.id} as text)`,
      pos: sql`i`,
      project: sql`i % ${n(HEAVY_PROJECTS)}`,
      join: sql``,
      paid: fromAllowance,
    });
    progress('uses', to + 1, total);
  }
  // The crowd's uses come user by user (each user's in time order), as the indexes on user_id like.
  for (let from = heavyUses; from < total; from += BATCH) {
    const to = Math.min(total, from + BATCH) - 1;
    const j = sql`(i - ${n(heavyUses)})`;
    await insertUses(db, {
      from,
      to,
      per: n(perCrowdUser),
      start,
      span,
      user: sql`u.user_id`,
      pos: sql`${j} % ${n(perCrowdUser)}`,
      project: sql`u.n % ${n(CROWD_PROJECTS)}`,
      join: sql`join bench_usage_users u on u.n = ${j} / ${n(perCrowdUser)}`,
      paid: fromAllowance,
    });
    progress('uses', to + 1, total);
  }
  await sql`drop table bench_usage_users`.execute(db);

  await rollUpUses(db, sql`period_start + ${n(PERIOD_MS)}`, progress);

  return { heavyUserId: heavy.id, recorderIds: recorders.map((r) => r.id) };
}
