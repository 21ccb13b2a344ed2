/**
 * A passkey is a second factor (issue 40, decisions 046 and 049): an account with only passkeys
 * gets the password sign-in's second step, which a passkey answers as a code does; the first
 * passkey brings recovery codes and the last one takes them; a passkey session passes the staff
 * gate; the support reset removes passkeys too.
 */
import { describe, expect, it } from 'vitest';
import { PASSKEY_ERRORS, type Passkey } from '../../contract/passkeys';
import { SECOND_FACTOR_MESSAGES } from '../../contract/secondFactor';
import type { Db } from '../../server/db';
import { PASSKEY_COOKIE } from '../../server/http/passkeyCookie';
import { AUTH_RATE_LIMITS } from '../../server/services/rateLimiter';
import { SoftwareAuthenticator, type RegistrationOptions, type SignInOptions } from '../fixtures/softwareAuthenticator';
import { signedInAdmin, signedInUser } from './adminFlow';
import { PASSWORD, PUBLIC_URL, databases, errorBody, useTestServer, type TestClient } from './harness';
import { appCode, enrol } from './secondFactorFlow';

const IDENTITY_CHECK = 'Called back on the number on file and checked the last invoice';

/** Adds a passkey made by `authenticator` to the signed-in account; answers the add's body. */
async function addPasskey(client: TestClient, authenticator: SoftwareAuthenticator, name = 'Work laptop') {
  const options = await client.post('/api/account/passkeys/options');
  expect(options.statusCode, options.body).toBe(200);
  const added = await client.post('/api/account/passkeys', { name, response: authenticator.register(options.json<RegistrationOptions>()) });
  expect(added.statusCode, added.body).toBe(201);
  return added.json<{ passkey: Passkey; recoveryCodes?: string[] }>();
}

const recoveryCodesOf = (server: { db: Db }, userId: string) =>
  server.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', userId).execute();

describe.each(databases)('a passkey as the second factor on $label', (database) => {
  const server = useTestServer(database);

  async function withPasskey(prefix: string) {
    const me = await signedInUser(server(), prefix);
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
    const added = await addPasskey(me.client, authenticator);
    return { ...me, authenticator, ...added };
  }

  /** A new browser past the password step of `email`. */
  async function pendingBrowser(email: string) {
    const browser = server().client();
    const first = await browser.login(email, PASSWORD, true);
    expect(first.statusCode, first.body).toBe(200);
    return { browser, answer: first.json<Record<string, unknown>>() };
  }

  const stepOptions = async (browser: TestClient) => {
    const response = await browser.post('/api/login/second-factor/passkey/options');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SignInOptions & { allowCredentials: { id: string }[] }>();
  };

  it('asks an account with only a passkey for the second step, and the passkey completes it once', async () => {
    const me = await withPasskey('only-passkey');
    const { browser, answer } = await pendingBrowser(me.email);
    expect(answer).toEqual({ ok: true, secondFactorRequired: true, passkey: true, message: SECOND_FACTOR_MESSAGES.askForCode });
    expect(browser.session).toBeUndefined();

    // No pending sign-in in another browser: no options for it.
    const elsewhere = await server().client().post('/api/login/second-factor/passkey/options');
    expect(errorBody(elsewhere).error).toBe('second_factor_expired');

    const options = await stepOptions(browser);
    expect(options.allowCredentials.map((c) => c.id)).toEqual([me.passkey.id]);
    expect(browser.cookies.get(PASSKEY_COOKIE)).toBeTruthy();
    const response = me.authenticator.authenticate(options, { userVerified: false });
    const done = await browser.post('/api/login/second-factor/passkey', { response });
    expect(done.statusCode, done.body).toBe(200);
    expect(browser.session).toBeDefined();
    expect(browser.cookies.has('sage_second_factor')).toBe(false);
    expect((await browser.get('/api/user')).statusCode).toBe(200);
    // Single use: the same answer again finds no pending sign-in.
    const again = await browser.post('/api/login/second-factor/passkey', { response });
    expect(errorBody(again).error).toBe('second_factor_expired');
  });

  it("refuses another account's passkey and an answer to no challenge; failures count as wrong codes", async () => {
    const me = await withPasskey('step-owner');
    const other = await withPasskey('step-other');
    const { browser } = await pendingBrowser(me.email);

    // An answer without options: no challenge of this browser.
    const noChallenge = await browser.post('/api/login/second-factor/passkey', {
      response: me.authenticator.authenticate({ challenge: 'bm9uZQ', rpId: 'sage.test' }),
    });
    expect(noChallenge.statusCode).toBe(400);
    expect(errorBody(noChallenge).error).toBe(PASSKEY_ERRORS.challengeExpired);

    // The other account's passkey, over this sign-in's challenge.
    const options = await stepOptions(browser);
    const theirs = await browser.post('/api/login/second-factor/passkey', {
      response: other.authenticator.authenticate({ ...options, allowCredentials: [] }),
    });
    expect(theirs.statusCode).toBe(401);
    expect(errorBody(theirs).error).toBe(PASSKEY_ERRORS.unknown);
    expect(browser.session).toBeUndefined();

    for (let i = 2; i < AUTH_RATE_LIMITS.loginPerEmail.limit; i += 1) {
      const wrong = await browser.post('/api/login/second-factor/passkey', {
        response: me.authenticator.authenticate(await stepOptions(browser), { origin: 'https://evil.test' }),
      });
      expect(wrong.statusCode).toBe(401);
    }
    const limited = await browser.post('/api/login/second-factor/passkey', {
      response: me.authenticator.authenticate(await stepOptions(browser)),
    });
    expect(limited.statusCode).toBe(429);
  });

  it('the first passkey of an account without an app brings recovery codes; the last one takes them', async () => {
    const me = await withPasskey('codes');
    expect(me.recoveryCodes).toHaveLength(10);
    expect(await recoveryCodesOf(server(), me.id)).toHaveLength(10);
    // A recovery code completes the second step as well.
    const { browser } = await pendingBrowser(me.email);
    expect((await browser.post('/api/login/second-factor', { code: me.recoveryCodes![0] })).statusCode).toBe(200);

    // A second passkey brings none.
    const second = await addPasskey(me.client, new SoftwareAuthenticator(PUBLIC_URL), 'Phone');
    expect(second.recoveryCodes).toBeUndefined();
    for (const id of [me.passkey.id, second.passkey.id]) {
      const removed = await me.client.request('DELETE', `/api/account/passkeys/${id}`, { json: { password: PASSWORD } });
      expect(removed.statusCode, removed.body).toBe(200);
    }
    expect(await recoveryCodesOf(server(), me.id)).toHaveLength(0);
    // No second factor left: the password alone signs in.
    expect((await server().client().login(me.email, PASSWORD)).json()).toEqual({ ok: true, message: 'Signed in' });
  });

  it('with an app and a passkey, removing either keeps the recovery codes; the first passkey of an app account brings none', async () => {
    const me = await signedInUser(server(), 'both');
    const { secret } = await enrol(me.client);
    const added = await addPasskey(me.client, new SoftwareAuthenticator(PUBLIC_URL));
    expect(added.recoveryCodes).toBeUndefined();
    const removedApp = await me.client.request('DELETE', '/api/account/totp', { json: { code: appCode(secret, 1) } });
    expect(removedApp.statusCode, removedApp.body).toBe(200);
    expect(await recoveryCodesOf(server(), me.id)).toHaveLength(10);
    expect((await me.client.get('/api/account/second-factor')).json()).toMatchObject({ totp: { enrolled: false }, recoveryCodesLeft: 10 });
    // The passkey still asks for the second step.
    expect((await pendingBrowser(me.email)).answer).toMatchObject({ secondFactorRequired: true, passkey: true });

    const other = await signedInUser(server(), 'both-2');
    const { secret: secret2 } = await enrol(other.client);
    const passkey = await addPasskey(other.client, new SoftwareAuthenticator(PUBLIC_URL));
    const gone = await other.client.request('DELETE', `/api/account/passkeys/${passkey.passkey.id}`, { json: { password: PASSWORD } });
    expect(gone.statusCode).toBe(200);
    expect(await recoveryCodesOf(server(), other.id)).toHaveLength(10);
    expect((await pendingBrowser(other.email)).answer).toEqual({
      ok: true,
      secondFactorRequired: true,
      message: SECOND_FACTOR_MESSAGES.askForCode,
    });
    expect(secret2).toBeTruthy();
  });

  it("the support reset removes the user's passkeys and recovery codes, and says so", async () => {
    const admin = await signedInAdmin(server());
    await enrol(admin.client);
    const me = await withPasskey('reset-me');
    const reset = await admin.client.post(`/api/admin/users/${me.id}/second-factor/reset`, { identityCheck: IDENTITY_CHECK });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json<{ message: string }>().message).toContain('passkeys');
    expect(await server().db.selectFrom('passkeys').select('id').where('user_id', '=', me.id).execute()).toEqual([]);
    expect(await recoveryCodesOf(server(), me.id)).toHaveLength(0);
    const entry = await server()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.second_factor.reset')
      .where('target_id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.before_json!)).toEqual({ totp: false, passkeys: 1 });
    await expect
      .poll(() =>
        server()
          .smtp.mailsTo(me.email)
          .map((m) => m.text),
      )
      .toEqual(expect.arrayContaining([expect.stringContaining('your passkeys were removed')]));
    expect((await server().client().login(me.email, PASSWORD)).json()).toEqual({ ok: true, message: 'Signed in' });
  });
});

describe.each(databases)('passkeys and the staff gate on $label', (database) => {
  const server = useTestServer(database, { STAFF_SECOND_FACTOR: 'required' });

  it('a passkey session passes the staff gate, and a passkey alone lets a password session in', async () => {
    const admin = await signedInAdmin(server());
    expect((await admin.client.get('/api/admin/users')).statusCode).toBe(403);
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
    await addPasskey(admin.client, authenticator);
    expect((await admin.client.get('/api/admin/users')).statusCode).toBe(200);

    const browser = server().client();
    const options = await browser.post('/api/login/passkey/options');
    const signIn = await browser.post('/api/login/passkey', { response: authenticator.authenticate(options.json<SignInOptions>()) });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect((await browser.get('/api/admin/users')).statusCode).toBe(200);
  });
});
