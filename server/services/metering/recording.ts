import type { Compilable, CompiledQuery, QueryCreator } from 'kysely';
import { isPostgres, type Db } from '../../db';
import type { Database } from '../../db/schema';
import { withParameters } from '../../db/compiledQuery';
import { createUserHold } from '../userLock';
import { lockPool, poolOf, seatWriteSteps, type Pool, type SeatRow, type SeatUseWritten } from './orgSeat';

/** What recording a use reads under the user's lock: the balance, this period's totals and a use with the same id. */
export interface AccountAtUse {
  credits: number;
  allowanceUsed: number;
  sent80: boolean;
  sent100: boolean;
  /** The use already recorded under this `requestId`, if any. */
  seen: { answer: string; fingerprint: string } | null;
  /**
   * A seat holder's: their organisation's pool, taken after their own rows, and on SQLite the
   * seat as they hold it now (null: they hold none); on PostgreSQL the seat is read next (orgSeat.ts).
   */
  org?: { pool: Pool; seat?: SeatRow | null };
}

/** The organisation whose seat the user held when the use arrived, and its period. */
export interface SeatAtUse {
  orgId: string;
  periodStart: number;
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
  /** What the user's organisation paid (a seat holder's use), and the notices it marks. */
  org: SeatUseWritten | null;
  /** A hold's expiry (decision 043): its units are what it held. Null for a use recorded at once. */
  holdExpiresAt: number | null;
}

/**
 * One write of a use: a statement built by a function of the query creator, to run on its own
 * (SQLite) or as a data-modifying CTE named `name` (PostgreSQL), compiled once with placeholder
 * values, each bound once.
 */
export interface WritePart {
  name: string;
  build: (qc: QueryCreator<Database>) => Compilable<unknown>;
}

/** A write and its values, in the order its SQL takes them. */
export type WriteStep = readonly [WritePart, readonly unknown[]];

/**
 * The statements of `POST /api/ingest/usage`, compiled once (db/compiledQuery.ts): building and
 * compiling them with Kysely was 17 % of a use's CPU on SQLite in issue 26's profile. Each is
 * compiled with placeholder values, each bound once, in the order its SQL takes them.
 */
export function createRecordingStatements(db: Db) {
  const postgres = isPostgres(db);
  const holdUser = createUserHold(db);

  const account = () =>
    db
      .selectFrom('credit_balances as b')
      .leftJoin('usage_periods as p', (join) => join.onRef('p.user_id', '=', 'b.user_id').on('p.period_start', '=', 0))
      .leftJoin('usage_events as e', (join) => join.onRef('e.user_id', '=', 'b.user_id').on('e.request_id', '=', ''))
      .select(['b.credits', 'p.allowance_used', 'p.notified_80_at', 'p.notified_100_at', 'e.answer', 'e.fingerprint'])
      .where('b.user_id', '=', '');
  const read = account().compile();
  // A seat holder's use takes their seat's row, after their own rows (orgSeat.ts): a removal or a
  // seat taken back waits for the use, or the use sees it. The pool's row is taken only when the
  // pool pays (poolForUse). On PostgreSQL the seat is taken by the statement after the account's
  // read, `for update of` the seat alone (a statement that waited for it reads the seat as it is
  // then, and no row if it was taken back); the pool beside it is a reading, for the answer. On
  // SQLite, which runs one write at a time, the one read reads the account, the seat and the pool.
  const withPool = () =>
    account()
      .innerJoin('org_pools as pool', (join) => join.on('pool.org_id', '=', ''))
      .select(['pool.credits as pool_credits', 'pool.high_water as pool_high_water', 'pool.low_notified_at as pool_low_notified_at']);
  const readWithSeat = withPool()
    .leftJoin('org_seats as s', (join) => join.onRef('s.org_id', '=', 'pool.org_id').onRef('s.user_id', '=', 'b.user_id'))
    .leftJoin('org_members as m', (join) => join.onRef('m.org_id', '=', 's.org_id').onRef('m.user_id', '=', 's.user_id'))
    .leftJoin('org_member_periods as mp', (join) =>
      join.onRef('mp.org_id', '=', 's.org_id').onRef('mp.user_id', '=', 's.user_id').on('mp.period_start', '=', 0),
    )
    .select([
      's.id as seat_id',
      's.period_start as seat_period_start',
      's.allowance_used as seat_used',
      'm.user_id as member_id',
      'm.monthly_limit',
      'mp.pool_used',
      'mp.notified_80_at as member_80_at',
      'mp.notified_100_at as member_100_at',
    ])
    .compile();
  const seatLocked = db
    .selectFrom('org_seats as s')
    .innerJoin('org_members as m', (join) => join.onRef('m.org_id', '=', 's.org_id').onRef('m.user_id', '=', 's.user_id'))
    .leftJoin('org_member_periods as mp', (join) =>
      join.onRef('mp.org_id', '=', 's.org_id').onRef('mp.user_id', '=', 's.user_id').on('mp.period_start', '=', 0),
    )
    .leftJoin('org_pools as pool', 'pool.org_id', 's.org_id')
    .select([
      's.id',
      's.period_start',
      's.allowance_used',
      'm.monthly_limit',
      'mp.pool_used',
      'mp.notified_80_at',
      'mp.notified_100_at',
      'pool.credits as pool_credits',
      'pool.high_water as pool_high_water',
      'pool.low_notified_at as pool_low_notified_at',
    ])
    .where('s.org_id', '=', '')
    .where('s.user_id', '=', '')
    .forUpdate('s')
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

  // The writes change different tables, so none needs to see another's effect.
  const addToPeriod: WritePart = {
    name: 'period',
    build: (qc) =>
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
        ),
  };
  const payWithCredits: WritePart = {
    name: 'ledger',
    build: (qc) => qc.insertInto('credit_ledger').values({ id: '', user_id: '', amount: 0, reason: 'Queries', source: '', created_at: 0 }),
  };
  const insertUse: WritePart = {
    name: 'use',
    build: (qc) =>
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
        held_units: 0,
        hold_expires_at: 0,
        seat_id: '',
      }),
  };
  const addToDay: WritePart = {
    name: 'day',
    build: (qc) =>
      qc
        .insertInto('usage_daily')
        .values({ user_id: '', day: 0, project_id: '', engine_version: '', uses: 1, units: 0 })
        .onConflict((oc) =>
          oc.columns(['user_id', 'day', 'project_id', 'engine_version']).doUpdateSet((eb) => ({
            uses: eb('usage_daily.uses', '+', eb.ref('excluded.uses')),
            units: eb('usage_daily.units', '+', eb.ref('excluded.units')),
          })),
        ),
  };

  // SQLite: each write on its own, compiled on its first use.
  const apart = new Map<WritePart, CompiledQuery>();
  const alone = (part: WritePart): CompiledQuery => {
    let statement = apart.get(part);
    if (!statement) {
      statement = part.build(db).compile();
      apart.set(part, statement);
    }
    return statement;
  };
  // PostgreSQL: the writes in one statement, one round trip while the account (and a seat
  // holder's pool) is held instead of four to eight, compiled for each set of writes on its first
  // use: the last is the statement, the others its data-modifying CTEs. The CTEs' names add tables
  // no write refers to: the builders take the creator as the schema's.
  const together = new Map<string, CompiledQuery>();
  const plain = (qc: unknown) => qc as QueryCreator<Database>;
  const combined = (parts: WritePart[]): CompiledQuery => {
    const key = parts.map((part) => part.name).join(',');
    let statement = together.get(key);
    if (!statement) {
      let creator = plain(db);
      for (const part of parts.slice(0, -1)) creator = plain(creator.with(part.name, (qc) => part.build(plain(qc)) as never));
      statement = parts[parts.length - 1]!.build(creator).compile();
      together.set(key, statement);
    }
    return statement;
  };

  const poolTaken = (row: { pool_credits: number | null; pool_high_water: number | null; pool_low_notified_at: number | null }) =>
    poolOf({ credits: row.pool_credits, high_water: row.pool_high_water, low_notified_at: row.pool_low_notified_at });

  /**
   * Takes the account (PostgreSQL) and reads it, with a seat holder's pool (and seat, SQLite); no
   * row when the user has no balance row yet. A pool missing (an organisation's from before pools
   * were made) is made and taken as lockPool does, and the account read again.
   */
  type AccountRow = {
    credits: number;
    allowance_used: number | null;
    notified_80_at: number | null;
    notified_100_at: number | null;
    answer: string | null;
    fingerprint: string | null;
    org?: AccountAtUse['org'];
  };
  async function readAccount(
    trx: Db,
    userId: string,
    periodStart: number,
    requestId: string,
    seat: SeatAtUse | null,
  ): Promise<AccountRow | undefined> {
    if (postgres) {
      const [locked] = (await trx.executeQuery(withParameters(lock, [userId]))).rows;
      if (!locked) return undefined;
    }
    const alone = async () => (await trx.executeQuery(withParameters(read, [periodStart, requestId, userId]))).rows[0];
    if (!seat) return alone();
    const withOrg = async (): Promise<AccountRow | undefined> => {
      if (postgres) {
        const account = await alone();
        if (!account) return undefined;
        const [held] = (await trx.executeQuery(withParameters(seatLocked, [seat.periodStart, seat.orgId, userId]))).rows;
        const pool = poolTaken(held ?? { pool_credits: 0, pool_high_water: 0, pool_low_notified_at: null });
        return { ...account, org: { pool, seat: held ?? null } };
      }
      const [row] = (await trx.executeQuery(withParameters(readWithSeat, [periodStart, requestId, seat.orgId, seat.periodStart, userId])))
        .rows;
      if (!row) return undefined;
      const held: SeatRow | null =
        row.seat_id !== null && row.member_id !== null
          ? {
              id: row.seat_id,
              period_start: Number(row.seat_period_start),
              allowance_used: Number(row.seat_used),
              monthly_limit: row.monthly_limit,
              pool_used: row.pool_used,
              notified_80_at: row.member_80_at,
              notified_100_at: row.member_100_at,
            }
          : null;
      return { ...row, org: { pool: poolTaken(row), seat: held } };
    };
    const found = await withOrg();
    if (found || postgres) return found;
    const account = await alone();
    if (!account) return found;
    // SQLite: the organisation was deleted since its seat was read (a use waits for its group's
    // commit, decision 044): the user holds no seat now. One from before pools were made gets its pool.
    const org = await trx.selectFrom('orgs').select('id').where('id', '=', seat.orgId).executeTakeFirst();
    if (!org) return { ...account, org: { pool: poolOf(undefined), seat: null } };
    await lockPool(trx, seat.orgId);
    return withOrg();
  }

  return {
    /**
     * The pool as a use that draws on it must read it: taken (PostgreSQL `for update`, after the
     * seat) and read afresh; on SQLite the account's read was already the pool as it is.
     */
    async poolForUse(trx: Db, orgId: string, read: Pool): Promise<Pool> {
      return postgres ? lockPool(trx, orgId) : read;
    },

    /**
     * Takes the user's account for the rest of the transaction (as standing.ts `lockAccount`) and
     * reads what recording a use needs: one statement on SQLite, the lock and then the read on
     * PostgreSQL; for a seat holder, their organisation's pool taken after their own rows (and
     * their seat, SQLite). A user's first use opens their balance row, then reads again. The user's
     * own row is held before the balance row, in the order an account's deletion takes them
     * (userLock.ts): 404 when the user was deleted meanwhile.
     */
    async lockAndRead(trx: Db, userId: string, periodStart: number, requestId: string, seat: SeatAtUse | null): Promise<AccountAtUse> {
      await holdUser(trx, userId);
      let row = await readAccount(trx, userId, periodStart, requestId, seat);
      if (!row) {
        await trx.executeQuery(withParameters(openAccount, [userId, 0]));
        row = await readAccount(trx, userId, periodStart, requestId, seat);
      }
      return {
        credits: Number(row?.credits ?? 0),
        allowanceUsed: Number(row?.allowance_used ?? 0),
        sent80: row?.notified_80_at != null,
        sent100: row?.notified_100_at != null,
        seen: row?.answer != null && row.fingerprint != null ? { answer: row.answer, fingerprint: row.fingerprint } : null,
        ...(row?.org ? { org: row.org } : {}),
      };
    },

    /**
     * Writes the use: the period's totals, the ledger entry when credits pay, the use itself and
     * its day's roll-up; and what the user's organisation paid (orgSeat.ts seatWriteSteps).
     */
    async write(trx: Db, use: UseWritten): Promise<void> {
      const { userId, org } = use;
      const steps: WriteStep[] = [
        [addToPeriod, [userId, use.period.start, use.period.end, use.fromAllowance, use.fromCredits, use.notified80At, use.notified100At]],
      ];
      if (use.fromCredits > 0)
        steps.push([payWithCredits, [use.ledgerId, userId, -use.fromCredits, 'Queries', `usage:${use.id}`, use.recordedAt]]);
      steps.push([
        insertUse,
        [
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
          org?.orgId ?? null,
          org?.periodStart ?? null,
          org?.seat ?? 0,
          org?.pool ?? 0,
          use.holdExpiresAt === null ? null : use.units,
          use.holdExpiresAt,
          use.holdExpiresAt === null ? null : (org?.seatId ?? null),
        ],
      ]);
      steps.push([addToDay, [userId, use.day, use.projectId ?? '', use.engineVersion ?? '', 1, use.units]]);
      if (org) steps.push(...seatWriteSteps({ ...use, at: use.recordedAt }, org));
      if (postgres) {
        const statement = combined(steps.map(([part]) => part));
        await trx.executeQuery(
          withParameters(
            statement,
            steps.flatMap(([, values]) => values),
          ),
        );
        return;
      }
      for (const [part, values] of steps) await trx.executeQuery(withParameters(alone(part), values));
    },
  };
}
