/**
 * Raw uses are kept USAGE_RETENTION_DAYS (issue 26, docs/usage-metering.md): the hourly
 * housekeeping deletes older ones and leaves the daily roll-ups and the period totals, and several
 * instances pruning one database at once share the work. On PostgreSQL the second instance has a
 * pool of its own, as another server would; SQLite is one instance's embedded file.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PURGE_INTERVAL_MS, type SageApp } from '../../server/app';
import { openDatabase, type Db } from '../../server/db';
import { createMeteringService } from '../../server/services/metering';
import { userRow } from './adminFlow';
import { buildExtraApp, databases, withSearchPath, type OpenedDatabase } from './harness';

const DAY_MS = 86_400_000;
const RETENTION_DAYS = 30;
/** More than one prune batch (5,000), so instances pruning at once meet in several statements. */
const MANY = 12_001;

/** A logger for an app that adds its error lines to `lines`: housekeeping reports its failures there and nowhere else. */
function errorLogger(lines: string[]) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { level: 'error', stream };
}

describe.each(databases)('usage retention on $label', (database) => {
  let opened: OpenedDatabase;
  /** The other instance's pool (PostgreSQL); SQLite's instances share its one file. */
  let second: Db;

  beforeAll(async () => {
    opened = await database.open();
    second = opened.db;
    if (database.kind === 'postgres') {
      const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(opened.db)).rows[0]!;
      second = openDatabase({ databaseUrl: withSearchPath(process.env.TEST_DATABASE_URL!, schema), dataDir: '/tmp' });
    }
  });
  afterAll(async () => {
    if (second !== opened.db) await second.destroy();
    await opened.dispose();
  });
  // Each test counts every raw use in the database: it starts from none.
  beforeEach(async () => {
    await opened.db.deleteFrom('usage_events').execute();
  });

  async function newUser(): Promise<string> {
    const user = userRow();
    await opened.db.insertInto('users').values(user).execute();
    return user.id;
  }

  /** Raw uses of the user recorded at these times, inserted in batches; answers their ids. */
  async function seedUses(userId: string, recordedAt: number[]): Promise<string[]> {
    const rows = recordedAt.map((at) => ({
      id: randomUUID(),
      user_id: userId,
      request_id: randomUUID(),
      fingerprint: 'f',
      units: 1,
      from_allowance: 1,
      from_credits: 0,
      period_start: at,
      occurred_at: at,
      recorded_at: at,
      project_id: null,
      engine_version: null,
      plugin_version: null,
      model: null,
      feature: null,
      answer: '{}',
    }));
    for (let i = 0; i < rows.length; i += 1_000) {
      await opened.db
        .insertInto('usage_events')
        .values(rows.slice(i, i + 1_000))
        .execute();
    }
    return rows.map((r) => r.id);
  }

  /** The user's roll-ups and period totals, which pruning must leave as they are. */
  async function seedRollUps(userId: string, at: number) {
    await opened.db
      .insertInto('usage_daily')
      .values({ user_id: userId, day: Math.floor(at / DAY_MS), project_id: 'p', engine_version: '5.6', uses: 7, units: 9 })
      .execute();
    await opened.db
      .insertInto('usage_periods')
      .values({
        user_id: userId,
        period_start: at,
        period_end: at + 30 * DAY_MS,
        allowance_used: 9,
        credits_used: 0,
        notified_80_at: null,
        notified_100_at: null,
      })
      .execute();
  }

  const rollUpsOf = async (userId: string) => ({
    daily: await opened.db.selectFrom('usage_daily').selectAll().where('user_id', '=', userId).execute(),
    periods: await opened.db.selectFrom('usage_periods').selectAll().where('user_id', '=', userId).execute(),
  });

  const usesLeft = async () => (await opened.db.selectFrom('usage_events').select('id').execute()).map((r) => r.id).sort();

  /** Apps over these pools, their housekeeping run once at the same moment; answers their logged errors once no old use is left. */
  async function housekeepOnce(dbs: Db[]): Promise<string[]> {
    const errors: string[] = [];
    const apps: SageApp[] = [];
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      for (const db of dbs) {
        apps.push(await buildExtraApp(db, { USAGE_RETENTION_DAYS: String(RETENTION_DAYS) }, { logger: errorLogger(errors) }));
      }
      for (const app of apps) await app.ready();
      vi.advanceTimersByTime(PURGE_INTERVAL_MS);
      const cutoff = Date.now() - RETENTION_DAYS * DAY_MS;
      const deadline = Date.now() + 20_000;
      const oldLeft = async () =>
        Number(
          (
            await opened.db
              .selectFrom('usage_events')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('recorded_at', '<', cutoff)
              .executeTakeFirstOrThrow()
          ).n,
        );
      while ((await oldLeft()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // An instance that found nothing left may still be finishing its last statement.
      await new Promise((r) => setTimeout(r, 200));
      return errors;
    } finally {
      for (const app of apps) await app.close();
      vi.useRealTimers();
    }
  }

  it('deletes raw uses older than USAGE_RETENTION_DAYS hourly; recent ones, daily roll-ups and period totals stay', async () => {
    const userId = await newUser();
    const now = Date.now();
    const old = await seedUses(userId, [now - 400 * DAY_MS, now - (RETENTION_DAYS + 1) * DAY_MS, now - RETENTION_DAYS * DAY_MS - 60_000]);
    const recent = await seedUses(userId, [now - (RETENTION_DAYS - 1) * DAY_MS, now - DAY_MS, now]);
    await seedRollUps(userId, now - 400 * DAY_MS);
    const rollUps = await rollUpsOf(userId);
    expect(await usesLeft()).toEqual([...old, ...recent].sort());

    expect(await housekeepOnce([opened.db])).toEqual([]);

    expect(await usesLeft()).toEqual(recent.sort());
    expect(await rollUpsOf(userId)).toEqual(rollUps);
  });

  it('lets two instances prune one database at once: both succeed and together delete exactly the old uses', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const now = Date.now();
    const oldAt = Array.from({ length: MANY }, (_, i) => now - (RETENTION_DAYS + 1) * DAY_MS - i * 1000);
    await seedUses(a, oldAt.slice(0, MANY / 2));
    await seedUses(b, oldAt.slice(MANY / 2));
    const recent = [...(await seedUses(a, [now - DAY_MS, now])), ...(await seedUses(b, [now - 2 * DAY_MS]))];
    await seedRollUps(a, now - 100 * DAY_MS);
    await seedRollUps(b, now - 100 * DAY_MS);
    const rollUps = [await rollUpsOf(a), await rollUpsOf(b)];

    // The meter of each instance, pruning at the same moment: every old use goes exactly once.
    const meter = (db: Db) =>
      createMeteringService({
        db,
        freeQueriesPerMonth: 0,
        retentionDays: RETENTION_DAYS,
        holdMinutes: 15,
        mailer: { send: async () => undefined },
        publicUrl: 'http://sage.test',
        onMailError: () => undefined,
      });
    const deleted = await Promise.all([meter(opened.db).prune(RETENTION_DAYS, now), meter(second).prune(RETENTION_DAYS, now)]);
    expect(deleted[0] + deleted[1]).toBe(MANY);
    expect(await usesLeft()).toEqual(recent.sort());
    expect([await rollUpsOf(a), await rollUpsOf(b)]).toEqual(rollUps);

    // And through the apps' own hourly housekeeping, without a failure logged by either.
    await seedUses(a, oldAt);
    expect(await housekeepOnce([opened.db, second])).toEqual([]);
    expect(await usesLeft()).toEqual(recent.sort());
    expect([await rollUpsOf(a), await rollUpsOf(b)]).toEqual(rollUps);
  });
});
