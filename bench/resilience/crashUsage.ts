// The crash part's usage metering (issue 39): beside the messages, the AI service records uses,
// opens holds and settles the holds it was answered for (for 0 to the units held), for a few users
// with a known allowance and credits, at a steady rate through the same kills (crash.ts runs both
// writers and the kills). An attempt whose answer was lost (no answer, a reset, a timeout, a 5xx)
// is sent again with the same body after a back-off until it is answered, as
// docs/usage-metering.md tells the AI service. Afterwards, read from the database:
//   lost     every acknowledged use and hold is a row (by requestId; a hold by its holdId), charged
//            as its answer said; a settled hold's row is settled for the units its answer said;
//   doubled  one row per requestId, no row an answer did not acknowledge (a 402's included), each
//            user's period totals are the sum of their rows, their balance is the starting credits
//            less what the rows took and the ledger's sum, and at most one ledger entry per use and
//            per hold's settlement (`usage:{id}`, `hold:{id}`). The unique keys on usage_events
//            (user_id, request_id) and credit_ledger.source already guarantee the first and the last:
//            checked all the same.
// Every operation must end with a documented answer (201, 200, or 402 refused) within a minute.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { holdSettledSchema, usageHeldSchema, usageRecordedSchema } from '../../contract/usage';
import type { Db } from '../../server/db';
import { benchProduct, benchSubscription, benchUser, DAY_MS } from '../usageSeed';
import { count, sleep, type PartResult } from './common';

export const USAGE_RATE_PER_SECOND = 100;
const USERS = 8;
/** Each user's plan: this many queries a period, then their credits pay. */
const ALLOWANCE = 150;
const CREDITS = 100_000;
/** One attempt's wait for an answer, and how long an operation is sent again before the part gives up on it. */
export const USAGE_ATTEMPT_TIMEOUT_MS = 10_000;
const RETRY_FOR_MS = 60_000;
/** The operations' plan, drawn once from the seed and gone through in turn. */
const PLANNED = 4096;

/** One POST with the service token: the status and body of the answer, or a throw when none came. */
export type Post = (path: string, body: string) => Promise<{ status: number; text: string }>;

const operation = fc.record({
  user: fc.nat({ max: USERS - 1 }),
  kind: fc.oneof(
    { arbitrary: fc.constant('use' as const), weight: 4 },
    { arbitrary: fc.constant('hold' as const), weight: 3 },
    // With no acknowledged hold of the user left to settle, a hold instead.
    { arbitrary: fc.constant('settle' as const), weight: 3 },
  ),
  units: fc.integer({ min: 1, max: 5 }),
  held: fc.integer({ min: 1, max: 10 }),
  minUnits: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
  /** The settlement's units: this modulo (held + 1), 0 to what was held. */
  keep: fc.nat(),
});

interface Charged {
  allowance: number;
  credits: number;
}

/** USERS users, each on a plan of ALLOWANCE queries a period and with CREDITS credits, made in the instances' database. */
export async function seedUsageUsers(db: Db, tag: string, now = Date.now()): Promise<string[]> {
  const plan = benchProduct(`prod_crash_${tag}`, `Crash ${tag}`, ALLOWANCE, now);
  await db.insertInto('billing_products').values(plan).execute();
  // Whole seconds, as Stripe's periods; the current one started 10 days ago.
  const periodStart = Math.floor((now - 10 * DAY_MS) / 1000) * 1000;
  const ids: string[] = [];
  for (let i = 0; i < USERS; i += 1) {
    const user = benchUser(`crash.${tag}.${i}`, now);
    await db.insertInto('users').values(user).execute();
    await db
      .insertInto('billing_subscriptions')
      .values(benchSubscription(user.id, `crash_${tag}_${i}`, plan, periodStart, now))
      .execute();
    // Through the ledger, so its trigger writes the balance as a pack purchase would.
    const id = randomUUID();
    await db
      .insertInto('credit_ledger')
      .values({ id, user_id: user.id, amount: CREDITS, reason: 'Crash test credits', source: `grant:${id}`, created_at: now })
      .execute();
    ids.push(user.id);
  }
  return ids;
}

const why = (err: unknown) => {
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  const text = typeof cause?.code === 'string' ? cause.code : err instanceof Error ? err.message : String(err);
  return text.slice(0, 80);
};

/**
 * The AI service's usage traffic: `write(n)` is the n-th operation of the seed's plan, sent until
 * it is answered; it answers what was acknowledged (for crash.ts's steadyWriter) and throws on an
 * answer other than the documented ones or when none came within RETRY_FOR_MS.
 */
export function usageTraffic(opts: { seed: number; users: string[]; prefix: string; post: Post }) {
  const plan = fc.sample(operation, { seed: opts.seed, numRuns: PLANNED });
  const uses = new Map<string, { user: string; units: number; charged: Charged; retriedAt: number | null }>();
  const holds = new Map<string, { user: string; requestId: string; units: number; charged: Charged; retriedAt: number | null }>();
  const settled = new Map<string, { units: number; charged: Charged; retriedAt: number | null }>();
  /** Per user, the acknowledged holds no settlement was sent for yet. */
  const open = opts.users.map(() => [] as string[]);
  const refused = new Set<string>();
  /** Uses and holds (by requestId) and settlements (by holdId) never answered as documented: their rows may be either way. */
  const unknown = new Set<string>();
  const lostAnswers = new Map<string, number>();
  const stats = { lost: 0, retries: 0, answeredAfterRetry: 0 };

  /**
   * Sends until answered (not a 5xx or 429), backing off 0.5, 1, 2, 4, 8, 8… s with jitter. After
   * a lost answer, `retriedAt` is when the answered attempt was sent: a row written before then
   * was written by an attempt whose answer was lost, and the retry was answered from it.
   */
  async function answered(path: string, body: string): Promise<{ status: number; text: string; retriedAt: number | null }> {
    const started = Date.now();
    for (let attempt = 0; ; attempt += 1) {
      let reason: string;
      try {
        const sentAt = Date.now();
        const res = await opts.post(path, body);
        if (res.status < 500 && res.status !== 429) {
          if (attempt > 0) stats.answeredAfterRetry += 1;
          return { ...res, retriedAt: attempt > 0 ? sentAt : null };
        }
        reason = `status ${res.status}`;
      } catch (err) {
        reason = why(err);
      }
      if (attempt === 0) {
        stats.lost += 1;
        lostAnswers.set(reason, (lostAnswers.get(reason) ?? 0) + 1);
      }
      if (Date.now() - started > RETRY_FOR_MS)
        throw new Error(`no answer within ${RETRY_FOR_MS / 1000} s (${attempt + 1} attempts): ${reason}`);
      stats.retries += 1;
      // Jitter only spreads the retries in time, which the kills already make differ from run to run.
      await sleep(Math.min(8000, 500 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }

  const unexpected = (what: string, res: { status: number; text: string }) => new Error(`${what}: ${res.status} ${res.text.slice(0, 120)}`);

  async function write(n: number): Promise<string> {
    const op = plan[n % plan.length]!;
    const requestId = `${opts.prefix}-${n}`;
    const holdId = op.kind === 'settle' ? open[op.user]!.shift() : undefined;
    try {
      return await send(op, requestId, holdId);
    } catch (err) {
      unknown.add(holdId ?? requestId);
      throw err;
    }
  }

  async function send(op: (typeof plan)[number], requestId: string, holdId: string | undefined): Promise<string> {
    const user = opts.users[op.user]!;
    if (holdId !== undefined) {
      const hold = holds.get(holdId)!;
      const units = op.keep % (hold.units + 1);
      const res = await answered(`/api/ingest/usage/holds/${holdId}/settle`, JSON.stringify({ units }));
      if (res.status !== 200) throw unexpected(`settle ${units} of ${hold.units}`, res);
      const answer = holdSettledSchema.parse(JSON.parse(res.text));
      if (answer.holdId !== holdId || answer.units !== units || answer.returned !== hold.units - units)
        throw new Error(`settle of ${holdId} answered ${res.text.slice(0, 120)}`);
      settled.set(holdId, { units, charged: answer.charged, retriedAt: res.retriedAt });
      return `settle:${holdId}`;
    }
    if (op.kind === 'use') {
      const res = await answered('/api/ingest/usage', JSON.stringify({ requestId, userId: user, units: op.units }));
      if (res.status === 402) {
        refused.add(requestId);
        return `refused:${requestId}`;
      }
      if (res.status !== 201) throw unexpected('use', res);
      const answer = usageRecordedSchema.parse(JSON.parse(res.text));
      if (answer.requestId !== requestId || answer.units !== op.units)
        throw new Error(`use ${requestId} answered ${res.text.slice(0, 120)}`);
      uses.set(requestId, { user, units: answer.units, charged: answer.charged, retriedAt: res.retriedAt });
      return `use:${requestId}`;
    }
    const minUnits = op.minUnits === undefined ? {} : { minUnits: Math.min(op.minUnits, op.held) };
    const res = await answered('/api/ingest/usage/holds', JSON.stringify({ requestId, userId: user, units: op.held, ...minUnits }));
    if (res.status === 402) {
      refused.add(requestId);
      return `refused:${requestId}`;
    }
    if (res.status !== 201) throw unexpected('hold', res);
    const answer = usageHeldSchema.parse(JSON.parse(res.text));
    if (answer.requestId !== requestId) throw new Error(`hold ${requestId} answered ${res.text.slice(0, 120)}`);
    if (holds.has(answer.holdId)) throw new Error(`hold ${requestId} answered the holdId of another hold`);
    holds.set(answer.holdId, { user, requestId, units: answer.units, charged: answer.charged, retriedAt: res.retriedAt });
    open[op.user]!.push(answer.holdId);
    return `hold:${answer.holdId}`;
  }

  return { write, uses, holds, settled, refused, unknown, lostAnswers, stats, users: opts.users };
}
export type UsageTraffic = ReturnType<typeof usageTraffic>;

export interface UsageVerdict {
  lost: string[];
  doubled: string[];
  /** Writes answered after a retry whose row an attempt before it had written: the retry was answered from it. */
  storedBeforeRetry: number;
}

/**
 * What the database says of the traffic: examples of what was lost and of what was doubled, and
 * how many writes answered after a retry had been written by an attempt whose answer was lost.
 */
export async function checkUsage(db: Db, traffic: UsageTraffic): Promise<UsageVerdict> {
  const { users } = traffic;
  const [rows, periods, balances, ledger] = await Promise.all([
    db
      .selectFrom('usage_events')
      .select(['id', 'user_id', 'request_id', 'units', 'from_allowance', 'from_credits', 'recorded_at', 'hold_expires_at', 'settled_at'])
      .where('user_id', 'in', users)
      .execute(),
    db.selectFrom('usage_periods').select(['user_id', 'allowance_used', 'credits_used']).where('user_id', 'in', users).execute(),
    db.selectFrom('credit_balances').select(['user_id', 'credits']).where('user_id', 'in', users).execute(),
    db.selectFrom('credit_ledger').select(['user_id', 'amount', 'source']).where('user_id', 'in', users).execute(),
  ]);
  const lost: string[] = [];
  const doubled: string[] = [];
  let storedBeforeRetry = 0;
  const before = (at: number | null, retriedAt: number | null) => at !== null && retriedAt !== null && Number(at) < retriedAt;

  const byRequest = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.user_id} ${row.request_id}`;
    byRequest.set(key, [...(byRequest.get(key) ?? []), row]);
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const charged = (row: (typeof rows)[number], units: number, paid: Charged) =>
    Number(row.units) === units && Number(row.from_allowance) === paid.allowance && Number(row.from_credits) === paid.credits;

  for (const [requestId, use] of traffic.uses) {
    const row = byRequest.get(`${use.user} ${requestId}`)?.[0];
    if (!row) lost.push(`use ${requestId} answered 201 but is not in the database`);
    else if (!charged(row, use.units, use.charged))
      lost.push(`use ${requestId} answered ${use.units} units (${JSON.stringify(use.charged)}) but its row says ${row.units} units`);
    else if (before(row.recorded_at, use.retriedAt)) storedBeforeRetry += 1;
  }
  for (const [holdId, hold] of traffic.holds) {
    const row = byId.get(holdId);
    const settlement = traffic.settled.get(holdId);
    if (!row || row.request_id !== hold.requestId) {
      lost.push(`hold ${holdId} (${hold.requestId}) answered 201 but is not in the database`);
      continue;
    }
    if (before(row.recorded_at, hold.retriedAt)) storedBeforeRetry += 1;
    if (traffic.unknown.has(holdId)) continue;
    if (settlement) {
      if (row.settled_at === null || row.hold_expires_at !== null || !charged(row, settlement.units, settlement.charged))
        lost.push(
          `hold ${holdId} answered settled for ${settlement.units} but its row has ${row.units} units, settled_at ${row.settled_at}`,
        );
      else if (before(row.settled_at, settlement.retriedAt)) storedBeforeRetry += 1;
    } else if (row.settled_at !== null || row.hold_expires_at === null || !charged(row, hold.units, hold.charged))
      lost.push(`hold ${holdId} holds ${hold.units} (never settled) but its row has ${row.units} units, settled_at ${row.settled_at}`);
  }

  const acknowledged = new Set([...traffic.uses.keys(), ...[...traffic.holds.values()].map((h) => h.requestId)]);
  for (const [key, same] of byRequest) {
    const requestId = key.slice(key.indexOf(' ') + 1);
    if (same.length > 1) doubled.push(`${same.length} rows for requestId ${requestId}`);
    if (traffic.refused.has(requestId)) doubled.push(`requestId ${requestId} answered 402 but has a row`);
    else if (!acknowledged.has(requestId) && !traffic.unknown.has(requestId))
      doubled.push(`requestId ${requestId} has a row but no acknowledged answer`);
  }

  const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);
  for (const user of users) {
    const mine = rows.filter((r) => r.user_id === user);
    const period = periods.filter((p) => p.user_id === user);
    const units = sum(mine, (r) => Number(r.units));
    const fromAllowance = sum(mine, (r) => Number(r.from_allowance));
    const fromCredits = sum(mine, (r) => Number(r.from_credits));
    const allowanceUsed = sum(period, (p) => Number(p.allowance_used));
    const creditsUsed = sum(period, (p) => Number(p.credits_used));
    if (allowanceUsed + creditsUsed !== units || allowanceUsed !== fromAllowance || creditsUsed !== fromCredits)
      doubled.push(
        `user ${user}: period totals ${allowanceUsed} + ${creditsUsed} but the rows' units ${units} (${fromAllowance} + ${fromCredits})`,
      );
    if (allowanceUsed > ALLOWANCE) doubled.push(`user ${user}: ${allowanceUsed} of an allowance of ${ALLOWANCE} used`);
    const balance = Number(balances.find((b) => b.user_id === user)?.credits ?? NaN);
    const entries = ledger.filter((l) => l.user_id === user);
    const ledgerSum = sum(entries, (l) => Number(l.amount));
    if (balance !== CREDITS - fromCredits || ledgerSum !== balance)
      doubled.push(
        `user ${user}: balance ${balance}, but ${CREDITS} less the rows' ${fromCredits} is ${CREDITS - fromCredits}, the ledger sums to ${ledgerSum}`,
      );
    const sources = new Map<string, number>();
    for (const { source } of entries) sources.set(source, (sources.get(source) ?? 0) + 1);
    for (const [source, times] of sources)
      if (times > 1 && /^(usage|hold):/.test(source)) doubled.push(`user ${user}: ${times} ledger entries with source ${source}`);
  }
  return { lost, doubled, storedBeforeRetry };
}

/** The usage half's line of the table, in the suite's style. */
export function usageResult(
  part: string,
  traffic: UsageTraffic,
  tally: { sent: number; failed: number; failures: Map<string, number> },
  verdict: UsageVerdict,
): PartResult {
  const { stats } = traffic;
  const reasons = [...traffic.lostAnswers]
    .sort(([, a], [, b]) => b - a)
    .map(([reason, n]) => `${count(n)}× ${reason}`)
    .join('; ');
  console.log(`${part}: answers lost at the kills: ${reasons || 'none'}`);
  const failed = [...tally.failures].map(([reason, n]) => `${n}× ${reason}`).join('; ');
  const acknowledged = traffic.uses.size + traffic.holds.size;
  return {
    part,
    criterion: 'every acknowledged use, hold and settlement is in the database once after kill -9, restart and retries',
    ok: verdict.lost.length === 0 && verdict.doubled.length === 0 && tally.failed === 0 && acknowledged > 0 && traffic.settled.size > 0,
    figures: [
      {
        part,
        figure: `writes (${traffic.users.length} users, ${ALLOWANCE} a period + ${count(CREDITS)} credits each)`,
        value: `${count(tally.sent)} at ${USAGE_RATE_PER_SECOND}/s`,
      },
      {
        part,
        figure: 'acknowledged: uses / holds / settlements',
        value: `${count(traffic.uses.size)} / ${count(traffic.holds.size)} / ${count(traffic.settled.size)}${traffic.refused.size ? ` (${traffic.refused.size} refused 402)` : ''}`,
      },
      {
        part,
        figure: 'answers lost at the kills, then sent again',
        value: `${count(stats.lost)} (${count(stats.retries)} retries; ${count(stats.answeredAfterRetry)} answered${tally.failed ? `, ${tally.failed} not` : ''})`,
      },
      { part, figure: 'of which the lost attempt was stored (the retry answered from it)', value: verdict.storedBeforeRetry },
      { part, figure: 'acknowledged writes lost', value: verdict.lost.length },
      { part, figure: 'doubled (rows per requestId, totals, credits, ledger)', value: verdict.doubled.length },
    ],
    failures: [
      ...verdict.lost.slice(0, 5),
      ...verdict.doubled.slice(0, 5),
      ...(tally.failed > 0 ? [`writes without a documented answer: ${failed}`] : []),
      ...(acknowledged === 0 ? ['no use or hold was acknowledged at all'] : []),
      ...(acknowledged > 0 && traffic.settled.size === 0 ? ['no hold was settled'] : []),
      ...((verdict.lost.length > 0 || verdict.doubled.length > 0) && reasons ? [`answers lost at the kills: ${reasons}`] : []),
    ],
  };
}
