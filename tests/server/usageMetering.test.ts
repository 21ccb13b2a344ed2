/**
 * Usage metering end to end over HTTP (issue 26): recording uses through the ingestion API, what
 * is left, idempotency, refusal when nothing can pay, and staff credit grants and deductions.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { UsageRecorded, UsageRemaining, UsageSummary } from '../../contract/usage';
import { signedInAdmin, signedInUser, type Signed } from './adminFlow';
import { databases, errorBody, type TestClient, useTestServer } from './harness';
import { grantPack, subscribeTo } from './usageFixtures';

const SERVICE_TOKEN = 's'.repeat(40);
const USAGE_URL = '/api/ingest/usage';

describe.each(databases)('usage metering on $label', (database) => {
  const server = useTestServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN, FREE_QUERIES_PER_MONTH: '0' });
  const service = () => server().client({ authorization: `Bearer ${SERVICE_TOKEN}` });

  async function licensed(): Promise<Signed & { plugin: TestClient }> {
    const user = await signedInUser(server(), 'meter');
    const { license_token: token } = await server()
      .db.selectFrom('users')
      .select('license_token')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return { ...user, plugin: server().client({ authorization: `Bearer ${token}` }) };
  }

  const use = (client: TestClient, body: Record<string, unknown>) => client.post(USAGE_URL, { requestId: randomUUID(), ...body });

  it('charges the allowance first, then pack credits, and says what is left', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '3');
    await grantPack(server().db, user.id, 2);

    const first = await use(user.plugin, { units: 2, projectId: 'p1', engineVersion: '5.6' });
    expect(first.statusCode).toBe(201);
    const recorded = first.json<UsageRecorded>();
    expect(recorded.charged).toEqual({ allowance: 2, credits: 0 });
    expect(recorded.remaining).toMatchObject({ allowance: 1, credits: 2 });

    const second = (await use(service(), { userId: user.id, units: 2 })).json<UsageRecorded>();
    expect(second.charged).toEqual({ allowance: 1, credits: 1 });
    expect(second.remaining).toMatchObject({ allowance: 0, credits: 1 });

    const left = await user.plugin.get('/api/usage/remaining');
    expect(left.statusCode).toBe(200);
    expect(left.json<UsageRemaining>()).toEqual(second.remaining);
    expect((await user.client.get('/api/usage/remaining')).json<UsageRemaining>()).toEqual(second.remaining);

    const summary = (await user.client.get('/api/usage')).json<UsageSummary>();
    expect(summary).toMatchObject({ plan: 'Sage Pro', allowance: 3, allowanceUsed: 3, creditsUsed: 1 });

    // The ledger holds the credit spent, and the balance every reader sees follows it.
    const ledger = await server().db.selectFrom('credit_ledger').select(['amount', 'source']).where('user_id', '=', user.id).execute();
    expect(ledger.map((e) => e.amount).sort()).toEqual([-1, 2]);
  });

  it("downloads this period's uses as CSV, oldest first, with what paid each", async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '3');
    await grantPack(server().db, user.id, 5);
    // Said times, a second apart: the file's order is theirs.
    for (const [units, projectId, secondsAgo] of [
      [2, 'p1', 2],
      [2, 'p2', 1],
    ] as const) {
      const occurredAt = new Date(Date.now() - secondsAgo * 1000).toISOString();
      expect((await use(user.plugin, { units, projectId, engineVersion: '5.6', occurredAt })).statusCode).toBe(201);
    }
    const csv = await user.client.get('/api/usage/period.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="usage-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'occurred_at,request_id,units,from_allowance,from_credits,project_id,engine_version,plugin_version,model,feature',
    );
    expect(lines.slice(1).map((line) => line.split(',').slice(2, 7))).toEqual([
      ['2', '2', '0', 'p1', '5.6'],
      ['2', '1', '1', 'p2', '5.6'],
    ]);
  });

  it('refuses with 402 what cannot be paid in full, and charges nothing', async () => {
    const user = await licensed();
    await grantPack(server().db, user.id, 1);
    const refused = await use(user.plugin, { units: 2 });
    expect(refused.statusCode).toBe(402);
    expect(errorBody(refused).error).toBe('quota_exhausted');
    expect((await user.plugin.get('/api/usage/remaining')).json<UsageRemaining>()).toMatchObject({ allowance: 0, credits: 1 });
    expect(await server().db.selectFrom('usage_events').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('never refuses an Unlimited plan, nor touches its credits', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '');
    await grantPack(server().db, user.id, 5);
    const answer = (await use(user.plugin, { units: 1000 })).json<UsageRecorded>();
    expect(answer.charged).toEqual({ allowance: 1000, credits: 0 });
    expect(answer.remaining).toMatchObject({ allowance: null, credits: 5 });
  });

  it('answers a repeated requestId with the first answer, and 409 when its content differs', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '10');
    const body = { requestId: `r-${randomUUID()}`, units: 3, model: 'm1' };
    const first = await user.plugin.post(USAGE_URL, body);
    const again = await user.plugin.post(USAGE_URL, body);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect((await user.client.get('/api/usage')).json<UsageSummary>().allowanceUsed).toBe(3);

    const changed = await user.plugin.post(USAGE_URL, { ...body, units: 4 });
    expect(changed.statusCode).toBe(409);
    expect(errorBody(changed).error).toBe('request_id_reused');
  });

  it('with k units left, N > k concurrent uses succeed exactly k times', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '7');
    await grantPack(server().db, user.id, 5);
    const answers = await Promise.all(Array.from({ length: 30 }, () => use(service(), { userId: user.id })));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(12);
    expect(codes.filter((c) => c === 402)).toHaveLength(18);
    const events = await server()
      .db.selectFrom('usage_events')
      .select(['from_allowance', 'from_credits'])
      .where('user_id', '=', user.id)
      .execute();
    expect(events.reduce((n, e) => n + e.from_allowance, 0)).toBe(7);
    expect(events.reduce((n, e) => n + e.from_credits, 0)).toBe(5);
    const balance = await server()
      .db.selectFrom('credit_balances')
      .select('credits')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(balance.credits)).toBe(0);
  });

  it('refuses an occurredAt older than the days uses are kept, or more than a day ahead, and charges nothing (issue 36)', async () => {
    const user = await licensed();
    await grantPack(server().db, user.id, 5);
    const DAY = 86_400_000;
    const days = server().config.usage.retentionDays;
    const tooOld = await use(service(), { userId: user.id, occurredAt: '1970-01-01T00:00:00Z' });
    expect(tooOld.statusCode).toBe(400);
    expect(errorBody(tooOld)).toEqual({ error: 'occurred_at_too_old', message: `occurredAt is older than the ${days} days uses are kept` });
    const justTooOld = await use(user.plugin, { occurredAt: new Date(Date.now() - (days + 1) * DAY).toISOString() });
    expect(errorBody(justTooOld).error).toBe('occurred_at_too_old');
    const ahead = await use(service(), { userId: user.id, occurredAt: new Date(Date.now() + 2 * DAY).toISOString() });
    expect(ahead.statusCode).toBe(400);
    expect(errorBody(ahead)).toEqual({
      error: 'occurred_at_in_future',
      message: 'occurredAt is more than a day after the request arrived',
    });

    // Nothing was charged, and nothing reached the charts or the raw uses.
    const remaining = (await user.plugin.get('/api/usage/remaining')).json<UsageRemaining>();
    expect(remaining.credits).toBe(5);
    const daily = await server().db.selectFrom('usage_daily').select('day').where('user_id', '=', user.id).execute();
    expect(daily).toEqual([]);

    // Within the window, and a few minutes ahead (another clock), both are recorded: the latter at its arrival.
    const old = new Date(Date.now() - (days - 1) * DAY).toISOString();
    expect((await use(service(), { userId: user.id, occurredAt: old })).statusCode).toBe(201);
    const before = Date.now();
    expect((await use(user.plugin, { occurredAt: new Date(Date.now() + 5 * 60_000).toISOString() })).statusCode).toBe(201);
    const times = await server()
      .db.selectFrom('usage_events')
      .select('occurred_at')
      .where('user_id', '=', user.id)
      .orderBy('occurred_at')
      .execute();
    expect(times.map((t) => Number(t.occurred_at))).toEqual([Date.parse(old), expect.any(Number)]);
    expect(Number(times[1]!.occurred_at)).toBeGreaterThanOrEqual(before);
    expect(Number(times[1]!.occurred_at)).toBeLessThanOrEqual(Date.now());
  });

  it('validates the body, and keeps a license token to its own user', async () => {
    const user = await licensed();
    const other = await licensed();
    for (const body of [{ units: 0 }, { units: 1.5 }, { requestId: '' }, { requestId: 'x'.repeat(101) }, { projectId: 'p'.repeat(65) }]) {
      const answer = await use(user.plugin, body);
      expect(answer.statusCode).toBe(400);
    }
    expect((await use(user.plugin, { userId: other.id })).statusCode).toBe(403);
    expect((await use(service(), {})).statusCode).toBe(400);
    expect((await server().client().post(USAGE_URL, { requestId: 'a' })).statusCode).toBe(401);
    expect((await server().client().get('/api/usage/remaining')).statusCode).toBe(401);
  });

  it('lets staff grant and deduct credits with a reason, never below zero, audited', async () => {
    const admin = await signedInAdmin(server());
    const user = await licensed();
    const grant = await admin.client.post(`/api/admin/users/${user.id}/credits`, { amount: 10, reason: 'Goodwill' });
    expect(grant.statusCode).toBe(200);
    expect(grant.json()).toEqual({ credits: 10 });
    const tooMuch = await admin.client.post(`/api/admin/users/${user.id}/credits`, { amount: -11, reason: 'Mistake' });
    expect(tooMuch.statusCode).toBe(409);
    expect(errorBody(tooMuch).error).toBe('insufficient_credits');
    expect((await admin.client.post(`/api/admin/users/${user.id}/credits`, { amount: -4, reason: 'Mistake' })).json()).toEqual({
      credits: 6,
    });
    expect((await admin.client.post(`/api/admin/users/${user.id}/credits`, { amount: 3 })).statusCode).toBe(400);
    expect((await user.client.post(`/api/admin/users/${user.id}/credits`, { amount: 3, reason: 'me' })).statusCode).toBe(403);
    const audit = await server()
      .db.selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', user.id)
      .orderBy('created_at')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['user.credits.grant', 'user.credits.deduct']);
    expect((await user.plugin.get('/api/usage/remaining')).json<UsageRemaining>().credits).toBe(6);
  });

  it('mails the user once per period at 80 % and at 100 % of the allowance, and when credits run out', async () => {
    const user = await licensed();
    await subscribeTo(server().db, user.id, '10');
    await grantPack(server().db, user.id, 1);
    const subjects = () =>
      server()
        .smtp.mailsTo(user.email)
        .map((m) => m.subject);
    const before = subjects().length;

    await use(user.plugin, { units: 7 });
    await use(user.plugin, { units: 1 }); // 8 of 10: 80 %
    await server().smtp.waitForMail(user.email);
    await use(user.plugin, { units: 1 }); // 9 of 10: nothing new
    await use(user.plugin, { units: 2 }); // 10 of 10, then the last credit
    await expect.poll(() => subjects().length).toBe(before + 3);
    expect(subjects().slice(before)).toEqual([
      'You have used 80 % of your Sage queries',
      'You have used all of your Sage queries',
      'Your Sage credits have run out',
    ]);
    const [mail] = server().smtp.mailsTo(user.email).slice(-1);
    expect(mail?.links).toContain('http://sage.test/dashboard#usage');
    expect((await use(user.plugin, { units: 1 })).statusCode).toBe(402);
    expect(subjects()).toHaveLength(before + 3);
  });

  it('leaves nothing charged when a use fails before it commits', async () => {
    const user = await licensed();
    await grantPack(server().db, user.id, 5);
    // The roll-up is the use's last write: make it fail for one project.
    if (database.kind === 'postgres') {
      await sql`create function usage_daily_fails() returns trigger language plpgsql as $$ begin
          if new.project_id = 'crash' then raise exception 'injected failure'; end if; return new; end $$`.execute(server().db);
      await sql`create trigger usage_daily_fails before insert on usage_daily for each row execute function usage_daily_fails()`.execute(
        server().db,
      );
    } else {
      await sql`create trigger usage_daily_fails before insert on usage_daily when new.project_id = 'crash'
          begin select raise(abort, 'injected failure'); end`.execute(server().db);
    }
    const failed = await use(user.plugin, { units: 2, projectId: 'crash' });
    expect(failed.statusCode).toBe(500);
    const db = server().db;
    expect(await db.selectFrom('usage_events').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await db.selectFrom('usage_periods').select('user_id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await db.selectFrom('credit_ledger').select('amount').where('user_id', '=', user.id).execute()).toEqual([{ amount: 5 }]);
    expect((await user.plugin.get('/api/usage/remaining')).json<UsageRemaining>().credits).toBe(5);
    // The same request, once the fault is gone, is charged once.
    await sql`drop trigger usage_daily_fails${sql.raw(database.kind === 'postgres' ? ' on usage_daily' : '')}`.execute(db);
    expect((await use(user.plugin, { units: 2 })).json<UsageRecorded>().remaining.credits).toBe(3);
  });
});
