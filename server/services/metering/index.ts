import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  USAGE_CSV_COLUMNS,
  USAGE_ERRORS,
  type RecordUsage,
  type UsageHistory,
  type UsageRecorded,
  type UsageRemaining,
  type UsageSummary,
} from '../../../contract/usage';
import type { Db } from '../../db';
import { AppError, badRequest, conflict } from '../../errors';
import { toCsvRow } from '../csv';
import type { Mailer } from '../mailer';
import { usageNoticeMail } from './notices';
import { charge, noticesDue, spend, useTime, type UsageNotice } from './rules';
import { createRecordingStatements } from './recording';
import { planOf, remainingOf, standingOf } from './standing';

const DAY_MS = 86_400_000;
/** Raw uses deleted per statement when pruning: short transactions that never hold up a use for long. */
const PRUNE_BATCH = 5_000;
/** Uses read per query while streaming a period's CSV. */
const CSV_BATCH = 2_000;

export const QUOTA_EXHAUSTED_MESSAGE =
  "No queries are left: this period's allowance and your credit packs are used up. Buy a credit pack or change your plan on the dashboard.";

export interface MeteringDeps {
  db: Db;
  /** FREE_QUERIES_PER_MONTH: what a user without a plan may use per UTC month. */
  freeQueriesPerMonth: number;
  /** USAGE_RETENTION_DAYS: how long raw uses are kept, and so how old a use's `occurredAt` may be. */
  retentionDays: number;
  mailer: Mailer;
  publicUrl: string;
  onMailError: (err: unknown) => void;
}

/** The SHA-256 of what a use said: the same `requestId` with another fingerprint is another use. */
function fingerprintOf(input: RecordUsage): string {
  const said = [input.units, input.occurredAt ?? null, input.projectId ?? null, input.engineVersion ?? null];
  said.push(input.pluginVersion ?? null, input.model ?? null, input.feature ?? null);
  return createHash('sha256').update(JSON.stringify(said)).digest('hex');
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
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Adds `amount` per key and answers the keys with the most units first. */
function tallied<K extends string>(rows: { key: string; uses: number; units: number }[], name: K) {
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

  async function sendNotices(userId: string, notices: UsageNotice[]): Promise<void> {
    if (notices.length === 0) return;
    const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    if (!user?.email) return;
    for (const notice of notices) {
      deps.mailer.send({ to: user.email, ...usageNoticeMail(notice, deps.publicUrl) }).catch(deps.onMailError);
    }
  }

  return {
    /**
     * `POST /api/ingest/usage`: charges one use, all or nothing, and answers what was charged and
     * what is left. A repeated `requestId` answers the first answer; with other content, 409; when
     * allowance and credits cannot pay, 402 and nothing is charged.
     */
    async record(userId: string, input: RecordUsage, now = Date.now()): Promise<UsageRecorded> {
      const fingerprint = fingerprintOf(input);
      // The plan is read before the user's account is taken, outside the transaction: the use is
      // charged against the plan as it stood when the use arrived. Plans change rarely (a checkout,
      // a renewal), and a change landing meanwhile would only be seen by the next use; the lock
      // then covers only what uses of the user change (the balance and this period's totals).
      const plan = await planOf(db, userId, now, freeQueriesPerMonth);
      const { answer, notices } = await db.transaction().execute(async (trx) => {
        const account = await statements.lockAndRead(trx, userId, plan.period.start, input.requestId);
        const { seen, credits } = account;
        if (seen) {
          if (seen.fingerprint !== fingerprint)
            throw conflict('request_id_reused', 'This requestId was already recorded for a different use');
          return { answer: JSON.parse(seen.answer) as UsageRecorded, notices: [] };
        }
        // After the replay above: a retry of a use already recorded gets its first answer, always.
        const occurredAt = occurredAtOf(input, now, deps.retentionDays);

        const before = remainingOf({ ...plan, allowanceUsed: account.allowanceUsed, credits });
        const paid = charge(input.units, { allowanceLeft: before.allowance, credits });
        if (!paid) throw new AppError(402, 'quota_exhausted', QUOTA_EXHAUSTED_MESSAGE);
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
        const answer: UsageRecorded = {
          requestId: input.requestId,
          units: input.units,
          charged: paid,
          remaining: { ...before, allowance: after.allowanceLeft, credits: after.credits },
        };
        await statements.write(trx, {
          id: randomUUID(),
          ledgerId: randomUUID(),
          userId,
          requestId: input.requestId,
          fingerprint,
          units: input.units,
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
        });
        return { answer, notices };
      });
      await sendNotices(userId, notices);
      return answer;
    },

    /** What the user has left now (the plugin shows it). */
    async remaining(userId: string, now = Date.now()): Promise<UsageRemaining> {
      return remainingOf(await standingOf(db, userId, now, freeQueriesPerMonth));
    },

    /** This period at a glance: the dashboard's Usage section and the console's Usage panel. */
    async summary(userId: string, now = Date.now()): Promise<UsageSummary> {
      const standing = await standingOf(db, userId, now, freeQueriesPerMonth);
      return {
        plan: standing.plan,
        period: { start: new Date(standing.period.start).toISOString(), end: new Date(standing.period.end).toISOString() },
        allowance: standing.allowance,
        allowanceUsed: standing.allowanceUsed,
        creditsUsed: standing.creditsUsed,
        remaining: remainingOf(standing),
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
      async function* rows() {
        const { period } = await standingOf(db, userId, now, freeQueriesPerMonth);
        yield toCsvRow([...USAGE_CSV_COLUMNS]);
        let after: { occurred_at: number; id: string } | null = null;
        for (;;) {
          let page = db
            .selectFrom('usage_events')
            .selectAll()
            .where('user_id', '=', userId)
            .where('period_start', '=', period.start)
            .orderBy('occurred_at')
            .orderBy('id')
            .limit(CSV_BATCH);
          if (after) {
            const { occurred_at: at, id } = after;
            page = page.where((eb) => eb.or([eb('occurred_at', '>', at), eb.and([eb('occurred_at', '=', at), eb('id', '>', id)])]));
          }
          const batch = await page.execute();
          for (const use of batch) {
            yield toCsvRow([
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
            ]);
          }
          if (batch.length < CSV_BATCH) return;
          const last = batch[batch.length - 1]!;
          after = { occurred_at: last.occurred_at, id: last.id };
        }
      }
      return Readable.from(rows());
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
