/**
 * Exactness under concurrency for a studio (issue 38, decision 042), on each database, over random
 * trials: seats given at once are never more than were bought; uses racing each other never spend
 * more of the pool or a member's limit than there is, and every credit is accounted for; a member
 * removed while their uses are in flight is never charged to the organisation once the removal has
 * answered.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { UsageRecorded } from '../../contract/usage';
import { signedInUser } from './adminFlow';
import { accounts, studio } from './orgFixtures';
import { databases, useTestServer, type TestClient } from './harness';

const SERVICE_TOKEN = 'c'.repeat(40);
const TRIALS = 3;
const patch = (client: TestClient, url: string, json: unknown) => client.request('PATCH', url, { json });

describe.each(databases)('a studio under concurrency on $label', (database) => {
  const server = useTestServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN, FREE_QUERIES_PER_MONTH: '0' }, { epic: false });
  const service = () => server().client({ authorization: `Bearer ${SERVICE_TOKEN}` });
  const use = (userId: string, units: number) => service().post('/api/ingest/usage', { requestId: randomUUID(), userId, units });

  it('never gives more seats than were bought, however many are given at once', async () => {
    const owner = await signedInUser(server(), 'race-owner');
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const members = await accounts(server().db, 6);
      const seats = randomInt(1, 5);
      const orgId = await studio(server().db, owner, members, { seats, perSeat: 10, pool: 0 });
      const answers = await Promise.all(members.map((m) => patch(owner.client, `/api/orgs/${orgId}/members/${m.id}`, { seat: true })));
      const given = answers.filter((a) => a.statusCode === 200).length;
      expect(given, `trial ${trial}: ${seats} seats`).toBe(seats);
      expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(members.length - seats);
      const rows = await server()
        .db.selectFrom('org_seats')
        .select('user_id')
        .where('org_id', '=', orgId)
        .where('user_id', 'is not', null)
        .execute();
      expect(rows).toHaveLength(seats);
    }
  });

  it('spends the pool and each limit exactly when uses race, and accounts for every credit', async () => {
    const owner = await signedInUser(server(), 'race-owner');
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const members = await accounts(server().db, 3);
      const [perSeat, pool, limit] = [randomInt(0, 4), randomInt(5, 15), randomInt(1, 6)];
      const orgId = await studio(server().db, owner, members, { seats: 3, perSeat, pool });
      for (const m of members) {
        await patch(owner.client, `/api/orgs/${orgId}/members/${m.id}`, { seat: true, monthlyLimit: limit });
      }
      const answers = await Promise.all(members.flatMap((m) => Array.from({ length: 8 }, () => use(m.id, randomInt(1, 3)))));
      const paid = answers.filter((a) => a.statusCode === 201).map((a) => a.json<UsageRecorded>());
      expect(answers.every((a) => a.statusCode === 201 || a.statusCode === 402)).toBe(true);
      const fromPool = paid.reduce((sum, r) => sum + (r.charged.org?.pool ?? 0), 0);
      const left = await server().db.selectFrom('org_pools').select('credits').where('org_id', '=', orgId).executeTakeFirstOrThrow();
      expect(Number(left.credits), `trial ${trial}`).toBe(pool - fromPool);
      expect(Number(left.credits)).toBeGreaterThanOrEqual(0);
      const periods = await server().db.selectFrom('org_member_periods').selectAll().where('org_id', '=', orgId).execute();
      for (const period of periods) {
        expect(Number(period.pool_used)).toBeLessThanOrEqual(limit);
        expect(Number(period.seat_used)).toBeLessThanOrEqual(perSeat);
      }
      // Every unit was paid by exactly one of the seat, the pool and the member's own (here: nothing).
      for (const r of paid)
        expect((r.charged.org?.seat ?? 0) + (r.charged.org?.pool ?? 0) + r.charged.allowance + r.charged.credits).toBe(r.units);
      const events = await server().db.selectFrom('usage_events').select(['from_seat', 'from_pool']).where('org_id', '=', orgId).execute();
      expect(events.reduce((sum, e) => sum + Number(e.from_pool), 0)).toBe(fromPool);
    }
  });

  it("never charges the organisation for a removed member's use once the removal has answered", async () => {
    const owner = await signedInUser(server(), 'race-owner');
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const [artist] = await accounts(server().db, 1);
      const orgId = await studio(server().db, owner, [artist!], { seats: 1, perSeat: 1000, pool: 0 });
      await patch(owner.client, `/api/orgs/${orgId}/members/${artist!.id}`, { seat: true });
      // The member's own credits pay once the organisation no longer does.
      await server()
        .db.insertInto('credit_ledger')
        .values({
          id: randomUUID(),
          user_id: artist!.id,
          amount: 1000,
          reason: 'Pack',
          source: `checkout:cs_${randomUUID()}`,
          created_at: Date.now(),
        })
        .execute();
      let removedAt = Infinity;
      const sent: { at: number; answer: Promise<UsageRecorded> }[] = [];
      const removal = (async () => {
        await new Promise((resolve) => setTimeout(resolve, randomInt(0, 20)));
        const answer = await owner.client.request('DELETE', `/api/orgs/${orgId}/members/${artist!.id}`);
        expect(answer.statusCode).toBe(200);
        removedAt = performance.now();
      })();
      for (let i = 0; i < 30; i += 1) {
        sent.push({ at: performance.now(), answer: use(artist!.id, 1).then((a) => a.json<UsageRecorded>()) });
        await new Promise((resolve) => setImmediate(resolve));
      }
      await removal;
      for (let i = 0; i < 5; i += 1) sent.push({ at: performance.now(), answer: use(artist!.id, 1).then((a) => a.json<UsageRecorded>()) });
      const answers = await Promise.all(sent.map(async (s) => ({ at: s.at, recorded: await s.answer })));
      for (const { at, recorded } of answers) {
        if (at > removedAt) expect(recorded.charged.org, `trial ${trial}`).toBeUndefined();
      }
      const seat = await server()
        .db.selectFrom('org_seats')
        .select(['user_id', 'allowance_used'])
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      expect(seat.user_id).toBeNull();
      const charged = answers.filter((a) => a.recorded.charged.org).length;
      expect(Number(seat.allowance_used)).toBe(charged);
    }
  });

  it("deletes an organisation while its members' uses are in flight, without a deadlock or a use charged to it afterwards", async () => {
    const owner = await signedInUser(server(), 'race-owner');
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const members = await accounts(server().db, 2);
      const orgId = await studio(server().db, owner, members, { seats: 2, perSeat: 3, pool: 20 });
      for (const m of members) await patch(owner.client, `/api/orgs/${orgId}/members/${m.id}`, { seat: true });
      for (const m of members) {
        await server()
          .db.insertInto('credit_ledger')
          .values({
            id: randomUUID(),
            user_id: m.id,
            amount: 100,
            reason: 'Pack',
            source: `checkout:cs_${randomUUID()}`,
            created_at: Date.now(),
          })
          .execute();
      }
      const uses = members.flatMap((m) => Array.from({ length: 8 }, () => use(m.id, randomInt(1, 3))));
      const deleted = (async () => {
        await new Promise((resolve) => setTimeout(resolve, randomInt(0, 15)));
        return owner.client.request('DELETE', `/api/orgs/${orgId}`);
      })();
      const answers = await Promise.all(uses);
      expect((await deleted).statusCode, `trial ${trial}`).toBe(200);
      expect(answers.map((a) => a.statusCode).filter((status) => status !== 201)).toEqual([]);
      expect(await server().db.selectFrom('org_pools').select('org_id').where('org_id', '=', orgId).execute()).toEqual([]);
    }
  });
});
