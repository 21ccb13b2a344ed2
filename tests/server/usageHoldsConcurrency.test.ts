/**
 * Holds are exact under concurrency (issue 39, decision 043): over random interleavings of holds,
 * settlements, expiries, plain uses and retries, spread over two instances on PostgreSQL (one
 * embedded file on SQLite), nothing is charged beyond what there was, no hold is settled twice,
 * and whatever a hold did not keep is given back.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HoldSettled, UsageHeld, UsageRecorded, UsageRemaining } from '../../contract/usage';
import { openDatabase, type Db } from '../../server/db';
import type { SageApp } from '../../server/app';
import { buildExtraApp, databases, withSearchPath, type OpenedDatabase } from './harness';
import { housekeepingMeter, meteredAccount } from './usageFixtures';

const SERVICE_TOKEN = 'k'.repeat(40);
const AFTER_EXPIRY_MS = 16 * 60_000;

const step = fc.oneof(
  fc.record({ kind: fc.constant('use' as const), units: fc.integer({ min: 1, max: 3 }), instance: fc.nat(1), repeat: fc.boolean() }),
  fc.record({
    kind: fc.constant('hold' as const),
    units: fc.integer({ min: 1, max: 5 }),
    partial: fc.boolean(),
    instance: fc.nat(1),
    repeat: fc.boolean(),
    // What becomes of it: settled for a share of what it held (retried or not), or left to expire.
    settle: fc.option(fc.record({ share: fc.double({ min: 0, max: 1, noNaN: true }), repeat: fc.boolean(), instance: fc.nat(1) }), {
      nil: null,
    }),
  }),
);

describe.each(databases)('concurrent holds on $label', (database) => {
  let opened: OpenedDatabase;
  let second: Db | undefined;
  const apps: SageApp[] = [];
  const meters: ReturnType<typeof housekeepingMeter>[] = [];
  beforeAll(async () => {
    opened = await database.open();
    apps.push(await buildExtraApp(opened.db, { AI_SERVICE_TOKEN: SERVICE_TOKEN }));
    meters.push(housekeepingMeter(opened.db));
    if (database.kind === 'postgres') {
      const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(opened.db)).rows[0]!;
      second = openDatabase({ databaseUrl: withSearchPath(process.env.TEST_DATABASE_URL!, schema), dataDir: '/tmp' });
      apps.push(await buildExtraApp(second, { AI_SERVICE_TOKEN: SERVICE_TOKEN }));
      meters.push(housekeepingMeter(second));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await second?.destroy();
    await opened.dispose();
  });

  const post = (instance: number, url: string, body: object) =>
    apps[instance % apps.length]!.inject({ method: 'POST', url, headers: { authorization: `Bearer ${SERVICE_TOKEN}` }, payload: body });

  it('charges no more than there was, settles each hold once, and gives back what it did not keep', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        fc.array(step, { minLength: 1, maxLength: 16 }),
        async (allowance, credits, steps) => {
          const userId = await meteredAccount(opened.db, allowance, credits);
          const twice = <T>(repeat: boolean, one: () => Promise<T>) => Promise.all(repeat ? [one(), one()] : [one()]);

          // Uses and holds at once (a retry racing its original), then each hold's settlement racing
          // more of them and two instances' housekeeping releasing whatever has expired.
          const first = await Promise.all(
            steps.map((s, i) => {
              const body = { userId, requestId: `r${i}`, units: s.units };
              if (s.kind === 'use') return twice(s.repeat, () => post(s.instance, '/api/ingest/usage', body));
              const hold = s.partial ? { ...body, minUnits: 1 } : body;
              return twice(s.repeat, () => post(s.instance, '/api/ingest/usage/holds', hold));
            }),
          );
          const settling = steps.map(async (s, i) => {
            if (s.kind !== 'hold' || s.settle === null) return [];
            const held = first[i]!.find((a) => a.statusCode === 201)?.json<UsageHeld>();
            if (!held) return [];
            const units = Math.floor(held.units * s.settle.share);
            const instance = s.settle.instance;
            return twice(s.settle.repeat, () => post(instance, `/api/ingest/usage/holds/${held.holdId}/settle`, { units }));
          });
          const later = Date.now() + AFTER_EXPIRY_MS;
          const [settled] = await Promise.all([Promise.all(settling), ...meters.map((m) => m.releaseExpired(later))]);
          await meters[0]!.releaseExpired(later);

          let fromAllowance = 0;
          let fromCredits = 0;
          const holdIds: string[] = [];
          steps.forEach((s, i) => {
            const answers = first[i]!;
            expect(answers.every((a) => a.statusCode === 201 || a.statusCode === 402)).toBe(true);
            const ok = answers.filter((a) => a.statusCode === 201).map((a) => a.json());
            // A retry answers the first answer.
            for (const answer of ok) expect(answer).toEqual(ok[0]);
            if (!ok[0]) return;
            if (s.kind === 'use') {
              const use = ok[0] as UsageRecorded;
              fromAllowance += use.charged.allowance;
              fromCredits += use.charged.credits;
              return;
            }
            const held = ok[0] as UsageHeld;
            holdIds.push(held.holdId);
            const settles = settled[i]!;
            // Settled before its release, or released first and then refused as expired: never both.
            const done = settles.filter((a) => a.statusCode === 200).map((a) => a.json<HoldSettled>());
            for (const answer of done) expect(answer).toEqual(done[0]);
            for (const a of settles) expect([200, 409]).toContain(a.statusCode);
            if (done[0]) {
              expect(settles.every((a) => a.statusCode === 200)).toBe(true);
              expect(done[0].units + done[0].returned).toBe(held.units);
              fromAllowance += done[0].charged.allowance;
              fromCredits += done[0].charged.credits;
            }
          });
          expect(fromAllowance).toBeLessThanOrEqual(allowance);
          expect(fromCredits).toBeLessThanOrEqual(credits);

          const token = (await opened.db.selectFrom('users').select('license_token').where('id', '=', userId).executeTakeFirstOrThrow())
            .license_token;
          const remaining = (
            await apps[0]!.inject({ url: '/api/usage/remaining', headers: { authorization: `Bearer ${token}` } })
          ).json<UsageRemaining>();
          expect(remaining).toMatchObject({ allowance: allowance - fromAllowance, credits: credits - fromCredits });
          expect(remaining.held).toBeUndefined();

          const events = await opened.db
            .selectFrom('usage_events')
            .select(['id', 'from_allowance', 'from_credits', 'hold_expires_at'])
            .where('user_id', '=', userId)
            .execute();
          expect(events.every((e) => e.hold_expires_at === null)).toBe(true);
          expect(events.reduce((n, e) => n + Number(e.from_allowance) + Number(e.from_credits), 0)).toBe(fromAllowance + fromCredits);
          const givenBack = await opened.db.selectFrom('credit_ledger').select('source').where('user_id', '=', userId).execute();
          for (const id of holdIds) expect(givenBack.filter((e) => e.source === `hold:${id}`).length).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 20 },
    );
  });
});
