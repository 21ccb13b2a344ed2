import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  USAGE_CSV_COLUMNS,
  USAGE_ERRORS,
  exhaustedRefusal,
  type OrgRemaining,
  type HoldUsage,
  type RecordUsage,
  type UsageHeld,
  type UsageHistory,
  type UsageRecorded,
  type UsageRemaining,
  type UsageSummary,
} from '../../../contract/usage';
import type { Db } from '../../db';
import { createGroupCommit } from '../../db/groupCommit';
import { AppError, badRequest, conflict } from '../../errors';
import { pagedCsv } from '../csv';
import type { Mailer } from '../mailer';
import { orgNoticeMail, usageNoticeMail, type OrgNotice } from './notices';
import {
  allowanceLeft,
  charge,
  exhaustion,
  noticesDue,
  orgCharge,
  poolLowDue,
  spend,
  unitsAvailable,
  useTime,
  type OrgBalance,
  type UsageNotice,
} from './rules';
import { createHoldService } from './holds';
import { createSeatStatements, readSeatAccount, seatPlanOf, type SeatAccount, type SeatPlan } from './orgSeat';
import { createRecordingStatements } from './recording';
import { createPlanStatement, remainingOf, standingOf } from './standing';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Raw uses deleted per statement when pruning: short transactions that never hold up a use for long. */
const PRUNE_BATCH = 5_000;

/**
 * What a seat holder's organisation pays of `units` and what it leaves them (decision 042), with
 * the notices the use sets off: their limit's 80 % and 100 %, the pool falling under 10 %.
 */
function seatCharge(plan: SeatPlan, seat: SeatAccount, units: number) {
  const limitLeft = seat.monthlyLimit === null ? null : Math.max(0, seat.monthlyLimit - seat.poolUsed);
  const balance: OrgBalance = { seatLeft: allowanceLeft(plan.allowancePerSeat, seat.seatUsed), pool: seat.pool, limitLeft };
  const paid = orgCharge(units, balance);
  const limitNotices =
    seat.monthlyLimit === null
      ? []
      : noticesDue({
          allowance: seat.monthlyLimit,
          usedBefore: seat.poolUsed,
          usedAfter: seat.poolUsed + paid.pool,
          sent80: seat.sent80,
          sent100: seat.sent100,
          creditsBefore: 0,
          creditsAfter: 0,
        });
  const poolAfter = seat.pool - paid.pool;
  const notices: OrgNotice[] = [];
  if (limitNotices.includes('allowance_100')) notices.push({ kind: 'limit_100', member: '', limit: seat.monthlyLimit ?? 0 });
  else if (limitNotices.includes('allowance_80')) notices.push({ kind: 'limit_80', member: '', limit: seat.monthlyLimit ?? 0 });
  if (paid.pool > 0 && poolLowDue({ highWater: seat.highWater, after: poolAfter, notified: seat.lowNotified }))
    notices.push({ kind: 'pool_low', credits: poolAfter });
  const limitAfter = limitLeft === null ? null : limitLeft - paid.pool;
  return {
    orgId: plan.orgId,
    orgName: plan.orgName,
    periodStart: plan.period.start,
    balance,
    paid,
    notices,
    marks80: limitNotices.length > 0,
    marks100: limitNotices.includes('allowance_100'),
    remainingAfter: {
      orgId: plan.orgId,
      name: plan.orgName,
      seat: balance.seatLeft === null ? null : balance.seatLeft - paid.seat,
      pool: Math.max(0, limitAfter === null ? poolAfter : Math.min(poolAfter, limitAfter)),
      limit: limitAfter,
      periodEnd: new Date(plan.period.end).toISOString(),
    } satisfies OrgRemaining,
  };
}

export interface MeteringDeps {
  db: Db;
  /** FREE_QUERIES_PER_MONTH: what a user without a plan may use per UTC month. */
  freeQueriesPerMonth: number;
  /** USAGE_RETENTION_DAYS: how long raw uses are kept, and so how old a use's `occurredAt` may be. */
  retentionDays: number;
  /** USAGE_HOLD_MINUTES: how long a hold stays open unsettled before housekeeping gives it back. */
  holdMinutes: number;
  mailer: Mailer;
  publicUrl: string;
  onMailError: (err: unknown) => void;
  /**
   * Told after the commit of each use that took pack credits (automatic top-up, issue 39): the
   * balance before and after it, and the use's id, which is the same for every retry of the use.
   */
  onCreditsTaken?: (taken: CreditsTaken) => void;
  /** As `onCreditsTaken`, for a use whose studio's shared pool paid part of it: the pool before and after. */
  onPoolTaken?: (taken: PoolTaken) => void;
}

/** A use that took credits from a studio's shared pool, as committed. */
export interface PoolTaken {
  orgId: string;
  useId: string;
  before: number;
  after: number;
  at: number;
}

/** A use that took pack credits, as committed. */
export interface CreditsTaken {
  userId: string;
  useId: string;
  before: number;
  after: number;
  at: number;
}

/**
 * The SHA-256 of what a use said: the same `requestId` with another fingerprint is another use. A
 * hold's says it is a hold (and its `minUnits`): a use and a hold under one id are two uses.
 */
function fingerprintOf(input: RecordUsage, hold: HoldTerms | null): string {
  const said: unknown[] = [input.units, input.occurredAt ?? null, input.projectId ?? null, input.engineVersion ?? null];
  said.push(input.pluginVersion ?? null, input.model ?? null, input.feature ?? null);
  if (hold) said.push('hold', hold.minUnits);
  return createHash('sha256').update(JSON.stringify(said)).digest('hex');
}

/** What a hold asks besides a use's fields: the least it can run with, and when it is released if not settled. */
interface HoldTerms {
  minUnits: number;
  expiresAt: number;
}

const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/** When the use happened (rules `useTime`), or its 400. */
function occurredAtOf(input: RecordUsage, arrival: number, retentionDays: number): number {
  const time = useTime(input.occurredAt === undefined ? undefined : Date.parse(input.occurredAt), arrival, retentionDays);
  if ('at' in time) return time.at;
  if (time.refused === 'too_old') {
    throw badRequest(USAGE_ERRORS.occurredAtTooOld, `occurredAt is older than the ${retentionDays} days uses are kept`);
  }
  throw badRequest(USAGE_ERRORS.occurredAtInFuture, 'occurredAt is more than a day after the request arrived');
}
export const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Adds `amount` per key and answers the keys with the most units first. */
export function tallied<K extends string>(rows: { key: string; uses: number; units: number }[], name: K) {
  const byKey = new Map<string, { uses: number; units: number }>();
  for (const row of rows) {
    const seen = byKey.get(row.key) ?? { uses: 0, units: 0 };
    byKey.set(row.key, { uses: seen.uses + row.uses, units: seen.units + row.units });
  }
  return [...byKey.entries()]
    .sort(([a, x], [b, y]) => y.units - x.units || a.localeCompare(b))
    .map(([key, t]) => ({ [name]: key, ...t }) as { [P in K]: string } & { uses: number; units: number });
}

/**
 * Usage metering (issue 26, decisions 027 and 028): every use of the AI charged once against the
 * period's allowance and then pack credits, what is left, and the figures the dashboard and the
 * console show. One user's uses are serialised on their credit balance row (standing.ts, recording.ts).
 */
export function createMeteringService(deps: MeteringDeps) {
  const { db, freeQueriesPerMonth } = deps;
  const statements = createRecordingStatements(db);
  const seats = createSeatStatements(db);
  const planOfUse = createPlanStatement(db);

  /** What the organisation has left for a seat holder now, or null while they hold no seat. */
  async function seatRemaining(userId: string, now: number): Promise<OrgRemaining | null> {
    const seatPlan = await seats.planOf(userId, now);
    const seat = seatPlan ? await readSeatAccount(db, seatPlan.orgId, userId, seatPlan.period.start) : null;
    return seatPlan && seat ? seatCharge(seatPlan, seat, 0).remainingAfter : null;
  }

  /** What the user has left, read inside a transaction (a hold's settlement answers it). */
  async function remainingIn(trx: Db, userId: string, now: number): Promise<UsageRemaining> {
    const standing = await standingOf(trx, userId, now, freeQueriesPerMonth);
    const seatPlan = await seatPlanOf(trx, userId, now);
    const seat = seatPlan ? await readSeatAccount(trx, seatPlan.orgId, userId, seatPlan.period.start) : null;
    return { ...remainingOf(standing), ...(seatPlan && seat ? { org: seatCharge(seatPlan, seat, 0).remainingAfter } : {}) };
  }
  const commits = createGroupCommit(db);
  const holds = createHoldService({ db, commits, remainingIn });

  /** Each notice to the organisation's owners, admins and billing members. */
  async function sendOrgNotices(userId: string, notices: { orgId: string; orgName: string; notice: OrgNotice }[]): Promise<void> {
    if (notices.length === 0) return;
    const member = await db
      .selectFrom('users')
      .select(['email', 'epic_display_name', 'username'])
      .where('id', '=', userId)
      .executeTakeFirst();
    const name = member?.epic_display_name ?? member?.email ?? member?.username ?? 'A member';
    for (const { orgId, orgName, notice: told } of notices) {
      const notice = told.kind === 'pool_low' ? told : { ...told, member: name };
      const people = await db
        .selectFrom('org_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('u.email')
        .where('m.org_id', '=', orgId)
        .where('m.role', 'in', ['owner', 'admin', 'billing'])
        .execute();
      for (const { email } of people) {
        if (email) deps.mailer.send({ to: email, ...orgNoticeMail(notice, orgName, deps.publicUrl) }).catch(deps.onMailError);
      }
    }
  }

  async function sendNotices(userId: string, notices: UsageNotice[]): Promise<void> {
    if (notices.length === 0) return;
    const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    if (!user?.email) return;
    for (const notice of notices) {
      deps.mailer.send({ to: user.email, ...usageNoticeMail(notice, deps.publicUrl) }).catch(deps.onMailError);
    }
  }

  /**
   * Charges a use, or opens a hold (`hold`), all or nothing, under the user's lock, and answers what
   * was charged and what is left. A repeated `requestId` answers the first answer; with other
   * content, 409; when nothing can pay, 402 and nothing is charged.
   */
  async function take(userId: string, input: RecordUsage, now: number, hold: HoldTerms | null): Promise<UsageRecorded | UsageHeld> {
    const fingerprint = fingerprintOf(input, hold);
    // The plans are read before the user's account is taken, outside the transaction: the use is
    // charged against the plans as they stood when the use arrived. Plans change rarely (a checkout,
    // a renewal), and a change landing meanwhile would only be seen by the next use; the lock
    // then covers only what uses of the user change (the balance and this period's totals).
    // Whether the user still holds their seat is read again under the organisation's lock.
    const [plan, seatPlan] = await Promise.all([planOfUse(userId, now, freeQueriesPerMonth), seats.planOf(userId, now)]);
    // Uses arriving together share one transaction and one commit (decision 044).
    // A seat holder's use takes the seat and the pool, outside the users' order: alone on PostgreSQL.
    const { answer, notices, orgNotices, creditsTaken, poolTaken } = await commits.run(
      async (trx) => {
        const seatAtUse = seatPlan ? { orgId: seatPlan.orgId, periodStart: seatPlan.period.start } : null;
        const account = await statements.lockAndRead(trx, userId, plan.period.start, input.requestId, seatAtUse);
        const { seen, credits } = account;
        if (seen) {
          if (seen.fingerprint !== fingerprint)
            throw conflict('request_id_reused', 'This requestId was already recorded for a different use');
          return {
            answer: JSON.parse(seen.answer) as UsageRecorded | UsageHeld,
            notices: [],
            orgNotices: [],
            creditsTaken: null,
            poolTaken: null,
          };
        }
        // After the replay above: a retry of a use already recorded gets its first answer, always.
        const occurredAt = occurredAtOf(input, now, deps.retentionDays);

        const held = seatPlan && account.org ? await seats.seatAt(trx, seatPlan.orgId, userId, seatPlan.period.start, account.org) : null;
        let seat = held;
        let org = seatPlan && seat ? seatCharge(seatPlan, seat, input.units) : null;
        // What the seat leaves, the pool may pay (within the limit): only then is the pool taken,
        // so the uses its seats pay for never wait for one another (decision 042).
        if (seatPlan && seat && org && input.units > org.paid.seat && org.balance.limitLeft !== 0) {
          const pool = await statements.poolForUse(trx, seatPlan.orgId, {
            credits: seat.pool,
            highWater: seat.highWater,
            lowNotified: seat.lowNotified,
          });
          seat = { ...seat, pool: pool.credits, highWater: pool.highWater, lowNotified: pool.lowNotified };
          org = seatCharge(seatPlan, seat, input.units);
        }
        const before = remainingOf({ ...plan, allowanceUsed: account.allowanceUsed, credits });
        // A hold takes what is left when that is less than asked but at least its minUnits.
        let units = input.units;
        if (hold) {
          units = unitsAvailable(input.units, org ? org.paid.seat + org.paid.pool : 0, { allowanceLeft: before.allowance, credits });
          if (units < input.units && seatPlan && seat) org = seatCharge(seatPlan, seat, units);
        }
        const paid =
          units >= (hold?.minUnits ?? units)
            ? charge(units - (org ? org.paid.seat + org.paid.pool : 0), { allowanceLeft: before.allowance, credits })
            : null;
        if (!paid) {
          const refusal = exhaustedRefusal(exhaustion(org?.balance ?? null), seatPlan?.orgName);
          throw new AppError(402, refusal.error, refusal.message);
        }
        const after = spend({ allowanceLeft: before.allowance, credits }, paid);

        const notices = noticesDue({
          allowance: plan.allowance,
          usedBefore: account.allowanceUsed,
          usedAfter: account.allowanceUsed + paid.allowance,
          sent80: account.sent80,
          sent100: account.sent100,
          creditsBefore: credits,
          creditsAfter: after.credits,
        });
        const marks80 = notices.includes('allowance_80') || notices.includes('allowance_100');
        const marks100 = notices.includes('allowance_100');
        const useId = randomUUID();
        const recorded: UsageRecorded = {
          requestId: input.requestId,
          units,
          // What paid: the organisation is named when its seat or pool paid part of it.
          charged: org && org.paid.seat + org.paid.pool > 0 ? { ...paid, org: { orgId: org.orgId, ...org.paid } } : paid,
          remaining: {
            ...before,
            allowance: after.allowanceLeft,
            credits: after.credits,
            ...(org ? { org: org.remainingAfter } : {}),
          },
        };
        const answer: UsageRecorded | UsageHeld = hold
          ? { holdId: useId, ...recorded, expiresAt: new Date(hold.expiresAt).toISOString() }
          : recorded;
        await statements.write(trx, {
          id: useId,
          ledgerId: randomUUID(),
          userId,
          requestId: input.requestId,
          fingerprint,
          units,
          fromAllowance: paid.allowance,
          fromCredits: paid.credits,
          period: plan.period,
          occurredAt,
          recordedAt: now,
          day: dayOf(occurredAt),
          projectId: input.projectId ?? null,
          engineVersion: input.engineVersion ?? null,
          pluginVersion: input.pluginVersion ?? null,
          model: input.model ?? null,
          feature: input.feature ?? null,
          answer: JSON.stringify(answer),
          notified80At: marks80 ? now : null,
          notified100At: marks100 ? now : null,
          org:
            org && seat
              ? {
                  orgId: org.orgId,
                  seatId: seat.seatId,
                  periodStart: org.periodStart,
                  ...org.paid,
                  notified80At: org.marks80 ? now : null,
                  notified100At: org.marks100 ? now : null,
                  poolLowAt: org.notices.some((n) => n.kind === 'pool_low') ? now : null,
                }
              : null,
          holdExpiresAt: hold?.expiresAt ?? null,
        });
        return {
          answer,
          notices,
          orgNotices: org ? org.notices.map((notice) => ({ orgId: org.orgId, orgName: org.orgName, notice })) : [],
          creditsTaken: paid.credits > 0 ? { userId, useId, before: credits, after: after.credits, at: now } : null,
          poolTaken:
            org && seat && org.paid.pool > 0
              ? { orgId: org.orgId, useId, before: seat.pool, after: seat.pool - org.paid.pool, at: now }
              : null,
        };
      },
      userId,
      seatPlan !== null,
    );
    if (creditsTaken) deps.onCreditsTaken?.(creditsTaken);
    if (poolTaken) deps.onPoolTaken?.(poolTaken);
    await sendNotices(userId, notices);
    await sendOrgNotices(userId, orgNotices);
    return answer;
  }

  return {
    /**
     * `POST /api/ingest/usage`: charges one use, all or nothing, and answers what was charged and
     * what is left. A repeated `requestId` answers the first answer; with other content, 409; when
     * allowance and credits cannot pay, 402 and nothing is charged.
     */
    async record(userId: string, input: RecordUsage, now = Date.now()): Promise<UsageRecorded> {
      return (await take(userId, input, now, null)) as UsageRecorded;
    },

    /**
     * `POST /api/ingest/usage/holds` (decision 043): takes up to `units` as a use would, or at least
     * `minUnits`, and keeps them until the hold is settled or expires. The same id and body again
     * answer the first answer, as a use's do.
     */
    async hold(userId: string, input: HoldUsage, now = Date.now()): Promise<UsageHeld> {
      const terms = { minUnits: input.minUnits ?? input.units, expiresAt: now + deps.holdMinutes * MINUTE_MS };
      return (await take(userId, input, now, terms)) as UsageHeld;
    },

    ...holds,

    /** What the user has left now (the plugin shows it), and their organisation's part while they hold a seat. */
    async remaining(userId: string, now = Date.now()): Promise<UsageRemaining> {
      const [standing, org, held] = await Promise.all([
        standingOf(db, userId, now, freeQueriesPerMonth),
        seatRemaining(userId, now),
        holds.heldBy(userId),
      ]);
      return { ...remainingOf(standing), ...(org ? { org } : {}), ...(held > 0 ? { held } : {}) };
    },

    /** This period at a glance: the dashboard's Usage section and the console's Usage panel. */
    async summary(userId: string, now = Date.now()): Promise<UsageSummary> {
      const [standing, org, held] = await Promise.all([
        standingOf(db, userId, now, freeQueriesPerMonth),
        seatRemaining(userId, now),
        holds.heldBy(userId),
      ]);
      return {
        plan: standing.plan,
        period: { start: new Date(standing.period.start).toISOString(), end: new Date(standing.period.end).toISOString() },
        allowance: standing.allowance,
        allowanceUsed: standing.allowanceUsed,
        creditsUsed: standing.creditsUsed,
        remaining: { ...remainingOf(standing), ...(org ? { org } : {}), ...(held > 0 ? { held } : {}) },
      };
    },

    /** Units per UTC day over the last `days` days (today last), and by project and engine version, from the roll-ups. */
    async history(userId: string, days: number, now = Date.now()): Promise<UsageHistory> {
      const today = dayOf(now);
      const first = today - days + 1;
      const rows = await db
        .selectFrom('usage_daily')
        .select(['day', 'project_id', 'engine_version', 'uses', 'units'])
        .where('user_id', '=', userId)
        .where('day', '>=', first)
        .where('day', '<=', today)
        .execute();
      const units = new Array<number>(days).fill(0);
      for (const row of rows) units[row.day - first]! += Number(row.units);
      const counted = (key: 'project_id' | 'engine_version') =>
        rows.map((r) => ({ key: r[key], uses: Number(r.uses), units: Number(r.units) }));
      return {
        days: units.map((_, i) => isoDay(first + i)),
        units,
        byProject: tallied(counted('project_id'), 'projectId'),
        byEngineVersion: tallied(counted('engine_version'), 'engineVersion'),
      };
    },

    /** The current period's uses as CSV, oldest first, read in batches so memory stays flat. */
    periodCsv(userId: string, now = Date.now()): Readable {
      let periodStart: number | undefined;
      return pagedCsv(
        USAGE_CSV_COLUMNS,
        async (after, size) => {
          periodStart ??= (await standingOf(db, userId, now, freeQueriesPerMonth)).period.start;
          let page = db
            .selectFrom('usage_events')
            .selectAll()
            .where('user_id', '=', userId)
            .where('period_start', '=', periodStart)
            // Settled uses only: an open hold is not yet a use, and one given back whole never was.
            .where('hold_expires_at', 'is', null)
            .where('units', '>', 0)
            .orderBy('occurred_at')
            .orderBy('id')
            .limit(size);
          if (after) page = page.where((eb) => eb(eb.refTuple('occurred_at', 'id'), '>', eb.tuple(after.occurred_at, after.id)));
          return page.execute();
        },
        (use) => [
          new Date(use.occurred_at).toISOString(),
          use.request_id,
          String(use.units),
          String(use.from_allowance),
          String(use.from_credits),
          use.project_id ?? '',
          use.engine_version ?? '',
          use.plugin_version ?? '',
          use.model ?? '',
          use.feature ?? '',
        ],
      );
    },

    /**
     * Deletes raw uses recorded more than `retentionDays` ago, a batch per statement; the daily
     * roll-ups and the period totals stay. Several instances may prune at once: each statement
     * deletes what is still there, so they only share the work. Answers how many went.
     */
    async prune(retentionDays: number, now = Date.now()): Promise<number> {
      const cutoff = now - retentionDays * DAY_MS;
      let deleted = 0;
      for (;;) {
        const batch = db.selectFrom('usage_events').select('id').where('recorded_at', '<', cutoff).limit(PRUNE_BATCH);
        const result = await db.deleteFrom('usage_events').where('id', 'in', batch).executeTakeFirst();
        const count = Number(result.numDeletedRows);
        deleted += count;
        // Not `count < PRUNE_BATCH`: another instance pruning at once may have taken part of this batch.
        if (count === 0) return deleted;
      }
    },
  };
}

export type MeteringService = ReturnType<typeof createMeteringService>;
