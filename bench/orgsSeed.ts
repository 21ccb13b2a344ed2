// bench:orgs's data (issue 38): one organisation of 1,000 members, each holding one of the 1,000
// seats of its live plan, a shared pool and some members with a monthly limit on it; `uses` uses
// of its members over the last year, paid as recording pays them (the seat first, then the pool),
// with the roll-ups recording writes beside them; and, the baseline, 100 users of a personal plan
// with as many uses each as a member (of the nine in ten who stay within their seat). The uses are
// written in time order, everyone's interleaved as they arrive, by bench/usageSeed.ts's
// insertUses; its rollUpUses sums everyone's own daily rows and periods.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres, type Db } from '../server/db';
import { utcMonth } from '../server/services/metering/rules';
import {
  BATCH,
  DAY_MS,
  HISTORY_DAYS,
  LARGE_PLAN,
  PERIOD_MS,
  benchProduct,
  benchSubscription,
  benchUser,
  insertUses,
  n,
  rollUpUses,
  type Progress,
} from './usageSeed';

export const ORG_NAME = 'Bench Studio';
export const MEMBERS = 1_000;
const MEMBER_PREFIX = 'bench.member';
const PERSONAL_PREFIX = 'bench.personal';
/** One member in ten uses the AI four times as much as the others and goes past their seat's allowance. */
export const isHeavy = (index: number) => index % 10 === 5;
const HEAVY_WEIGHT = 4;
/** One member in four has a monthly limit on the pool, above what a heavy member takes of it in a period. */
const hasLimit = (index: number) => index % 4 === 1;
export const MEMBER_LIMIT = 1_000;
/**
 * The seat plan's queries per seat and period: three periods' worth of a light member's uses
 * (2,100 with 10,000,000 uses), to two significant digits. A light member has used 0.93 of a
 * period's worth this period and has room for the run's uses; a heavy member, 3.7, is past it and
 * the pool pays.
 */
function seatAllowanceFor(lightPerPeriod: number): number {
  const wanted = Math.max(10, 3 * lightPerPeriod);
  const unit = 10 ** (Math.floor(Math.log10(wanted)) - 1);
  return Math.round(wanted / unit) * unit;
}
/** The pack credited to the pool before the year's first use: the heavy members' overflow never empties it. */
const POOL_GRANT = 2_000_000;
/** The organisation's current period began this long ago (of 30 days): a period almost at its end. */
export const PERIOD_DAYS_IN = 28;
const ORG_PROJECTS = 20;
const ENGINE_VERSIONS = 4;
/** A new engine version every 90 days: a member's day's uses are on one. */
const ENGINE_MS = 90 * DAY_MS;

const role = (index: number) => (index === 0 ? 'owner' : index <= 4 ? 'admin' : index <= 7 ? 'billing' : 'member');

export interface OrgSeed {
  orgId: string;
  /** The owner (member 0), who reads the organisation's pages. */
  ownerId: string;
  /** The members within their seat's allowance (all but the heavy ones), in order. */
  seatIds: string[];
  /** The heavy members: past their seat's allowance this period, the pool pays their uses. */
  poolIds: string[];
  /** The users of a personal plan, the baseline, with as many uses each as a member in `seatIds`. */
  personalIds: string[];
  /** The organisation's current period, in ms. */
  period: { start: number; end: number };
  /** Queries per seat and period. */
  seatAllowance: number;
}

export interface OrgSeedCounts {
  uses: number;
  personal: number;
}

const indexOf = (username: string, prefix: string) => Number(username.slice(prefix.length));

/** The seed already in the database (a kept file or schema), or undefined; an error once its period has ended. */
export async function existingOrgSeed(db: Db, now = Date.now()): Promise<OrgSeed | undefined> {
  const org = await db.selectFrom('orgs').select('id').where('name', '=', ORG_NAME).executeTakeFirst();
  if (!org) return undefined;
  const subscription = await db
    .selectFrom('org_subscriptions as s')
    .innerJoin('billing_products as p', 'p.id', 's.product_id')
    .select(['s.current_period_start', 's.current_period_end', 'p.metadata'])
    .where('s.org_id', '=', org.id)
    .executeTakeFirstOrThrow();
  const period = { start: Number(subscription.current_period_start) * 1000, end: Number(subscription.current_period_end) * 1000 };
  if (period.end <= now)
    throw new Error(`the kept seed's organisation period ended on ${new Date(period.end).toISOString()}: seed a fresh one`);
  const members = await db
    .selectFrom('org_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.username'])
    .where('m.org_id', '=', org.id)
    .execute();
  members.sort((a, b) => indexOf(a.username, MEMBER_PREFIX) - indexOf(b.username, MEMBER_PREFIX));
  const personal = await db.selectFrom('users').select(['id', 'username']).where('username', 'like', `${PERSONAL_PREFIX}%`).execute();
  personal.sort((a, b) => indexOf(a.username, PERSONAL_PREFIX) - indexOf(b.username, PERSONAL_PREFIX));
  return {
    orgId: org.id,
    ownerId: members[0]!.id,
    seatIds: members.filter((m) => !isHeavy(indexOf(m.username, MEMBER_PREFIX))).map((m) => m.id),
    poolIds: members.filter((m) => isHeavy(indexOf(m.username, MEMBER_PREFIX))).map((m) => m.id),
    personalIds: personal.map((p) => p.id),
    period,
    seatAllowance: Number((JSON.parse(subscription.metadata) as { credits_amount: string }).credits_amount),
  };
}

/** Seeds the organisation, its members' uses and the personal users; answers them and how many uses were written. */
export async function seedOrgs(
  db: Db,
  counts: OrgSeedCounts,
  progress: Progress,
  now = Date.now(),
): Promise<OrgSeed & { uses: number; personalUses: number }> {
  const orgId = randomUUID();
  // Whole seconds, as Stripe's periods.
  const periodStart = Math.floor((now - PERIOD_DAYS_IN * DAY_MS) / 1000) * 1000;
  const period = { start: periodStart, end: periodStart + PERIOD_MS };
  const start = now - HISTORY_DAYS * DAY_MS;
  const span = HISTORY_DAYS * DAY_MS - 1;
  const personalStart = Math.floor((now - 10 * DAY_MS) / 1000) * 1000;

  const members = Array.from({ length: MEMBERS }, (_, i) => benchUser(`${MEMBER_PREFIX}${i}`, start - DAY_MS));
  const personal = Array.from({ length: counts.personal }, (_, i) => benchUser(`${PERSONAL_PREFIX}${i}`, now));
  const light = members.filter((_, i) => !isHeavy(i));
  const heavy = members.filter((_, i) => isHeavy(i));
  // A block of the organisation's uses per tick of time: each light member's one, each heavy
  // member's HEAVY_WEIGHT; and each personal user's one.
  const block = light.length + HEAVY_WEIGHT * heavy.length;
  const ticks = Math.max(1, Math.round(counts.uses / block));
  const total = ticks * block;
  const personalTotal = ticks * personal.length;
  const seatAllowance = seatAllowanceFor((ticks * PERIOD_MS) / span);
  // A limited member never takes more of the pool in a period than their limit: what they take is
  // what they use past the seat's allowance, at most a period's share of their uses (and one).
  const mostInAPeriod = Math.ceil((HEAVY_WEIGHT * ticks * PERIOD_MS) / span) + 1;
  if (mostInAPeriod - seatAllowance > MEMBER_LIMIT)
    throw new Error(`${counts.uses} uses would take heavy members past their limit: the seed would hold uses the app refuses`);

  await db
    .insertInto('billing_products')
    .values([
      benchProduct(LARGE_PLAN.id, LARGE_PLAN.name, LARGE_PLAN.queries, now),
      benchProduct('prod_bench_seat', 'Bench Studio Seat', seatAllowance, now),
    ])
    .execute();
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < members.length; from += 500)
      await trx
        .insertInto('users')
        .values(members.slice(from, from + 500))
        .execute();
    for (let from = 0; from < personal.length; from += 500) {
      const some = personal.slice(from, from + 500);
      await trx.insertInto('users').values(some).execute();
      await trx
        .insertInto('billing_subscriptions')
        .values(some.map((user, k) => benchSubscription(user.id, `personal${from + k}`, LARGE_PLAN, personalStart, now)))
        .execute();
    }
    const founded = start - DAY_MS;
    await trx.insertInto('orgs').values({ id: orgId, name: ORG_NAME, created_at: founded, updated_at: founded }).execute();
    await trx
      .insertInto('org_members')
      .values(
        members.map((user, i) => ({
          org_id: orgId,
          user_id: user.id,
          role: role(i),
          joined_at: founded,
          monthly_limit: hasLimit(i) ? MEMBER_LIMIT : null,
        })),
      )
      .execute();
    await trx
      .insertInto('org_billing')
      .values({
        org_id: orgId,
        customer_id: 'cus_bench_org',
        company_name: 'Bench Studio Ltd',
        address_line1: '1 Bench Street',
        address_line2: null,
        city: 'London',
        postal_code: 'N1 1AA',
        region: null,
        country: 'GB',
        tax_id: null,
        updated_at: founded,
      })
      .execute();
    await trx
      .insertInto('org_subscriptions')
      .values({
        id: 'sub_bench_org',
        org_id: orgId,
        customer_id: 'cus_bench_org',
        status: 'active',
        item_id: 'si_bench_org',
        price_id: 'price_prod_bench_seat',
        product_id: 'prod_bench_seat',
        product_name: 'Bench Studio Seat',
        seats: MEMBERS,
        unit_amount: 2000,
        currency: 'usd',
        cancel_at_period_end: 0,
        current_period_start: period.start / 1000,
        current_period_end: period.end / 1000,
        created: Math.floor(founded / 1000),
        synced_at: now,
      })
      .execute();
    await trx
      .insertInto('org_credit_ledger')
      .values({ id: randomUUID(), org_id: orgId, amount: POOL_GRANT, reason: 'Credit pack', source: 'bench:org-pack', created_at: founded })
      .execute();
  });

  // Everyone numbered for the series to join on: the light members 0…, the heavy ones, the personal users.
  await sql`create table bench_org_numbers (n integer primary key, user_id text not null)`.execute(db);
  await db.transaction().execute(async (trx) => {
    const numbered = [...light, ...heavy, ...personal].map((user, k) => sql`(${n(k)}, ${user.id})`);
    for (let from = 0; from < numbered.length; from += 500)
      await sql`insert into bench_org_numbers (n, user_id) values ${sql.join(numbered.slice(from, from + 500))}`.execute(trx);
  });

  // Use i is in tick i / block; its place q = i % block is a light member's (q < light), else one
  // of a heavy member's HEAVY_WEIGHT that tick. Each member's uses are spread evenly over the year.
  const q = sql`(i % ${n(block)})`;
  const tick = sql`(i / ${n(block)})`;
  const L = n(light.length);
  const W = n(HEAVY_WEIGHT);
  // The organisation's periods: 30 days, one boundary at its current period's start.
  const base = period.start - Math.ceil(HISTORY_DAYS / 30 + 1) * PERIOD_MS;
  const orgPeriod = sql`(${n(base)} + (t - ${n(base)}) / ${n(PERIOD_MS)} * ${n(PERIOD_MS)})`;
  // The member's uses before this one in its period: its place less the place of the period's first.
  const firstInPeriod = sql`(case when ${orgPeriod} <= ${n(start)} then 0 else ((${orgPeriod} - ${n(start)}) * per + ${n(span - 1)}) / ${n(span)} end)`;
  const bySeat = sql`(case when pos - ${firstInPeriod} < ${n(seatAllowance)} then 1 else 0 end)`;
  // The members' own periods are UTC months (they have no plan of their own).
  const months: number[] = [];
  for (let m = utcMonth(start).start; m <= now + PERIOD_MS; m = utcMonth(m).end) months.push(m);
  const monthOf = sql`(case ${sql.join(
    months.slice(1).map((end, k) => sql`when t < ${n(end)} then ${n(months[k]!)}`),
    sql` `,
  )} end)`;
  const monthEndIso = sql`(case ${sql.join(
    months.slice(1).map((end) => sql`when t < ${n(end)} then ${sql.lit(new Date(end).toISOString())}`),
    sql` `,
  )} end)`;
  // A period starting on a month's first is a member's; the personal plans' are 30 days.
  const periodEnd = sql`(case period_start ${sql.join(
    months.slice(1).map((end, k) => sql`when ${n(months[k]!)} then ${n(end)}`),
    sql` `,
  )} else period_start + ${n(PERIOD_MS)} end)`;
  const personalBase = personalStart - Math.ceil(HISTORY_DAYS / 30 + 1) * PERIOD_MS;
  const personalEnd = new Date(personalStart + PERIOD_MS).toISOString();
  const P = n(personal.length);
  const orgIdText = sql.lit(orgId);
  const engineVersion = sql`'5.' || (4 + t / ${n(ENGINE_MS)} % ${n(ENGINE_VERSIONS)})`;

  // A batch of ticks: the organisation's uses in one statement, the personal users' in another.
  const ticksPerBatch = Math.max(1, Math.floor(BATCH / block));
  for (let first = 0; first < ticks; first += ticksPerBatch) {
    const last = Math.min(ticks, first + ticksPerBatch);
    await insertUses(db, {
      from: first * block,
      to: last * block - 1,
      start,
      span,
      user: sql`u.user_id`,
      pos: sql`(case when ${q} < ${L} then ${tick} else ${tick} * ${W} + (${q} - ${L}) % ${W} end)`,
      per: sql`(case when ${q} < ${L} then ${n(ticks)} else ${n(HEAVY_WEIGHT * ticks)} end)`,
      project: sql`u.n % ${n(ORG_PROJECTS)}`,
      join: sql`join bench_org_numbers u on u.n = (case when ${q} < ${L} then ${q} else ${L} + (${q} - ${L}) / ${W} end)`,
      paid: {
        fromAllowance: sql`0`,
        fromCredits: sql`0`,
        periodStart: monthOf,
        orgId: orgIdText,
        orgPeriodStart: orgPeriod,
        fromSeat: bySeat,
        fromPool: sql`1 - ${bySeat}`,
        answer: sql`'{"requestId":"seed-' || i || '","units":1,"charged":{"allowance":0,"credits":0,"org":{"orgId":"${sql.raw(orgId)}","seat":' || ${bySeat} || ',"pool":' || (1 - ${bySeat}) || '}},"remaining":{"allowance":0,"credits":0,"periodEnd":"' || ${monthEndIso} || '"}}'`,
        engineVersion,
      },
    });
    // Numbered after the organisation's; j is the use's number among the personal users'.
    const j = sql`(i - ${n(total)})`;
    await insertUses(db, {
      from: total + first * personal.length,
      to: total + last * personal.length - 1,
      start,
      span,
      user: sql`u.user_id`,
      pos: sql`${j} / ${P}`,
      per: n(ticks),
      project: sql`u.n % ${n(ORG_PROJECTS)}`,
      join: sql`join bench_org_numbers u on u.n = ${n(light.length + heavy.length)} + ${j} % ${P}`,
      paid: {
        fromAllowance: sql`1`,
        fromCredits: sql`0`,
        periodStart: sql`${n(personalBase)} + ((t - ${n(personalBase)}) / ${n(PERIOD_MS)}) * ${n(PERIOD_MS)}`,
        orgId: sql`null`,
        orgPeriodStart: sql`null`,
        fromSeat: sql`0`,
        fromPool: sql`0`,
        answer: sql`'{"requestId":"seed-' || i || '","units":1,"charged":{"allowance":1,"credits":0},"remaining":{"allowance":null,"credits":0,"periodEnd":"${sql.raw(personalEnd)}"}}'`,
        engineVersion,
      },
    });
    progress('uses', last * (block + personal.length), total + personalTotal);
  }
  await sql`drop table bench_org_numbers`.execute(db);

  // Everyone's own daily rows and periods (the organisation paid for every member's use: 0 of their own).
  await rollUpUses(db, periodEnd, progress);
  // The organisation's: its daily rows, what it paid per member and period, each seat, the pool.
  await db.transaction().execute(async (trx) => {
    if (isPostgres(db)) await sql`set local work_mem = '512MB'`.execute(trx);
    await sql`insert into org_usage_daily (org_id, day, user_id, project_id, engine_version, uses, units)
      select org_id, occurred_at / ${n(DAY_MS)}, user_id, project_id, engine_version, count(*), sum(units)
      from usage_events where org_id is not null
      group by org_id, occurred_at / ${n(DAY_MS)}, user_id, project_id, engine_version
      order by 2`.execute(trx);
    progress("the organisation's daily roll-ups", 1, 1);
    await sql`insert into org_member_periods (org_id, user_id, period_start, seat_used, pool_used, last_use_at)
      select org_id, user_id, org_period_start, sum(from_seat), sum(from_pool), max(recorded_at)
      from usage_events where org_id is not null
      group by org_id, user_id, org_period_start`.execute(trx);
    progress("the members' periods", 1, 1);
    await sql`insert into org_seats (id, org_id, user_id, period_start, allowance_used, assigned_at)
      select 'seat-' || m.user_id, m.org_id, m.user_id, ${n(period.start)}, coalesce(p.seat_used, 0), m.joined_at
      from org_members m
      left join org_member_periods p on p.org_id = m.org_id and p.user_id = m.user_id and p.period_start = ${n(period.start)}
      where m.org_id = ${orgId}`.execute(trx);
    await sql`insert into org_pools (org_id, credits, high_water, low_notified_at)
      select ${orgId}, ${n(POOL_GRANT)} - coalesce(sum(pool_used), 0), ${n(POOL_GRANT)}, null
      from org_member_periods where org_id = ${orgId}`.execute(trx);
  });

  return {
    orgId,
    ownerId: members[0]!.id,
    seatIds: light.map((u) => u.id),
    poolIds: heavy.map((u) => u.id),
    personalIds: personal.map((u) => u.id),
    period,
    seatAllowance,
    uses: total,
    personalUses: personalTotal,
  };
}
