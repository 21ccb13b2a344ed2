/**
 * Usage metering is exact under concurrency (issue 26): whatever the interleaving, uses charge no
 * more than the allowance and credits there were, and every refused use could not have been paid.
 * On PostgreSQL the uses are spread over two apps with pools of their own, as several instances
 * over one database are; SQLite is one instance's embedded file.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRecorded, UsageRemaining } from '../../contract/usage';
import { openDatabase, type Db } from '../../server/db';
import type { SageApp } from '../../server/app';
import { buildExtraApp, databases, withSearchPath, type OpenedDatabase } from './harness';
import { meteredAccount } from './usageFixtures';

const SERVICE_TOKEN = 'c'.repeat(40);

describe.each(databases)('concurrent uses on $label', (database) => {
  let opened: OpenedDatabase;
  let second: Db | undefined;
  const apps: SageApp[] = [];

  beforeAll(async () => {
    opened = await database.open();
    apps.push(await buildExtraApp(opened.db, { AI_SERVICE_TOKEN: SERVICE_TOKEN }));
    if (database.kind === 'postgres') {
      // A second instance: its own pool over the same schema.
      const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(opened.db)).rows[0]!;
      second = openDatabase({ databaseUrl: withSearchPath(process.env.TEST_DATABASE_URL!, schema), dataDir: '/tmp' });
      apps.push(await buildExtraApp(second, { AI_SERVICE_TOKEN: SERVICE_TOKEN }));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await second?.destroy();
    await opened.dispose();
  });

  const record = (instance: number, body: object) =>
    apps[instance % apps.length]!.inject({
      method: 'POST',
      url: '/api/ingest/usage',
      headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
      payload: body,
    });

  it('charges exactly what there was, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.record({ units: fc.integer({ min: 1, max: 3 }), instance: fc.nat(1), repeat: fc.boolean() }), {
          minLength: 1,
          maxLength: 24,
        }),
        async (allowance, credits, uses) => {
          const userId = await meteredAccount(opened.db, allowance, credits);
          // Some uses are sent twice at once under one requestId: a retry racing its original.
          const sent = uses.flatMap((u, i) => {
            const body = { userId, requestId: `r${i}`, units: u.units };
            return u.repeat
              ? [
                  { body, instance: u.instance },
                  { body, instance: u.instance + 1 },
                ]
              : [{ body, instance: u.instance }];
          });
          const answers = await Promise.all(sent.map((s) => record(s.instance, s.body)));
          expect(answers.every((a) => a.statusCode === 201 || a.statusCode === 402)).toBe(true);

          const charged = new Map<string, UsageRecorded>();
          answers.forEach((a, i) => {
            if (a.statusCode !== 201) return;
            const answer = a.json<UsageRecorded>();
            const first = charged.get(sent[i]!.body.requestId);
            if (first) expect(answer).toEqual(first); // a repeat answers the first answer
            charged.set(answer.requestId, answer);
          });
          const fromAllowance = [...charged.values()].reduce((n, a) => n + a.charged.allowance, 0);
          const fromCredits = [...charged.values()].reduce((n, a) => n + a.charged.credits, 0);
          expect(fromAllowance).toBeLessThanOrEqual(allowance);
          expect(fromCredits).toBeLessThanOrEqual(credits);

          const left = (await record(0, { userId, requestId: 'probe', units: 10_000 })).statusCode;
          expect(left).toBe(402);
          const remaining = (
            await apps[0]!.inject({ url: '/api/usage/remaining', headers: { authorization: `Bearer ${await licenseOf(userId)}` } })
          ).json<UsageRemaining>();
          expect(remaining).toMatchObject({ allowance: allowance - fromAllowance, credits: credits - fromCredits });
          // A refused use could not have been paid: what is left now is less than it asked for.
          answers.forEach((a, i) => {
            if (a.statusCode === 402) expect(sent[i]!.body.units).toBeGreaterThan(remaining.allowance! + remaining.credits);
          });
          const events = await opened.db
            .selectFrom('usage_events')
            .select(['from_allowance', 'from_credits'])
            .where('user_id', '=', userId)
            .execute();
          expect(events).toHaveLength(charged.size);
          expect(events.reduce((n, e) => n + e.from_allowance + e.from_credits, 0)).toBe(fromAllowance + fromCredits);
        },
      ),
      { numRuns: 25 },
    );
  });

  async function licenseOf(userId: string): Promise<string> {
    const row = await opened.db.selectFrom('users').select('license_token').where('id', '=', userId).executeTakeFirstOrThrow();
    return row.license_token;
  }
});
