/**
 * "Delete my account" (issue 27, docs/account-data.md): `DELETE /api/account` after the user proves
 * it is them, and the console's delete, which takes the same path. Stripe is the Stripe-compatible
 * test server; the user's data is deleted, what accounting needs stays without the person.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_DATA_MESSAGES, type AccountDeletionStatus } from '../../contract/accountData';
import { RECENT_SIGN_IN_MS } from '../../contract/recentSignIn';
import type { AdminUser, AuditEntry } from '../../contract/admin';
import { ERASED } from '../../server/services/account/deletionRules';
import { ageSignIn, seedAccountData, tablesWithUserId } from './accountDataFlow';
import { auditLog, del, signedInAdmin } from './adminFlow';
import { seedCatalogue, signedInUser, subscribe, useBillingServer, type Customer } from './billingFlow';
import { closedLoopbackPort, location, signInWithEpic, signUpWithEpic, uniqueDisplayName } from './epicFlow';
import { buildExtraApp, databases, errorBody, PASSWORD, TestClient, uniqueEmail, type TestServer } from './harness';

const deleteAccount = (client: TestClient, body: unknown) => client.request('DELETE', '/api/account', { json: body });

async function usernameOf(server: TestServer, userId: string): Promise<string> {
  return (await server.db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirstOrThrow()).username;
}

/** The session cookie the answer set to expire, if it did. */
const clearedCookie = (response: { cookies: { name: string; value: string; expires?: Date; maxAge?: number }[] }) =>
  response.cookies.find((c) => c.name === 'sage_session' && (c.value === '' || (c.expires?.getTime() ?? Infinity) <= Date.now()));

/** Rows that still name the user, in every table with a user_id column. */
async function rowsNaming(server: TestServer, userId: string): Promise<Record<string, number>> {
  const left: Record<string, number> = {};
  for (const table of await tablesWithUserId(server.db)) {
    const { n } = await server.db
      .selectFrom(table as 'sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(n) > 0) left[table] = Number(n);
  }
  return left;
}

describe.each(databases)('deleting an account on $label', (database) => {
  const { server, stripe } = useBillingServer(database);

  /** A password account with a live subscription at Stripe and data in every table. */
  async function customerWithData(): Promise<{
    customer: Customer;
    subscriptionId: string;
    seeded: Awaited<ReturnType<typeof seedAccountData>>;
  }> {
    const catalogue = await seedCatalogue(stripe());
    const customer = await signedInUser(server(), 'leaver');
    const subscriptionId = await subscribe(stripe(), customer, catalogue);
    const customerId = (
      await server()
        .db.selectFrom('billing_customers')
        .select('customer_id')
        .where('user_id', '=', customer.userId)
        .executeTakeFirstOrThrow()
    ).customer_id;
    const seeded = await seedAccountData(server().db, customer.userId, { customerId });
    return { customer, subscriptionId, seeded };
  }

  it('refuses a wrong username, a wrong or missing password, and deletes nothing', async () => {
    const me = await signedInUser(server(), 'careful');
    const username = await usernameOf(server(), me.userId);
    await ageSignIn(server().db, me.client, RECENT_SIGN_IN_MS);

    const mistyped = await deleteAccount(me.client, { confirm: `${username}x`, password: PASSWORD });
    expect(mistyped.statusCode).toBe(400);
    expect(errorBody(mistyped)).toEqual({ error: 'confirmation_mismatch', message: ACCOUNT_DATA_MESSAGES.confirmationMismatch });

    const wrong = await deleteAccount(me.client, { confirm: username, password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(errorBody(wrong)).toEqual({ error: 'wrong_password', message: ACCOUNT_DATA_MESSAGES.wrongPassword });

    const missing = await deleteAccount(me.client, { confirm: username });
    expect(missing.statusCode).toBe(403);
    expect(errorBody(missing)).toEqual({ error: 'reauthentication_required', message: ACCOUNT_DATA_MESSAGES.passwordRequired });

    expect((await me.client.get('/api/user')).statusCode).toBe(200);
    const status = (await me.client.get('/api/account/deletion')).json<AccountDeletionStatus>();
    expect(status).toEqual({ username, reauthentication: 'password', recentSignInUntil: null, lastAdmin: false, ownsOrganisation: false });
  });

  it('bounds the attempts per user, as each may check a password', async () => {
    const me = await signedInUser(server(), 'guesser');
    const username = await usernameOf(server(), me.userId);
    for (let i = 0; i < 10; i += 1)
      expect((await deleteAccount(me.client, { confirm: username, password: `guess-${i}` })).statusCode).toBe(400);
    const limited = await deleteAccount(me.client, { confirm: username, password: PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(errorBody(limited)).toEqual({ error: 'rate_limited', message: ACCOUNT_DATA_MESSAGES.tooManyDeletions });
    expect((await me.client.get('/api/user')).statusCode).toBe(200);
  });

  it("trusts only this browser's sign-in: a stale session cannot delete right after the owner signs in with Epic elsewhere", async () => {
    const displayName = uniqueDisplayName('Owner');
    const stale = server().client();
    expect(location(await signUpWithEpic(server(), stale, { displayName, email: uniqueEmail('owner') }))).toBe(
      '/login_completed?client=web',
    );
    const me = (await stale.get('/api/user')).json<{ id: string; username: string }>();
    // Device 1's session is an hour old (left open, or taken); the owner now signs in on device 2.
    await ageSignIn(server().db, stale, 60 * 60_000);
    const owner = server().client();
    expect(location(await signInWithEpic(owner, displayName))).toBe('/login_completed?client=web');

    expect((await stale.get('/api/account/deletion')).json<AccountDeletionStatus>().recentSignInUntil).toBeNull();
    const refused = await deleteAccount(stale, { confirm: me.username });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused)).toEqual({ error: 'reauthentication_required', message: ACCOUNT_DATA_MESSAGES.epicSignInRequired });
    expect((await owner.get('/api/user')).statusCode).toBe(200);

    expect((await owner.get('/api/account/deletion')).json<AccountDeletionStatus>().recentSignInUntil).not.toBeNull();
    const deleted = await deleteAccount(owner, { confirm: me.username });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it("takes this browser's Sign in with Epic of the last 10 minutes for an Epic account, and refuses an older one", async () => {
    const browser = server().client();
    const email = uniqueEmail('epic-leaver');
    expect(location(await signUpWithEpic(server(), browser, { displayName: uniqueDisplayName('Leaver'), email }))).toBe(
      '/login_completed?client=web',
    );
    const me = (await browser.get('/api/user')).json<{ id: string; username: string }>();
    const fresh = (await browser.get('/api/account/deletion')).json<AccountDeletionStatus>();
    expect(fresh.reauthentication).toBe('epic');
    expect(Date.parse(fresh.recentSignInUntil ?? '')).toBeGreaterThan(Date.now() + 9 * 60_000);

    // Eleven minutes later the sign-in no longer stands for a password.
    await ageSignIn(server().db, browser, 11 * 60_000);
    expect((await browser.get('/api/account/deletion')).json<AccountDeletionStatus>().recentSignInUntil).toBeNull();
    const stale = await deleteAccount(browser, { confirm: me.username });
    expect(stale.statusCode).toBe(403);
    expect(errorBody(stale)).toEqual({ error: 'reauthentication_required', message: ACCOUNT_DATA_MESSAGES.epicSignInRequired });
    // A password means nothing to an account that has none.
    expect((await deleteAccount(browser, { confirm: me.username, password: 'anything' })).statusCode).toBe(403);

    await ageSignIn(server().db, browser, -11 * 60_000);
    const deleted = await deleteAccount(browser, { confirm: me.username });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ ok: true, message: ACCOUNT_DATA_MESSAGES.deleted });
    expect(await server().db.selectFrom('users').select('id').where('id', '=', me.id).executeTakeFirst()).toBeUndefined();
  });

  it('refuses the only admin', async () => {
    const admin = await signedInUser(server(), 'lone-admin');
    const db = server().db;
    await db.updateTable('users').set({ is_admin: 0 }).where('id', '!=', admin.userId).execute();
    await db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.userId).execute();
    const username = await usernameOf(server(), admin.userId);
    expect((await admin.client.get('/api/account/deletion')).json<AccountDeletionStatus>().lastAdmin).toBe(true);

    const refused = await deleteAccount(admin.client, { confirm: username, password: PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused)).toEqual({ error: 'last_admin', message: ACCOUNT_DATA_MESSAGES.lastAdmin });
    expect((await admin.client.get('/api/user')).statusCode).toBe(200);

    // With a second admin, the first may go.
    await signedInAdmin(server());
    expect((await deleteAccount(admin.client, { confirm: username, password: PASSWORD })).statusCode).toBe(200);
  });

  it('deletes nothing when Stripe does not cancel the subscription', async () => {
    const { customer, subscriptionId } = await customerWithData();
    const username = await usernameOf(server(), customer.userId);
    const port = await closedLoopbackPort();
    const app = await buildExtraApp(server().db, { ...stripe().env, STRIPE_API_URL: `http://127.0.0.1:${port}` });
    try {
      const browser = new TestClient(app);
      for (const [name, value] of customer.client.cookies) browser.cookies.set(name, value);
      const response = await deleteAccount(browser, { confirm: username, password: PASSWORD });
      expect(response.statusCode).toBe(502);
      expect(errorBody(response)).toEqual({ error: 'subscription_not_cancelled', message: ACCOUNT_DATA_MESSAGES.subscriptionNotCancelled });
    } finally {
      await app.close();
    }
    expect(stripe().subscriptions.get(subscriptionId)?.status).not.toBe('canceled');
    expect((await customer.client.get('/api/user')).statusCode).toBe(200);
    expect(Object.keys(await rowsNaming(server(), customer.userId))).toContain('stored_messages');
  });

  it('cancels at Stripe, deletes the data, keeps the ledger and the audit log without the person, mails, and signs out', async () => {
    const { customer, subscriptionId, seeded } = await customerWithData();
    const db = server().db;
    const before = await db.selectFrom('users').selectAll().where('id', '=', customer.userId).executeTakeFirstOrThrow();
    // What staff did to the account, with its name and e-mail in the record.
    const admin = await signedInAdmin(server());
    const renamed = await admin.client.request('PUT', `/api/admin/users/${customer.userId}`, {
      json: { username: `${before.username}-renamed`, email: customer.email },
    });
    expect(renamed.statusCode).toBe(200);
    const username = `${before.username}-renamed`;
    const ledgerBefore = await db
      .selectFrom('credit_ledger')
      .select(['id', 'amount', 'reason', 'source'])
      .where('user_id', '=', customer.userId)
      .execute();
    expect(ledgerBefore.length).toBeGreaterThanOrEqual(2);

    const response = await deleteAccount(customer.client, { confirm: username, password: PASSWORD });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true, message: ACCOUNT_DATA_MESSAGES.deleted });
    expect(clearedCookie(response)).toBeDefined();
    expect(customer.client.session).toBeUndefined();

    // Stripe: cancelled at once, not at the period's end.
    expect(stripe().subscriptions.get(subscriptionId)?.status).toBe('canceled');
    expect(stripe().requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscriptionId}`)).toBe(true);

    // Gone: the user, their sign-in, their license, their messages.
    expect(await db.selectFrom('users').select('id').where('id', '=', customer.userId).executeTakeFirst()).toBeUndefined();
    expect((await customer.client.get('/api/user')).statusCode).toBe(401);
    expect((await server().client().login(customer.email)).statusCode).toBe(401);
    const license = await server()
      .client()
      .get('/api/license', { headers: { authorization: `Bearer ${before.license_token}` } });
    expect(license.statusCode).toBe(401);
    const search = await admin.client.get(`/api/admin/messages/search?sessionId=${encodeURIComponent(seeded.chatSessionId)}`);
    expect(search.statusCode).toBe(404);
    const ids = [...seeded.storedMessageIds, seeded.serviceMessageId];
    expect(await db.selectFrom('stored_messages').select('id').where('id', 'in', ids).execute()).toEqual([]);
    expect(await db.selectFrom('ai_thread_messages').select('position').where('thread_id', '=', seeded.threadId).execute()).toEqual([]);
    // No table names them any more, but the ledger's entries are kept.
    expect(await rowsNaming(server(), customer.userId)).toEqual({});

    // Kept: every ledger entry, its amount, reason and source, with no user.
    const kept = await db
      .selectFrom('credit_ledger')
      .select(['id', 'user_id', 'amount', 'reason', 'source'])
      .where(
        'id',
        'in',
        ledgerBefore.map((e) => e.id),
      )
      .execute();
    expect(kept.map(({ user_id: _u, ...rest }) => rest).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...ledgerBefore].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(kept.every((e) => e.user_id === null)).toBe(true);
    // The balances still follow the ledger: an entry of no user changes nobody's, another user's adds to theirs.
    const other = await signedInUser(server(), 'stayer');
    await db
      .insertInto('credit_ledger')
      .values([
        { id: randomUUID(), user_id: null, amount: 7, reason: 'orphan', source: `test:${randomUUID()}`, created_at: Date.now() },
        { id: randomUUID(), user_id: other.userId, amount: 40, reason: 'grant', source: `test:${randomUUID()}`, created_at: Date.now() },
      ])
      .execute();
    expect(await db.selectFrom('credit_balances').select('credits').where('user_id', '=', other.userId).executeTakeFirst()).toEqual({
      credits: 40,
    });
    expect(await db.selectFrom('credit_balances').select('user_id').where('user_id', 'is', null).execute()).toEqual([]);

    // The audit log keeps what was done and when, without the name or e-mail.
    const { entries } = await auditLog(admin.client, 100);
    const about = entries.filter((e: AuditEntry) => e.targetId === customer.userId);
    expect(about.map((e) => e.action)).toEqual(['account.delete', 'user.update', 'license.reissue', 'user.credits.grant']);
    const [deletion, update, reissue, grant] = about;
    expect(deletion).toMatchObject({ actorId: customer.userId, actorEmail: null, before: { status: 'Active', isAdmin: false } });
    expect(update).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      before: { username: ERASED, email: ERASED },
      after: { username: ERASED },
    });
    expect(reissue).toMatchObject({ actorId: customer.userId, actorEmail: null });
    expect(grant).toMatchObject({ actorEmail: 'staff@sage.test', after: { credits: 50, reason: `${seeded.marker} goodwill` } });
    const text = JSON.stringify(about);
    for (const identifying of [customer.email, before.username, username]) expect(text.includes(identifying), identifying).toBe(false);

    // A confirmation to the address on file.
    const mail = await server().smtp.waitForMail(customer.email);
    expect(mail.subject).toBe('Your Sage account has been deleted');
    expect(mail.text).toContain(username);
    expect(mail.text).toContain('cancelled');
  });

  it("the console's delete takes the same path: Stripe cancelled, data deleted, ledger kept, audited as user.delete", async () => {
    const { customer, subscriptionId, seeded } = await customerWithData();
    const admin = await signedInAdmin(server());
    const shown = (await admin.client.get(`/api/admin/users/${customer.userId}`)).json<AdminUser>();

    const response = await del(admin.client, `/api/admin/users/${customer.userId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual(shown);
    expect(stripe().subscriptions.get(subscriptionId)?.status).toBe('canceled');
    expect((await customer.client.get('/api/user')).statusCode).toBe(401);
    expect(await rowsNaming(server(), customer.userId)).toEqual({});
    const ledger = await server().db.selectFrom('credit_ledger').select('user_id').where('id', 'in', seeded.ledgerIds).execute();
    expect(ledger).toEqual([{ user_id: null }, { user_id: null }]);
    const { entries } = await auditLog(admin.client, 100);
    expect(entries.find((e) => e.targetId === customer.userId)).toMatchObject({
      action: 'user.delete',
      actorId: admin.id,
      actorEmail: admin.email,
      before: { status: 'Active', isAdmin: false },
    });
    expect((await server().smtp.waitForMail(customer.email)).text).toContain('by Sage staff');
  });
});
