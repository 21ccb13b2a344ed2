import type { QueryCreator } from 'kysely';
import { isPostgres, type Db } from '../../db';
import type { Database } from '../../db/schema';
import { withParameters } from '../../db/compiledQuery';
import { createUserHold } from '../userLock';

/** What recording a use reads under the user's lock: the balance, this period's totals and a use with the same id. */
export interface AccountAtUse {
  credits: number;
  allowanceUsed: number;
  sent80: boolean;
  sent100: boolean;
  /** The use already recorded under this `requestId`, if any. */
  seen: { answer: string; fingerprint: string } | null;
}

/** One use as written: its event row, what the period and the daily roll-up add, the ledger entry when credits pay. */
export interface UseWritten {
  id: string;
  userId: string;
  requestId: string;
  fingerprint: string;
  units: number;
  fromAllowance: number;
  fromCredits: number;
  period: { start: number; end: number };
  occurredAt: number;
  recordedAt: number;
  day: number;
  projectId: string | null;
  engineVersion: string | null;
  pluginVersion: string | null;
  model: string | null;
  feature: string | null;
  answer: string;
  notified80At: number | null;
  notified100At: number | null;
  ledgerId: string;
  /** What the user's organisation paid (a seat holder's use): its id and period, and its seat's and pool's parts. */
  org: { id: string; periodStart: number; seat: number; pool: number } | null;
}

/**
 * The statements of `POST /api/ingest/usage`, compiled once (db/compiledQuery.ts): building and
 * compiling them with Kysely was 17 % of a use's CPU on SQLite in issue 26's profile. Each is
 * compiled with placeholder values, each bound once, in the order its SQL takes them.
 */
export function createRecordingStatements(db: Db) {
  const postgres = isPostgres(db);
  const holdUser = createUserHold(db);

  const read = db
    .selectFrom('credit_balances as b')
    .leftJoin('usage_periods as p', (join) => join.onRef('p.user_id', '=', 'b.user_id').on('p.period_start', '=', 0))
    .leftJoin('usage_events as e', (join) => join.onRef('e.user_id', '=', 'b.user_id').on('e.request_id', '=', ''))
    .select(['b.credits', 'p.allowance_used', 'p.notified_80_at', 'p.notified_100_at', 'e.answer', 'e.fingerprint'])
    .where('b.user_id', '=', '')
    .compile();
  // PostgreSQL locks the balance row in a statement of its own: a statement that waited for the
  // lock sees the locked row as it is now but every other row as it was when the statement began
  // (read committed), so the period's totals and an earlier use with the same id must be read by
  // the next statement. SQLite has no `for update`: it runs one write transaction at a time, so
  // there the one read takes the account.
  const lock = db.selectFrom('credit_balances').select('credits').where('user_id', '=', '').forUpdate().compile();

  const openAccount = db
    .insertInto('credit_balances')
    .values({ user_id: '', credits: 0 })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .compile();

  // Each write is built by a function of the query creator, to run on its own (SQLite) or as a
  // data-modifying CTE (PostgreSQL).
  const addToPeriod = (qc: QueryCreator<Database>) =>
    qc
      .insertInto('usage_periods')
      .values({ user_id: '', period_start: 0, period_end: 0, allowance_used: 0, credits_used: 0, notified_80_at: 0, notified_100_at: 0 })
      .onConflict((oc) =>
        oc.columns(['user_id', 'period_start']).doUpdateSet((eb) => ({
          allowance_used: eb('usage_periods.allowance_used', '+', eb.ref('excluded.allowance_used')),
          credits_used: eb('usage_periods.credits_used', '+', eb.ref('excluded.credits_used')),
          notified_80_at: eb.fn.coalesce('usage_periods.notified_80_at', 'excluded.notified_80_at'),
          notified_100_at: eb.fn.coalesce('usage_periods.notified_100_at', 'excluded.notified_100_at'),
        })),
      );
  const payWithCredits = (qc: QueryCreator<Database>) =>
    qc.insertInto('credit_ledger').values({ id: '', user_id: '', amount: 0, reason: 'Queries', source: '', created_at: 0 });
  const insertUse = (qc: QueryCreator<Database>) =>
    qc.insertInto('usage_events').values({
      id: '',
      user_id: '',
      request_id: '',
      fingerprint: '',
      units: 0,
      from_allowance: 0,
      from_credits: 0,
      period_start: 0,
      occurred_at: 0,
      recorded_at: 0,
      project_id: '',
      engine_version: '',
      plugin_version: '',
      model: '',
      feature: '',
      answer: '',
      org_id: '',
      org_period_start: 0,
      from_seat: 0,
      from_pool: 0,
    });
  const addToDay = (qc: QueryCreator<Database>) =>
    qc
      .insertInto('usage_daily')
      .values({ user_id: '', day: 0, project_id: '', engine_version: '', uses: 1, units: 0 })
      .onConflict((oc) =>
        oc.columns(['user_id', 'day', 'project_id', 'engine_version']).doUpdateSet((eb) => ({
          uses: eb('usage_daily.uses', '+', eb.ref('excluded.uses')),
          units: eb('usage_daily.units', '+', eb.ref('excluded.units')),
        })),
      );

  const apart = {
    period: addToPeriod(db).compile(),
    ledger: payWithCredits(db).compile(),
    use: insertUse(db).compile(),
    day: addToDay(db).compile(),
  };
  // PostgreSQL: the writes in one statement, one round trip while the account is held instead of
  // three or four. The parts change different tables, so none needs to see another's effect.
  // The CTEs' names add tables no write refers to: the builders take the creator as the schema's.
  const plain = (qc: unknown) => qc as QueryCreator<Database>;
  const cte =
    <Q>(write: (qc: QueryCreator<Database>) => Q) =>
    (qc: unknown) =>
      write(plain(qc));
  const together = {
    fromAllowance: addToDay(plain(db.with('period', cte(addToPeriod)).with('use', cte(insertUse)))).compile(),
    withCredits: addToDay(
      plain(db.with('period', cte(addToPeriod)).with('ledger', cte(payWithCredits)).with('use', cte(insertUse))),
    ).compile(),
  };

  /** Takes the account (PostgreSQL) and reads it; no row when the user has no balance row yet. */
  async function readAccount(trx: Db, userId: string, periodStart: number, requestId: string) {
    if (postgres) {
      const [locked] = (await trx.executeQuery(withParameters(lock, [userId]))).rows;
      if (!locked) return undefined;
    }
    const [row] = (await trx.executeQuery(withParameters(read, [periodStart, requestId, userId]))).rows;
    return row;
  }

  return {
    /**
     * Takes the user's account for the rest of the transaction (as standing.ts `lockAccount`) and
     * reads what recording a use needs: one statement on SQLite, the lock and then the read on
     * PostgreSQL. A user's first use opens their balance row, then reads again. The user's own row
     * is held before the balance row, in the order an account's deletion takes them (userLock.ts):
     * 404 when the user was deleted meanwhile.
     */
    async lockAndRead(trx: Db, userId: string, periodStart: number, requestId: string): Promise<AccountAtUse> {
      await holdUser(trx, userId);
      let row = await readAccount(trx, userId, periodStart, requestId);
      if (!row) {
        await trx.executeQuery(withParameters(openAccount, [userId, 0]));
        row = await readAccount(trx, userId, periodStart, requestId);
      }
      return {
        credits: Number(row?.credits ?? 0),
        allowanceUsed: Number(row?.allowance_used ?? 0),
        sent80: row?.notified_80_at != null,
        sent100: row?.notified_100_at != null,
        seen: row?.answer != null && row.fingerprint != null ? { answer: row.answer, fingerprint: row.fingerprint } : null,
      };
    },

    /** Writes the use: the period's totals, the ledger entry when credits pay, the use itself and its day's roll-up. */
    async write(trx: Db, use: UseWritten): Promise<void> {
      const { userId } = use;
      const period = [userId, use.period.start, use.period.end, use.fromAllowance, use.fromCredits, use.notified80At, use.notified100At];
      const ledger = use.fromCredits > 0 ? [use.ledgerId, userId, -use.fromCredits, 'Queries', `usage:${use.id}`, use.recordedAt] : [];
      const event = [
        use.id,
        userId,
        use.requestId,
        use.fingerprint,
        use.units,
        use.fromAllowance,
        use.fromCredits,
        use.period.start,
        use.occurredAt,
        use.recordedAt,
        use.projectId,
        use.engineVersion,
        use.pluginVersion,
        use.model,
        use.feature,
        use.answer,
        use.org?.id ?? null,
        use.org?.periodStart ?? null,
        use.org?.seat ?? 0,
        use.org?.pool ?? 0,
      ];
      const day = [userId, use.day, use.projectId ?? '', use.engineVersion ?? '', 1, use.units];
      if (postgres) {
        const statement = ledger.length > 0 ? together.withCredits : together.fromAllowance;
        await trx.executeQuery(withParameters(statement, [...period, ...ledger, ...event, ...day]));
        return;
      }
      await trx.executeQuery(withParameters(apart.period, period));
      if (ledger.length > 0) await trx.executeQuery(withParameters(apart.ledger, ledger));
      await trx.executeQuery(withParameters(apart.use, event));
      await trx.executeQuery(withParameters(apart.day, day));
    },
  };
}
