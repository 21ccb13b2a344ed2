/**
 * Holds over HTTP (issue 39, decision 043): a query priced after it runs reserves units, is
 * settled for what it took, and gives the rest back; a hold left open is released by housekeeping
 * once, on a test clock. Retries, refusals and who may settle what.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { HoldSettled, UsageHeld, UsageRecorded, UsageRemaining, UsageSummary } from '../../contract/usage';
import { signedInUser, type Signed } from './adminFlow';
import { databases, errorBody, type TestClient, useTestServer } from './harness';
import { accounts, studio } from './orgFixtures';
import { grantPack, housekeepingMeter, subscribeTo } from './usageFixtures';

const SERVICE_TOKEN = 'h'.repeat(40);
const HOLDS_URL = '/api/ingest/usage/holds';
const MINUTE_MS = 60_000;

describe.each(databases)('usage holds on $label', (database) => {
  const server = useTestServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN, FREE_QUERIES_PER_MONTH: '0' });
  const service = () => server().client({ authorization: `Bearer ${SERVICE_TOKEN}` });

  async function licensed(prefix = 'holder'): Promise<Signed & { plugin: TestClient }> {
    const user = await signedInUser(server(), prefix);
    const { license_token: token } = await server()
      .db.selectFrom('users')
      .select('license_token')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return { ...user, plugin: server().client({ authorization: `Bearer ${token}` }) };
  }

  const hold = (client: TestClient, body: Record<string, unknown>) => client.post(HOLDS_URL, { requestId: randomUUID(), ...body });
  const settle = (client: TestClient, holdId: string, units: number) => client.post(`${HOLDS_URL}/${holdId}/settle`, { units });

  it('holds 5, counts them as taken and in progress, settles 2 and gives 3 back', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '10');

    const held = await hold(service(), { userId: user.id, units: 5, projectId: 'p1', engineVersion: '5.6' });
    expect(held.statusCode).toBe(201);
    const answer = held.json<UsageHeld>();
    expect(answer).toMatchObject({ units: 5, charged: { allowance: 5, credits: 0 }, remaining: { allowance: 5, credits: 0 } });
    expect(Date.parse(answer.expiresAt) - Date.now()).toBeGreaterThan(14 * MINUTE_MS);

    const during = (await user.client.get('/api/usage')).json<UsageSummary>();
    expect(during).toMatchObject({ allowanceUsed: 5, remaining: { allowance: 5, held: 5 } });
    expect((await user.plugin.get('/api/usage/remaining')).json<UsageRemaining>()).toMatchObject({ allowance: 5, held: 5 });
    // An open hold is not a use yet: the period's CSV lists settled uses.
    expect((await user.client.get('/api/usage/period.csv')).body.trim().split('\r\n')).toHaveLength(1);

    const settled = await settle(service(), answer.holdId, 2);
    expect(settled.statusCode).toBe(200);
    expect(settled.json<HoldSettled>()).toEqual({
      holdId: answer.holdId,
      requestId: answer.requestId,
      units: 2,
      returned: 3,
      charged: { allowance: 2, credits: 0 },
      remaining: expect.objectContaining({ allowance: 8, credits: 0 }),
    });
    const after = (await user.client.get('/api/usage')).json<UsageSummary>();
    expect(after.allowanceUsed).toBe(2);
    expect(after.remaining.held).toBeUndefined();
    const history = (await user.client.get('/api/usage/history?days=30')).json<{ units: number[]; byProject: unknown[] }>();
    expect(history.units.at(-1)).toBe(2);
    expect(history.byProject).toEqual([{ projectId: 'p1', uses: 1, units: 2 }]);
    const csv = (await user.client.get('/api/usage/period.csv')).body.trim().split('\r\n');
    expect(csv.slice(1).map((line) => line.split(',').slice(1, 5))).toEqual([[answer.requestId, '2', '2', '0']]);
  });

  it('gives back pack credits before the allowance, through the ledger', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '3');
    await grantPack(server().db, user.id, 10);
    const answer = (await hold(user.plugin, { units: 6 })).json<UsageHeld>();
    expect(answer.charged).toEqual({ allowance: 3, credits: 3 });
    expect(answer.remaining).toMatchObject({ allowance: 0, credits: 7 });

    const settled = (await settle(user.plugin, answer.holdId, 4)).json<HoldSettled>();
    expect(settled).toMatchObject({
      units: 4,
      returned: 2,
      charged: { allowance: 3, credits: 1 },
      remaining: { allowance: 0, credits: 9 },
    });
    const ledger = await server()
      .db.selectFrom('credit_ledger')
      .select(['amount', 'reason', 'source'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute();
    expect(ledger.map((e) => Number(e.amount))).toEqual([10, -3, 2]);
    expect(ledger[2]).toMatchObject({ reason: 'Held queries given back', source: `hold:${answer.holdId}` });
    const period = await server().db.selectFrom('usage_periods').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect([Number(period.allowance_used), Number(period.credits_used)]).toEqual([3, 1]);
  });

  it('holds what is left down to minUnits, and refuses with 402 below it', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '2');
    const refused = await hold(user.plugin, { units: 5 });
    expect(refused.statusCode).toBe(402);
    expect(errorBody(refused).error).toBe('quota_exhausted');
    expect((await hold(user.plugin, { units: 5, minUnits: 3 })).statusCode).toBe(402);
    const partial = await hold(user.plugin, { units: 5, minUnits: 1 });
    expect(partial.statusCode).toBe(201);
    expect(partial.json<UsageHeld>()).toMatchObject({ units: 2, charged: { allowance: 2, credits: 0 }, remaining: { allowance: 0 } });
    expect((await hold(user.plugin, { units: 1 })).statusCode).toBe(402);
    // Settling for more than was held is the caller's mistake, and changes nothing.
    const over = await settle(user.plugin, partial.json<UsageHeld>().holdId, 3);
    expect(over.statusCode).toBe(400);
    expect(errorBody(over)).toEqual({ error: 'units_over_hold', message: 'units must be at most the 2 held' });
  });

  it('answers a retried hold or settlement with its first answer, and 409 to another body', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '10');
    const body = { requestId: `q-${randomUUID()}`, units: 4, feature: 'chat' };
    const first = await user.plugin.post(HOLDS_URL, body);
    const again = await user.plugin.post(HOLDS_URL, body);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const other = await user.plugin.post(HOLDS_URL, { ...body, units: 3 });
    expect(other.statusCode).toBe(409);
    expect(errorBody(other).error).toBe('request_id_reused');
    // A use and a hold under one requestId are two uses.
    const asUse = await user.plugin.post('/api/ingest/usage', body);
    expect(asUse.statusCode).toBe(409);

    const { holdId } = first.json<UsageHeld>();
    const settled = await settle(user.plugin, holdId, 1);
    const settledAgain = await settle(service(), holdId, 1);
    expect(settledAgain.statusCode).toBe(200);
    expect(settledAgain.json()).toEqual(settled.json());
    const otherSettle = await settle(user.plugin, holdId, 2);
    expect(otherSettle.statusCode).toBe(409);
    expect(errorBody(otherSettle)).toEqual({ error: 'hold_settled', message: 'This hold was already settled for 1 units' });
    // The hold's own retry still answers the hold, after it was settled.
    expect((await user.plugin.post(HOLDS_URL, body)).json()).toEqual(first.json());
    expect((await user.client.get('/api/usage')).json<UsageSummary>().allowanceUsed).toBe(1);
  });

  it("keeps a license token to its own user's holds, and knows no other", async () => {
    const owner = await licensed('owner');
    const stranger = await licensed('stranger');
    await subscribeTo(server().db, owner.id, '10');
    const { holdId } = (await hold(owner.plugin, { units: 2 })).json<UsageHeld>();
    for (const [client, id] of [
      [stranger.plugin, holdId],
      [service(), randomUUID()],
    ] as const) {
      const refused = await settle(client, id, 1);
      expect(refused.statusCode).toBe(404);
      expect(errorBody(refused).error).toBe('hold_not_found');
    }
    // A use recorded at once is not a hold.
    const use = (await owner.plugin.post('/api/ingest/usage', { requestId: randomUUID(), units: 1 })).json<UsageRecorded>();
    const events = await server().db.selectFrom('usage_events').select('id').where('request_id', '=', use.requestId).execute();
    expect((await settle(service(), events[0]!.id, 0)).statusCode).toBe(404);
    expect((await settle(owner.plugin, holdId, 2)).statusCode).toBe(200);
    const invalid = await service().post(`${HOLDS_URL}/${holdId}/settle`, { units: -1 });
    expect(invalid.statusCode).toBe(400);
    expect((await service().post(HOLDS_URL, { requestId: 'x', userId: owner.id, units: 2, minUnits: 3 })).statusCode).toBe(400);
  });

  it("gives a studio member's hold back to the studio's pool and seat, last taken first", async () => {
    const owner = await signedInUser(server(), 'studio-owner');
    const [artist] = await accounts(server().db, 1);
    const orgId = await studio(server().db, owner, [artist!], { seats: 1, perSeat: 3, pool: 10 });
    expect((await owner.client.request('PATCH', `/api/orgs/${orgId}/members/${artist!.id}`, { json: { seat: true } })).statusCode).toBe(
      200,
    );

    const held = (await hold(service(), { userId: artist!.id, units: 6 })).json<UsageHeld>();
    expect(held.charged).toEqual({ allowance: 0, credits: 0, org: { orgId, seat: 3, pool: 3 } });
    expect(held.remaining.org).toMatchObject({ seat: 0, pool: 7 });
    const settled = (await settle(service(), held.holdId, 2)).json<HoldSettled>();
    expect(settled).toMatchObject({ units: 2, returned: 4, charged: { allowance: 0, credits: 0, org: { orgId, seat: 2, pool: 0 } } });
    expect(settled.remaining.org).toMatchObject({ seat: 1, pool: 10 });

    const pool = await server().db.selectFrom('org_pools').select('credits').where('org_id', '=', orgId).executeTakeFirstOrThrow();
    expect(Number(pool.credits)).toBe(10);
    const period = await server()
      .db.selectFrom('org_member_periods')
      .select(['seat_used', 'pool_used'])
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    expect([Number(period.seat_used), Number(period.pool_used)]).toEqual([2, 0]);
    const csv = (await owner.client.get(`/api/orgs/${orgId}/usage/period.csv`)).body.trim().split('\r\n');
    expect(csv).toHaveLength(2);
  });

  it('releases a hold left open after its time, once, whichever instance gets there', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '3');
    await grantPack(server().db, user.id, 4);
    const answer = (await hold(user.plugin, { units: 5 })).json<UsageHeld>();
    expect(answer.charged).toEqual({ allowance: 3, credits: 2 });
    const expiresAt = Date.parse(answer.expiresAt);

    // Before its time nothing is released; after it, two instances' housekeeping race and one releases it.
    // (The suite's other tests leave holds open too: this one's is followed through its user.)
    await housekeepingMeter(server().db).releaseExpired(expiresAt - 1);
    expect((await user.plugin.get('/api/usage/remaining')).json<UsageRemaining>()).toMatchObject({ allowance: 0, credits: 2, held: 5 });
    const released = await Promise.all([
      housekeepingMeter(server().db).releaseExpired(expiresAt + MINUTE_MS),
      housekeepingMeter(server().db).releaseExpired(expiresAt + MINUTE_MS),
    ]);
    expect(released[0] + released[1]).toBeGreaterThanOrEqual(1);
    const givenBack = await server()
      .db.selectFrom('credit_ledger')
      .select('amount')
      .where('source', '=', `hold:${answer.holdId}`)
      .execute();
    expect(givenBack.map((e) => Number(e.amount))).toEqual([2]);
    const left = (await user.plugin.get('/api/usage/remaining')).json<UsageRemaining>();
    expect(left).toMatchObject({ allowance: 3, credits: 4 });
    expect(left.held).toBeUndefined();

    const late = await settle(user.plugin, answer.holdId, 2);
    expect(late.statusCode).toBe(409);
    expect(errorBody(late).error).toBe('hold_expired');
    const history = (await user.client.get('/api/usage/history?days=30')).json<{ units: number[] }>();
    expect(history.units.at(-1)).toBe(0);
  });
});
