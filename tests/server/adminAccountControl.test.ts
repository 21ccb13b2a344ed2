import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, type AccountDetails, type AdminUser } from '../../contract/admin';
import { LICENSE_REVOKED } from '../../contract/license';
import { hashPassword } from '../../server/services/passwords';
import { hashToken } from '../../server/services/tokens';
import { auditLog, insertUsers, signedInAdmin, signedInUser, subscriptionRow, tick, userRow, type Signed } from './adminFlow';
import { existingEpicUser, location, pkcePair, pluginLoginUrl, signInWithEpic, userByEmail } from './epicFlow';
import { databases, errorBody, PASSWORD, TEST_SCRYPT_COST, useTestServer, type TestClient } from './harness';

const LICENSE_REQUIRED = { error: 'unauthorized', message: 'A valid license token is required (Authorization: Bearer …)' };
const INGEST_REQUIRED = { error: 'unauthorized', message: 'A valid service token or license token is required (Authorization: Bearer …)' };
const NOT_FOUND = { error: 'not_found', message: ADMIN_MESSAGES.userNotFound };

const DAY_SECONDS = 24 * 60 * 60;

describe.each(databases)('an admin’s control of an account on $label', (database) => {
  const server = useTestServer(database);

  const tokenOf = async (userId: string) =>
    (await server().db.selectFrom('users').select('license_token').where('id', '=', userId).executeTakeFirstOrThrow()).license_token;
  const bearer = (token: string) => server().client({ authorization: `Bearer ${token}` });
  const licenseFor = (token: string) => bearer(token).get('/api/license');
  const ingestWith = (token: string) =>
    bearer(token).post('/api/ingest/messages', { sessionId: `s-${randomUUID()}`, message: { text: 'hi' } });

  async function reissue(admin: TestClient, userId: string): Promise<AdminUser> {
    const response = await admin.post(`/api/admin/users/${userId}/license/reissue`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AdminUser>();
  }

  async function details(admin: TestClient, userId: string): Promise<AccountDetails> {
    const response = await admin.get(`/api/admin/users/${userId}/details`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AccountDetails>();
  }

  describe('license reissue', () => {
    it('replaces the token: the old one is refused everywhere with the sign-in-again answer, the new one works', async () => {
      const admin = await signedInAdmin(server());
      const user = await signedInUser(server(), 'holder');
      const old = await tokenOf(user.id);
      expect((await licenseFor(old)).statusCode).toBe(200);

      const reissued = await reissue(admin.client, user.id);
      expect(reissued).toMatchObject({ id: user.id, email: user.email });
      // The answer carries no token (issue 36): the plugin gets the new one at its next sign-in.
      expect(reissued).not.toHaveProperty('token');
      const token = await tokenOf(user.id);
      expect(token).not.toBe(old);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const license = await licenseFor(old);
      expect(license.statusCode).toBe(401);
      expect(errorBody(license)).toEqual(LICENSE_REVOKED);
      const ingest = await ingestWith(old);
      expect(ingest.statusCode).toBe(401);
      expect(errorBody(ingest)).toEqual(LICENSE_REVOKED);
      expect(LICENSE_REVOKED.message).toMatch(/sign in .*again/i);

      expect((await licenseFor(token)).statusCode).toBe(200);
      expect((await ingestWith(token)).statusCode).toBe(201);
      // The user's browser session is not the license: it goes on.
      expect((await user.client.get('/api/user')).statusCode).toBe(200);
    });

    it('keeps the plain answer for a token that was never issued', async () => {
      const never = 'n'.repeat(43);
      const license = await licenseFor(never);
      expect(license.statusCode).toBe(401);
      expect(errorBody(license)).toEqual(LICENSE_REQUIRED);
      const ingest = await ingestWith(never);
      expect(ingest.statusCode).toBe(401);
      expect(errorBody(ingest)).toEqual(INGEST_REQUIRED);
    });

    it('refuses every earlier token after two reissues, and keeps only their hashes', async () => {
      const admin = await signedInAdmin(server());
      const [row] = await insertUsers(server().db, [userRow()]);
      const first = row!.license_token;
      await reissue(admin.client, row!.id);
      const second = await tokenOf(row!.id);
      await reissue(admin.client, row!.id);
      const third = await tokenOf(row!.id);
      expect(new Set([first, second, third]).size).toBe(3);
      for (const old of [first, second]) expect(errorBody(await licenseFor(old))).toEqual(LICENSE_REVOKED);
      expect((await licenseFor(third)).statusCode).toBe(200);

      const revoked = await server().db.selectFrom('revoked_license_tokens').selectAll().where('user_id', '=', row!.id).execute();
      expect(revoked.map((r) => r.token_hash).sort()).toEqual([hashToken(first), hashToken(second)].sort());
      expect(JSON.stringify(revoked)).not.toContain(first);
    });

    it('gives the plugin the new token at its next sign-in', async () => {
      const admin = await signedInAdmin(server());
      const { displayName, email } = await existingEpicUser(server());
      const user = await userByEmail(server(), email);
      await reissue(admin.client, user!.id);
      const token = await tokenOf(user!.id);

      const pkce = pkcePair();
      const browser = server().client();
      const landed = await signInWithEpic(browser, displayName, pluginLoginUrl({ code_challenge: pkce.challenge }));
      expect(location(landed)).toBe('/login_completed?client=ue');
      const stored = await browser.post('/api/auth/ue-store-payload');
      expect(stored.statusCode, stored.body).toBe(200);
      const { code } = stored.json<{ code: string }>();
      const payload = await server()
        .client()
        .get(`/api/auth/ue-payload?${new URLSearchParams({ code, code_verifier: pkce.verifier })}`);
      expect(payload.statusCode, payload.body).toBe(200);
      expect(payload.json()).toMatchObject({ token, user: { id: user!.id, email } });
    });

    it('is audited with who and when, and never a token', async () => {
      const admin = await signedInAdmin(server());
      const [row] = await insertUsers(server().db, [userRow()]);
      await reissue(admin.client, row!.id);
      const token = await tokenOf(row!.id);
      const { entries } = await auditLog(admin.client);
      const entry = entries.find((e) => e.action === 'license.reissue' && e.targetId === row!.id);
      expect(entry).toMatchObject({ actorId: admin.id, actorEmail: admin.email, targetType: 'user', createdAt: expect.any(String) });
      const text = JSON.stringify(entry);
      expect(text).not.toContain(row!.license_token);
      expect(text).not.toContain(token);
      expect(text).not.toContain(hashToken(row!.license_token));
    });

    it('answers 404 for an unknown user', async () => {
      const admin = await signedInAdmin(server());
      const response = await admin.client.post('/api/admin/users/no-such-user/license/reissue');
      expect(response.statusCode).toBe(404);
      expect(errorBody(response)).toEqual(NOT_FOUND);
    });
  });

  describe('sign out everywhere', () => {
    it('ends every session of the user at once, and not the admin’s', async () => {
      const admin = await signedInAdmin(server());
      const user = await signedInUser(server(), 'signedout');
      const elsewhere = server().client();
      expect((await elsewhere.login(user.email)).statusCode).toBe(200);

      const response = await admin.client.post(`/api/admin/users/${user.id}/sessions/revoke`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ended: 2 });

      for (const browser of [user.client, elsewhere]) expect((await browser.get('/api/user')).statusCode).toBe(401);
      expect((await admin.client.get('/api/user')).statusCode).toBe(200);
      expect((await admin.client.get(`/api/admin/users/${user.id}`)).statusCode).toBe(200);
      // Signing in again works as ever.
      expect((await user.client.login(user.email)).statusCode).toBe(200);
      expect((await user.client.get('/api/user')).statusCode).toBe(200);
    });

    it('answers 0 for a user with no session, and is audited', async () => {
      const admin = await signedInAdmin(server());
      const [row] = await insertUsers(server().db, [userRow()]);
      const response = await admin.client.post(`/api/admin/users/${row!.id}/sessions/revoke`);
      expect(response.json()).toEqual({ ended: 0 });
      const { entries } = await auditLog(admin.client);
      expect(entries.find((e) => e.action === 'user.sessions.revoke' && e.targetId === row!.id)).toMatchObject({
        actorId: admin.id,
        targetType: 'user',
        after: { ended: 0 },
      });
    });

    it('answers 404 for an unknown user', async () => {
      const admin = await signedInAdmin(server());
      const response = await admin.client.post('/api/admin/users/no-such-user/sessions/revoke');
      expect(response.statusCode).toBe(404);
      expect(errorBody(response)).toEqual(NOT_FOUND);
    });
  });

  describe('account details', () => {
    it('says what a new account has: nothing yet, never signed in', async () => {
      const admin = await signedInAdmin(server());
      const [row] = await insertUsers(server().db, [userRow()]);
      expect(await details(admin.client, row!.id)).toEqual({
        activeSessions: 0,
        lastSignInAt: null,
        lastSignInMethod: null,
        subscriptions: [],
        creditBalance: 0,
        storedMessages: 0,
        memberships: [],
      });
    });

    it('counts the live sessions only, and records a password sign-in', async () => {
      const admin = await signedInAdmin(server());
      const before = Date.now();
      const user: Signed = await signedInUser(server(), 'counted');
      await tick();
      expect((await server().client().login(user.email)).statusCode).toBe(200);
      expect((await server().client().login(user.email)).statusCode).toBe(200);
      // One idle for longer than the policy allows, one past its end: neither signs anyone in.
      const sessions = await server()
        .db.selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .orderBy('created_at')
        .execute();
      expect(sessions).toHaveLength(3);
      const now = Date.now();
      await server()
        .db.updateTable('sessions')
        .set({ last_seen_at: now - server().config.sessionIdleMs - 1000 })
        .where('token_hash', '=', sessions[1]!.token_hash)
        .execute();
      await server()
        .db.updateTable('sessions')
        .set({ expires_at: now - 1000 })
        .where('token_hash', '=', sessions[2]!.token_hash)
        .execute();

      const shown = await details(admin.client, user.id);
      expect(shown.activeSessions).toBe(1);
      expect(shown.lastSignInMethod).toBe('password');
      const at = Date.parse(shown.lastSignInAt ?? '');
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(Date.now());
    });

    it('records an Epic sign-in, then a later password one', async () => {
      const admin = await signedInAdmin(server());
      const { email } = await existingEpicUser(server());
      const user = await userByEmail(server(), email);
      const epic = await details(admin.client, user!.id);
      expect(epic.lastSignInMethod).toBe('epic');
      expect(epic.activeSessions).toBeGreaterThanOrEqual(1);

      // The same account signs in with a password later (one set for it here).
      await tick();
      await server()
        .db.updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD, TEST_SCRYPT_COST) })
        .where('id', '=', user!.id)
        .execute();
      expect((await server().client().login(email)).statusCode).toBe(200);
      const later = await details(admin.client, user!.id);
      expect(later.lastSignInMethod).toBe('password');
      expect(Date.parse(later.lastSignInAt!)).toBeGreaterThan(Date.parse(epic.lastSignInAt!));
    });

    it('lists subscriptions newest first with price, period end and trial end, the credit balance and the stored messages', async () => {
      const admin = await signedInAdmin(server());
      const [row] = await insertUsers(server().db, [userRow()]);
      const userId = row!.id;
      const periodEnd = 1_800_000_000;
      await server()
        .db.insertInto('billing_subscriptions')
        .values([
          subscriptionRow(userId, {
            id: 'sub_old',
            status: 'canceled',
            created: 1_600_000_000,
            product_name: 'Sage Basic',
            unit_amount: 999,
            recurring_interval: 'year',
          }),
          subscriptionRow(userId, {
            id: 'sub_new',
            status: 'trialing',
            created: 1_700_000_000,
            current_period_end: periodEnd,
            trial_end: periodEnd - 7 * DAY_SECONDS,
          }),
        ])
        .execute();
      const now = Date.now();
      await server()
        .db.insertInto('credit_ledger')
        .values([
          { id: randomUUID(), user_id: userId, amount: 500, reason: 'pack', source: `test:${randomUUID()}`, created_at: now },
          { id: randomUUID(), user_id: userId, amount: -120, reason: 'used', source: `test:${randomUUID()}`, created_at: now },
        ])
        .execute();
      await server()
        .db.insertInto('stored_messages')
        .values(
          [1, 2, 3].map((n) => ({
            id: randomUUID(),
            session_id: `s-${n}`,
            user_id: userId,
            message: '"hi"',
            message_size: 4,
            created_at: now,
          })),
        )
        .execute();

      const shown = await details(admin.client, userId);
      expect(shown.subscriptions).toEqual([
        {
          id: 'sub_new',
          productName: 'Sage Pro',
          status: 'trialing',
          unitAmount: 1999,
          currency: 'usd',
          interval: 'month',
          intervalCount: 1,
          currentPeriodEnd: new Date(periodEnd * 1000).toISOString(),
          trialEnd: new Date((periodEnd - 7 * DAY_SECONDS) * 1000).toISOString(),
          cancelAt: null,
        },
        expect.objectContaining({
          id: 'sub_old',
          productName: 'Sage Basic',
          status: 'canceled',
          unitAmount: 999,
          interval: 'year',
          currentPeriodEnd: null,
          trialEnd: null,
        }),
      ]);
      expect(shown.creditBalance).toBe(380);
      expect(shown.storedMessages).toBe(3);
    });

    it('answers 404 for an unknown user', async () => {
      const admin = await signedInAdmin(server());
      const response = await admin.client.get('/api/admin/users/no-such-user/details');
      expect(response.statusCode).toBe(404);
      expect(errorBody(response)).toEqual(NOT_FOUND);
    });
  });
});
