import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountDetails, AdminUser } from '../../contract/admin';
import { ACCOUNT_SUSPENDED, SUSPENSION_MESSAGES, SUSPENSION_REASON_REQUIRED } from '../../contract/suspension';
import { auditLog, signedInAdmin, signedInUser, subscriptionRow, type Signed } from './adminFlow';
import { existingEpicUser, failedWith, location, nthMail, signInWithEpic, userByEmail } from './epicFlow';
import { databases, errorBody, useTestServer, type TestClient } from './harness';

const SERVICE_TOKEN = 'z'.repeat(40);
const REASON = 'Shared the license token publicly';

describe.each(databases)('suspension on $label', (database) => {
  const server = useTestServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN });

  const tokenOf = async (userId: string) =>
    (await server().db.selectFrom('users').select('license_token').where('id', '=', userId).executeTakeFirstOrThrow()).license_token;
  const bearer = (token: string) => server().client({ authorization: `Bearer ${token}` });
  const service = () => bearer(SERVICE_TOKEN);

  const suspend = (admin: TestClient, userId: string, body: unknown = { reason: REASON }) =>
    admin.post(`/api/admin/users/${userId}/suspend`, body);
  const reinstate = (admin: TestClient, userId: string) => admin.post(`/api/admin/users/${userId}/reinstate`);

  /** Every door a license token (or the service naming the user) opens, with its status. */
  async function tokenAnswers(userId: string, token: string) {
    const plugin = bearer(token);
    const answers = await Promise.all([
      plugin.get('/api/license'),
      plugin.post('/api/ingest/messages', { sessionId: `s-${randomUUID()}`, message: { text: 'hi' } }),
      plugin.post('/api/ingest/usage', { requestId: randomUUID(), units: 1 }),
      service().post('/api/ingest/usage', { requestId: randomUUID(), userId, units: 1 }),
      plugin.get('/api/usage/remaining'),
    ]);
    return answers;
  }

  async function suspended(): Promise<{ admin: Signed; user: Signed; token: string }> {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'suspended');
    const response = await suspend(admin.client, user.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AdminUser>()).toMatchObject({ id: user.id, status: 'Suspended' });
    return { admin, user, token: await tokenOf(user.id) };
  }

  it('ends every session and refuses the password sign-in with the reason it is refused', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'suspended');
    const other = server().client();
    expect((await other.login(user.email)).statusCode).toBe(200);

    expect((await suspend(admin.client, user.id)).statusCode).toBe(200);

    expect((await user.client.get('/api/user')).statusCode).toBe(401);
    expect((await other.get('/api/user')).statusCode).toBe(401);
    const sessions = await server().db.selectFrom('sessions').select('token_hash').where('user_id', '=', user.id).execute();
    expect(sessions).toEqual([]);

    const login = await server().client().login(user.email);
    expect(login.statusCode).toBe(403);
    expect(errorBody(login)).toEqual(ACCOUNT_SUSPENDED);
    // A wrong password says nothing of the suspension.
    const wrong = await server().client().login(user.email, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
  });

  it('refuses the license token at every API with 403 account_suspended, and the service naming the user', async () => {
    const { token, user } = await suspended();
    for (const answer of await tokenAnswers(user.id, token)) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(errorBody(answer)).toEqual(ACCOUNT_SUSPENDED);
    }
  });

  it('leaves the Stripe subscription as it was, mails the user and audits the suspension', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'subscriber');
    const subscription = subscriptionRow(user.id);
    await server().db.insertInto('billing_subscriptions').values(subscription).execute();
    const before = await server().db.selectFrom('billing_subscriptions').selectAll().where('user_id', '=', user.id).execute();

    expect((await suspend(admin.client, user.id)).statusCode).toBe(200);

    expect(await server().db.selectFrom('billing_subscriptions').selectAll().where('user_id', '=', user.id).execute()).toEqual(before);
    const mail = await nthMail(server(), user.email);
    expect(mail.subject).toBe('Your Sage account has been suspended');
    expect(mail.text).toContain(REASON);
    expect(mail.text).toContain(server().config.runtime.supportEmail);

    const [entry] = (await auditLog(admin.client, 1)).entries;
    expect(entry).toMatchObject({
      action: 'user.suspend',
      actorId: admin.id,
      targetType: 'user',
      targetId: user.id,
      before: { status: 'Active' },
      after: { status: 'Suspended', reason: REASON, ended: 1 },
    });
    const details = (await admin.client.get(`/api/admin/users/${user.id}/details`)).json<AccountDetails>();
    expect(details.suspension).toMatchObject({ reason: REASON });
  });

  it('reinstates: sign-in, the token and the service work again; mailed and audited', async () => {
    const { admin, user, token } = await suspended();
    const response = await reinstate(admin.client, user.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AdminUser>()).toMatchObject({ id: user.id, status: 'Active' });

    expect((await server().client().login(user.email)).statusCode).toBe(200);
    const [license, message, own, named, remaining] = await tokenAnswers(user.id, token);
    expect(license!.statusCode).toBe(200);
    expect(message!.statusCode).toBe(201);
    // No allowance or credits: refused for want of them, no longer for the suspension.
    expect(errorBody(own!).error).not.toBe(ACCOUNT_SUSPENDED.error);
    expect(errorBody(named!).error).not.toBe(ACCOUNT_SUSPENDED.error);
    expect(remaining!.statusCode).toBe(200);

    const mail = await nthMail(server(), user.email, 2);
    expect(mail.subject).toBe('Your Sage account is active again');
    const [entry] = (await auditLog(admin.client, 1)).entries;
    expect(entry).toMatchObject({
      action: 'user.reinstate',
      targetId: user.id,
      before: { status: 'Suspended', reason: REASON },
      after: { status: 'Active' },
    });
    const details = (await admin.client.get(`/api/admin/users/${user.id}/details`)).json<AccountDetails>();
    expect(details.suspension).toBeUndefined();
  });

  it('requires a reason, refuses twice and oneself, and is for admins only', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'target');
    for (const body of [{}, { reason: '   ' }]) {
      const refused = await suspend(admin.client, user.id, body);
      expect(refused.statusCode).toBe(400);
      expect(errorBody(refused).message).toContain(SUSPENSION_REASON_REQUIRED);
    }
    expect((await suspend(user.client, user.id)).statusCode).toBe(403);
    expect((await reinstate(user.client, user.id)).statusCode).toBe(403);
    expect((await suspend(server().client(), user.id)).statusCode).toBe(401);
    const self = await suspend(admin.client, admin.id);
    expect(self.statusCode).toBe(400);
    expect(errorBody(self)).toEqual({ error: 'self_suspension', message: SUSPENSION_MESSAGES.selfSuspension });
    expect((await reinstate(admin.client, user.id)).statusCode).toBe(409);
    expect((await suspend(admin.client, user.id)).statusCode).toBe(200);
    expect((await suspend(admin.client, user.id)).statusCode).toBe(409);
    expect((await suspend(admin.client, 'no-such-user')).statusCode).toBe(404);
    // Nothing refused was recorded.
    expect((await auditLog(admin.client, 5)).entries.filter((e) => e.targetId === user.id).map((e) => e.action)).toEqual(['user.suspend']);
  });

  it('leaves the status out of the user edit', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'edited');
    const response = await admin.client.request('PUT', `/api/admin/users/${user.id}`, {
      json: { username: 'edited', email: user.email, status: 'Suspended' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AdminUser>().status).toBe('Active');
    expect((await user.client.get('/api/user')).statusCode).toBe(200);
  });

  it('refuses the Epic sign-in of a suspended account, saying why', async () => {
    const admin = await signedInAdmin(server());
    const { displayName, email } = await existingEpicUser(server());
    const user = await userByEmail(server(), email);
    expect((await suspend(admin.client, user!.id)).statusCode).toBe(200);

    const browser = server().client();
    expect(location(await signInWithEpic(browser, displayName))).toBe(failedWith('account_suspended'));
    expect((await browser.get('/api/user')).statusCode).toBe(401);

    expect((await reinstate(admin.client, user!.id)).statusCode).toBe(200);
    expect(location(await signInWithEpic(server().client(), displayName))).toBe('/login_completed?client=web');
  });
});
