import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Insights } from '../../contract/insights';
import type { Db } from '../../server/db';
import * as businessInsights from '../../server/db/migrations/008_business_insights';
import * as subscriptionTallies from '../../server/db/migrations/010_subscription_tallies';
import { monthStartDay } from '../../server/services/insights';
import { DAY_MS, utcDay } from '../../server/services/insightRules';
import { del, insertUsers, signedInAdmin, signedInUser, subscriptionRow, userRow } from './adminFlow';
import { location, pkcePair, pluginLoginUrl, signUpWithEpic, uniqueDisplayName } from './epicFlow';
import { databases, errorBody, uniqueEmail, useTestServer, type TestClient } from './harness';

const daysAgo = (days: number, at = Date.now()) => at - days * DAY_MS;

async function insights(admin: TestClient, days?: number): Promise<Insights> {
  const response = await admin.get(`/api/admin/insights${days === undefined ? '' : `?days=${days}`}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Insights>();
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
/** What changed per day between two readings of one series. */
const added = (before: number[], after: number[]) => after.map((value, i) => value - (before[i] ?? 0));
const statusCount = (figures: Insights, status: string) => figures.subscriptionsByStatus.find((row) => row.status === status)?.count ?? 0;
const revenue = (figures: Insights, currency: string) => figures.monthlyRecurringRevenue.find((row) => row.currency === currency);

async function storeMessages(db: Db, userId: string | null, createdAt: number[]) {
  await db
    .insertInto('stored_messages')
    .values(
      createdAt.map((at) => ({
        id: randomUUID(),
        session_id: `s-${randomUUID()}`,
        user_id: userId,
        message: '{}',
        message_size: 2,
        created_at: at,
      })),
    )
    .execute();
}

/** Rows of the metering's per-user daily roll-up (migration 012), as recorded uses leave them. */
async function usageDays(db: Db, rows: { userId: string; day: number; units: number; projectId?: string }[]) {
  await db
    .insertInto('usage_daily')
    .values(
      rows.map((row) => ({
        user_id: row.userId,
        day: row.day,
        project_id: row.projectId ?? '',
        engine_version: '',
        uses: 1,
        units: row.units,
      })),
    )
    .execute();
}

describe('the first day of the UTC month', () => {
  it.each([
    ['2026-11-23T12:00:00Z', '2026-11-01'],
    ['2026-11-01T00:00:00Z', '2026-11-01'],
    ['2026-10-31T23:59:59.999Z', '2026-10-01'],
    ['2024-02-29T08:00:00Z', '2024-02-01'],
    ['2027-01-01T00:00:00.001Z', '2027-01-01'],
  ])('of %s is %s', (now, first) => {
    expect(monthStartDay(Date.parse(now))).toBe(Date.parse(`${first}T00:00:00Z`) / DAY_MS);
  });
});

describe.each(databases)('admin insights on $label', (database) => {
  const server = useTestServer(database, { FREE_QUERIES_PER_MONTH: '1000' });

  it('answers the last 30 UTC days by default, each series one value per day, today last', async () => {
    const { client } = await signedInAdmin(server());
    const figures = await insights(client);
    expect(figures.days).toHaveLength(30);
    expect(figures.days.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    expect(figures.days[0]).toBe(new Date(daysAgo(29)).toISOString().slice(0, 10));
    for (const series of [
      figures.signUps.epic,
      figures.signUps.email,
      figures.pluginSignIns,
      figures.creditsSold,
      figures.messagesStored,
      figures.queriesPerDay,
    ]) {
      expect(series).toHaveLength(30);
    }
    expect((await insights(client, 7)).days).toHaveLength(7);
    expect((await insights(client, 90)).days).toHaveLength(90);
  });

  it('refuses a range other than 7, 30 or 90 days', async () => {
    const { client } = await signedInAdmin(server());
    for (const days of ['14', 'abc', '-7', '']) {
      const response = await client.get(`/api/admin/insights?days=${days}`);
      expect(response.statusCode, days).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_request', message: 'days must be one of 7, 30, 90' });
    }
  });

  it('counts sign-ups per UTC day by method, and keeps counting a deleted user', async () => {
    const { client } = await signedInAdmin(server());
    const before = await insights(client, 90);
    const now = Date.now();
    const epicUsers = [0, 0, 3, 40, 95].map((days) => userRow({ epic_account_id: `epic-${randomUUID()}`, created_at: daysAgo(days, now) }));
    const emailUsers = [0, 3, 3].map((days) => userRow({ created_at: daysAgo(days, now) }));
    // One statement for several rows and days: PostgreSQL's triggers run once per statement.
    await insertUsers(server().db, [...epicUsers, ...emailUsers]);

    const after = await insights(client, 90);
    const epic = added(before.signUps.epic, after.signUps.epic);
    const email = added(before.signUps.email, after.signUps.email);
    expect([epic[89], epic[86], epic[49]]).toEqual([2, 1, 1]);
    expect(sum(epic)).toBe(4); // 95 days ago is outside the range.
    expect([email[89], email[86], sum(email)]).toEqual([1, 2, 3]);

    // The 7-day range sees only the last week.
    const week = await insights(client, 7);
    expect(week.signUps.epic).toEqual(after.signUps.epic.slice(-7));

    const deleted = await del(client, `/api/admin/users/${epicUsers[0]!.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await insights(client, 90)).signUps).toEqual(after.signUps);
  });

  it('counts a registration and a completed plugin sign-in as they happen', async () => {
    const { client } = await signedInAdmin(server());
    const before = await insights(client, 7);

    await signedInUser(server(), 'fresh');
    const pkce = pkcePair();
    const browser = server().client();
    const completed = await signUpWithEpic(server(), browser, {
      displayName: uniqueDisplayName('Charted'),
      email: uniqueEmail('charted'),
      loginUrl: pluginLoginUrl({ code_challenge: pkce.challenge, state: 'insights' }),
    });
    expect(location(completed)).toBe('/login_completed?client=ue');
    const afterSignUp = await insights(client, 7);
    expect(added(before.signUps.email, afterSignUp.signUps.email).at(-1)).toBe(1);
    expect(added(before.signUps.epic, afterSignUp.signUps.epic).at(-1)).toBe(1);
    // The hand-off completes when the plugin exchanges its code, not when the code is made.
    const { code } = (await browser.post('/api/auth/ue-store-payload')).json<{ code: string }>();
    expect(afterSignUp.pluginSignIns).toEqual((await insights(client, 7)).pluginSignIns);

    const exchanged = await server().client().get(`/api/auth/ue-payload?code=${code}&code_verifier=${pkce.verifier}`);
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    // A second exchange of the same code is refused and counts nothing.
    await server().client().get(`/api/auth/ue-payload?code=${code}&code_verifier=${pkce.verifier}`);
    expect(added(afterSignUp.pluginSignIns, (await insights(client, 7)).pluginSignIns).at(-1)).toBe(1);
  });

  it('sums credits bought with packs per day, not credits spent or granted by staff, and counts stored messages', async () => {
    const { client, id } = await signedInAdmin(server());
    const before = await insights(client, 30);
    const now = Date.now();
    await server()
      .db.insertInto('credit_ledger')
      .values([
        { id: randomUUID(), user_id: id, amount: 500, reason: 'Credit pack', source: `checkout:cs_${randomUUID()}`, created_at: now },
        {
          id: randomUUID(),
          user_id: id,
          amount: 100,
          reason: 'Credit pack',
          source: `checkout:cs_${randomUUID()}`,
          created_at: daysAgo(2, now),
        },
        { id: randomUUID(), user_id: id, amount: -40, reason: 'Spent', source: `t:${randomUUID()}`, created_at: now },
        // Staff grants are not sold (migration 012).
        { id: randomUUID(), user_id: id, amount: 70, reason: 'Goodwill', source: `grant:${randomUUID()}`, created_at: now },
      ])
      .execute();
    await storeMessages(server().db, id, [now, now, daysAgo(1, now), daysAgo(45, now)]);
    await storeMessages(server().db, null, [daysAgo(1, now)]);

    const after = await insights(client, 30);
    expect(added(before.creditsSold, after.creditsSold).slice(-3)).toEqual([100, 0, 500]);
    expect(added(before.messagesStored, after.messagesStored).slice(-2)).toEqual([2, 2]);
    expect(sum(added(before.messagesStored, after.messagesStored))).toBe(4);
  });

  it('reads subscriptions by status, monthly recurring revenue per currency and trial conversions from the mirror', async () => {
    const { client } = await signedInAdmin(server());
    const before = await insights(client, 30);
    const before90 = await insights(client, 90);
    const [owner] = await insertUsers(server().db, [userRow()]);
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const now = Date.now();
    const trialEnded = seconds(daysAgo(10, now));
    await server()
      .db.insertInto('billing_subscriptions')
      .values([
        subscriptionRow(owner!.id, {
          status: 'active',
          unit_amount: 2400,
          recurring_interval: 'year',
          currency: 'chf',
          trial_end: trialEnded,
        }),
        subscriptionRow(owner!.id, { status: 'past_due', unit_amount: 1000, recurring_interval: 'week', currency: 'chf' }),
        subscriptionRow(owner!.id, { status: 'trialing', unit_amount: 1000, currency: 'chf', trial_end: seconds(now + 5 * DAY_MS) }),
        subscriptionRow(owner!.id, { status: 'canceled', unit_amount: 1000, currency: 'chf', trial_end: trialEnded }),
        subscriptionRow(owner!.id, { status: 'paused', unit_amount: 1000, currency: 'chf', trial_end: trialEnded }),
        // A trial that ended before the range.
        subscriptionRow(owner!.id, {
          status: 'active',
          unit_amount: 600,
          recurring_interval: 'month',
          recurring_interval_count: 3,
          currency: 'chf',
          trial_end: seconds(daysAgo(60, now)),
        }),
      ])
      .execute();

    const after = await insights(client, 30);
    expect(statusCount(after, 'active') - statusCount(before, 'active')).toBe(2);
    for (const status of ['past_due', 'trialing', 'canceled', 'paused'])
      expect(statusCount(after, status) - statusCount(before, status), status).toBe(1);
    // 2400/12 + 1000×52/12 + 600/3 = 200 + 4333.33 + 200.
    expect(revenue(after, 'chf')).toEqual({ currency: 'chf', amount: 4733, subscriptions: 3 });
    expect(after.trialConversions.ended - before.trialConversions.ended).toBe(3);
    expect(after.trialConversions.converted - before.trialConversions.converted).toBe(1);
    // The 90-day range also holds the trial that ended 60 days ago.
    const after90 = await insights(client, 90);
    expect(after90.trialConversions.ended - before90.trialConversions.ended).toBe(4);
    expect(after90.trialConversions.converted - before90.trialConversions.converted).toBe(2);

    // A subscription the mirror updates moves between the figures: the trial converts, a price changes.
    await server()
      .db.updateTable('billing_subscriptions')
      .set({ status: 'active' })
      .where('user_id', '=', owner!.id)
      .where('status', '=', 'paused')
      .execute();
    const converted = await insights(client, 30);
    expect(statusCount(converted, 'paused') - statusCount(before, 'paused')).toBe(0);
    expect(statusCount(converted, 'active') - statusCount(before, 'active')).toBe(3);
    expect(converted.trialConversions.converted - before.trialConversions.converted).toBe(2);
    expect(revenue(converted, 'chf')).toEqual({ currency: 'chf', amount: 5733, subscriptions: 4 });

    // A deleted user's subscriptions leave the mirror, and the figures with them.
    await server().db.deleteFrom('users').where('id', '=', owner!.id).execute();
    expect(revenue(await insights(client, 30), 'chf')).toBeUndefined();
  });

  it('counts what was there before the roll-ups existed (the migration fills them in)', async () => {
    const { client, id } = await signedInAdmin(server());
    const db = server().db;
    const before = await insights(client, 90);
    await subscriptionTallies.down(db);
    await businessInsights.down(db);
    const now = Date.now();
    await insertUsers(db, [
      userRow({ created_at: daysAgo(5, now) }),
      userRow({ epic_account_id: `epic-${randomUUID()}`, created_at: daysAgo(5, now) }),
    ]);
    await storeMessages(db, id, [daysAgo(5, now)]);
    await db
      .insertInto('billing_subscriptions')
      .values([
        subscriptionRow(id, { status: 'active', currency: 'sek', unit_amount: 9900 }),
        subscriptionRow(id, { status: 'unpaid', currency: 'sek' }),
      ])
      .execute();
    const usersBefore = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>=', daysAgo(89, now))
      .executeTakeFirstOrThrow();
    await businessInsights.up(db);
    await subscriptionTallies.up(db);

    const figures = await insights(client, 90);
    expect(revenue(figures, 'sek')).toEqual({ currency: 'sek', amount: 9900, subscriptions: 1 });
    expect(statusCount(figures, 'unpaid') - statusCount(before, 'unpaid')).toBe(1);
    expect(sum(figures.signUps.epic) + sum(figures.signUps.email)).toBe(Number(usersBefore.n));
    expect(figures.messagesStored[84]).toBeGreaterThanOrEqual(1);
  });

  it('sums every user’s queries per UTC day, a use recorded by the plugin among them', async () => {
    const { client, id } = await signedInAdmin(server());
    const before = await insights(client, 30);
    const [ada, bob] = await insertUsers(server().db, [userRow(), userRow()]);
    const today = utcDay(Date.now());
    await usageDays(server().db, [
      { userId: ada!.id, day: today, units: 5, projectId: 'p1' },
      { userId: ada!.id, day: today, units: 2, projectId: 'p2' },
      { userId: bob!.id, day: today - 2, units: 4 },
      { userId: bob!.id, day: today - 30, units: 100 }, // The day before the range.
    ]);
    const { license_token: token } = await server()
      .db.selectFrom('users')
      .select('license_token')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const recorded = await server()
      .client({ authorization: `Bearer ${token}` })
      .post('/api/ingest/usage', { requestId: randomUUID(), units: 3 });
    expect(recorded.statusCode, recorded.body).toBe(201);

    const after = await insights(client, 30);
    expect(after.queriesPerDay).toHaveLength(30);
    expect(added(before.queriesPerDay, after.queriesPerDay).slice(-3)).toEqual([4, 0, 10]);
    expect(sum(added(before.queriesPerDay, after.queriesPerDay))).toBe(14);
    expect((await insights(client, 7)).queriesPerDay).toEqual(after.queriesPerDay.slice(-7));
  });

  it('lists the ten users with the most queries this UTC month, most first, with a link’s worth of who they are', async () => {
    const { client } = await signedInAdmin(server());
    // Far more queries than any other test's users, so these are the month's top ten whatever ran before.
    const heavy = 1_000_000_000;
    const users = await insertUsers(
      server().db,
      // The first of them has no e-mail (an Epic account that never linked one).
      Array.from({ length: 12 }, (_, i) =>
        userRow({ username: `heavy-${i}-${randomUUID().slice(0, 8)}`, ...(i === 11 ? { email: null } : {}) }),
      ),
    );
    const now = Date.now();
    const monthStart = monthStartDay(now);
    const today = utcDay(now);
    await usageDays(
      server().db,
      users.flatMap((user, i) => [
        // Two days of the month (or today twice, on its first day) add up per user.
        { userId: user.id, day: monthStart, units: heavy + i * 10, projectId: 'a' },
        { userId: user.id, day: today, units: i, projectId: 'b' },
        // Last month's queries do not count towards this month's.
        { userId: user.id, day: monthStart - 1, units: heavy * (12 - i) },
      ]),
    );

    const { topUsers } = await insights(client, 7);
    expect(topUsers).toHaveLength(10);
    const expected = users
      .map((user, i) => ({ userId: user.id, username: user.username, email: user.email, units: heavy + i * 11 }))
      .reverse()
      .slice(0, 10);
    expect(topUsers).toEqual(expected);
    expect(topUsers[0]!.email).toBeNull();

    // The same whatever the range: the top users are this month's.
    expect((await insights(client, 90)).topUsers).toEqual(topUsers);

    // A deleted user's uses go with them.
    await del(client, `/api/admin/users/${users[11]!.id}`);
    expect((await insights(client, 30)).topUsers.map((row) => row.userId)).toEqual([
      ...expected.slice(1).map((row) => row.userId),
      users[1]!.id,
    ]);
  });
});
