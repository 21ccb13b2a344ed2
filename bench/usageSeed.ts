// bench:usage's data: a crowd of users from seedDemoData, `uses` uses among them of which a tenth
// are one heavy user's, spread over the last year, and 1,000 users who record during the run.
// Uses are written with one INSERT … SELECT per batch over a generated series (generate_series on
// PostgreSQL, a recursive CTE on SQLite); the daily roll-ups and period totals are summed from them.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Db } from '../server/db';
import type { UsersTable } from '../server/db/schema';
import { seedDemoData } from '../server/services/demoData';

const DAY_MS = 86_400_000;
/** Billing periods of the seeded plans: 30 days, the current one started 10 days ago. */
const PERIOD_MS = 30 * DAY_MS;
/** Uses go back this far: the history's 90 days and the months before them. */
const HISTORY_DAYS = 365;
/** Uses per INSERT … SELECT: a statement of seconds, and a progress line after each. */
const BATCH = 500_000;
/** The heavy user's Unreal projects and everyone's engine versions: the history's tables group by them. */
const HEAVY_PROJECTS = 8;
const CROWD_PROJECTS = 5;
const ENGINE_VERSIONS = 4;

export const HEAVY_USERNAME = 'bench.heavy';
const RECORDER_PREFIX = 'bench.recorder';
/** Recorders whose index is 3 mod 4 have no plan and pay with pack credits (a ledger entry per use). */
export const paysWithCredits = (index: number) => index % 4 === 3;

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

const benchUser = (username: string, now: number): UsersTable => ({
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

/** The seed already in the database (a kept file or schema), or undefined. */
export async function existingSeed(db: Db): Promise<UsageSeed | undefined> {
  const heavy = await db.selectFrom('users').select('id').where('username', '=', HEAVY_USERNAME).executeTakeFirst();
  if (!heavy) return undefined;
  const recorders = await db.selectFrom('users').select(['id', 'username']).where('username', 'like', `${RECORDER_PREFIX}%`).execute();
  const index = (username: string) => Number(username.slice(RECORDER_PREFIX.length));
  recorders.sort((a, b) => index(a.username) - index(b.username));
  return { heavyUserId: heavy.id, recorderIds: recorders.map((r) => r.id) };
}

export async function seedUsage(
  db: Db,
  counts: UsageSeedCounts,
  progress: (what: string, done: number, total: number) => void,
  now = Date.now(),
): Promise<UsageSeed> {
  const postgres = isPostgres(db);
  await seedDemoData(db, { users: counts.crowd, messages: 0, now }, progress);

  // Plans as the Stripe mirror keeps them: Unlimited (no credits_amount) for the heavy user, a
  // large allowance for the recorders so that no use is refused.
  await db
    .insertInto('billing_products')
    .values([
      { id: 'prod_bench_unlimited', name: 'Bench Unlimited', description: null, images: '[]', active: 1, metadata: '{}', synced_at: now },
      {
        id: 'prod_bench_large',
        name: 'Bench Large',
        description: null,
        images: '[]',
        active: 1,
        metadata: '{"credits_amount":"100000000"}',
        synced_at: now,
      },
    ])
    .execute();
  const periodStart = now - 10 * DAY_MS;
  const subscription = (userId: string, n: string, product: 'unlimited' | 'large') => ({
    id: `sub_bench_${n}`,
    user_id: userId,
    customer_id: `cus_bench_${n}`,
    status: 'active',
    item_id: `si_bench_${n}`,
    price_id: `price_bench_${product}`,
    unit_amount: 2000,
    currency: 'usd',
    recurring_interval: 'month',
    recurring_interval_count: 1,
    product_id: `prod_bench_${product}`,
    product_name: product === 'unlimited' ? 'Bench Unlimited' : 'Bench Large',
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

  const heavy = benchUser(HEAVY_USERNAME, now);
  const recorders = Array.from({ length: counts.recorders }, (_, i) => benchUser(`${RECORDER_PREFIX}${i}`, now));
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('users').values(heavy).execute();
    await trx
      .insertInto('billing_subscriptions')
      .values(subscription(heavy.id, 'heavy', 'unlimited'))
      .execute();
    for (let from = 0; from < recorders.length; from += 500) {
      const some = recorders.slice(from, from + 500);
      await trx.insertInto('users').values(some).execute();
      const planned = some.map((user, k) => ({ user, i: from + k })).filter(({ i }) => !paysWithCredits(i));
      const paying = some.map((user, k) => ({ user, i: from + k })).filter(({ i }) => paysWithCredits(i));
      if (planned.length)
        await trx
          .insertInto('billing_subscriptions')
          .values(planned.map(({ user, i }) => subscription(user.id, String(i), 'large')))
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
  const n = (v: number) => sql.raw(String(v));
  const series = (from: number, to: number): { with: RawBuilder<unknown>; from: RawBuilder<unknown> } =>
    postgres
      ? { with: sql``, from: sql`generate_series(${n(from)}::bigint, ${n(to)}::bigint) as s(i)` }
      : { with: sql`with recursive s(i) as (select ${n(from)} union all select i + 1 from s where i < ${n(to)})`, from: sql`s` };
  // 64 hex digits, as the SHA-256 of a real use's content.
  const fingerprint = postgres ? sql`md5(i::text) || md5((i + 1)::text)` : sql`lower(hex(randomblob(32)))`;
  const periodEnd = new Date(periodStart + PERIOD_MS).toISOString();

  /** Writes uses `from`…`to` (global numbers): `who` gives user_id, pos (0…per-1) and the project. */
  const insertUses = async (
    from: number,
    to: number,
    per: number,
    who: { user: RawBuilder<unknown>; pos: RawBuilder<unknown>; project: RawBuilder<unknown>; join: RawBuilder<unknown> },
  ) => {
    const s = series(from, to);
    await sql`${s.with}
      insert into usage_events (id, user_id, request_id, fingerprint, units, from_allowance, from_credits, period_start,
        occurred_at, recorded_at, project_id, engine_version, plugin_version, model, feature, answer)
      select 'seed-' || i, user_id, 'seed-' || i, ${fingerprint}, 1, 1, 0, ${n(base)} + ((t - ${n(base)}) / ${n(PERIOD_MS)}) * ${n(PERIOD_MS)},
        t, t, project_id, engine_version, '1.4.0', 'sage-1', null,
        '{"requestId":"seed-' || i || '","units":1,"charged":{"allowance":1,"credits":0},"remaining":{"allowance":null,"credits":0,"periodEnd":"${sql.raw(periodEnd)}"}}'
      from (
        select i, ${who.user} as user_id, ${n(start)} + (${who.pos}) * ${n(span)} / ${n(per)} as t,
          'project-' || (${who.project}) as project_id, '5.' || (4 + (${who.pos}) / 7 % ${n(ENGINE_VERSIONS)}) as engine_version
        from ${s.from} ${who.join}
      ) x`.execute(db);
  };

  const total = heavyUses + crowdUses;
  for (let from = 0; from < heavyUses; from += BATCH) {
    const to = Math.min(heavyUses, from + BATCH) - 1;
    await insertUses(from, to, heavyUses, {
      user: sql`cast(${heavy.id} as text)`,
      pos: sql`i`,
      project: sql`i % ${n(HEAVY_PROJECTS)}`,
      join: sql``,
    });
    progress('uses', to + 1, total);
  }
  // The crowd's uses come user by user (each user's in time order), as the indexes on user_id like.
  for (let from = heavyUses; from < total; from += BATCH) {
    const to = Math.min(total, from + BATCH) - 1;
    const j = sql`(i - ${n(heavyUses)})`;
    await insertUses(from, to, perCrowdUser, {
      user: sql`u.user_id`,
      pos: sql`${j} % ${n(perCrowdUser)}`,
      project: sql`u.n % ${n(CROWD_PROJECTS)}`,
      join: sql`join bench_usage_users u on u.n = ${j} / ${n(perCrowdUser)}`,
    });
    progress('uses', to + 1, total);
  }
  await sql`drop table bench_usage_users`.execute(db);

  // What recording would have summed: the charts' daily rows and each period's totals. PostgreSQL
  // gets the memory to sum them in one pass (its default work_mem spills to disk).
  await db.transaction().execute(async (trx) => {
    if (postgres) await sql`set local work_mem = '512MB'`.execute(trx);
    await sql`insert into usage_daily (user_id, day, project_id, engine_version, uses, units)
      select user_id, occurred_at / ${n(DAY_MS)}, project_id, engine_version, count(*), sum(units)
      from usage_events group by user_id, occurred_at / ${n(DAY_MS)}, project_id, engine_version`.execute(trx);
    progress('daily roll-ups', 1, 1);
    await sql`insert into usage_periods (user_id, period_start, period_end, allowance_used, credits_used)
      select user_id, period_start, period_start + ${n(PERIOD_MS)}, sum(from_allowance), sum(from_credits)
      from usage_events group by user_id, period_start`.execute(trx);
    progress('period totals', 1, 1);
  });

  return { heavyUserId: heavy.id, recorderIds: recorders.map((r) => r.id) };
}
