/**
 * Passkeys (issue 40, decision 049) over HTTP, with real WebAuthn answers from a software
 * authenticator (tests/fixtures/softwareAuthenticator.ts) verified by SimpleWebAuthn: adding one in
 * Account, signing in with it without the password, and what is refused (a replay, another
 * origin, another challenge, someone else's passkey, removal without the password).
 */
import { describe, expect, it, vi } from 'vitest';
import { MAX_PASSKEYS, PASSKEY_ERRORS, type Passkey } from '../../contract/passkeys';
import { PASSKEY_COOKIE } from '../../server/http/passkeyCookie';
import { createAuditService } from '../../server/services/audit';
import { createPasskeyService } from '../../server/services/passkeys';
import { AUTH_RATE_LIMITS } from '../../server/services/rateLimiter';
import { SoftwareAuthenticator, type RegistrationOptions, type SignInOptions } from '../fixtures/softwareAuthenticator';
import { createSessionService } from '../../server/services/sessions';
import { signedInUser, userRow } from './adminFlow';
import { hashPassword } from '../../server/services/passwords';
import { PASSWORD, PUBLIC_URL, TEST_SCRYPT_COST, databases, errorBody, useTestServer, type TestClient, type TestServer } from './harness';

const optionsFor = async (client: TestClient) => {
  const response = await client.post('/api/account/passkeys/options');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<RegistrationOptions & Record<string, unknown>>();
};

const signInOptions = async (client: TestClient) => {
  const response = await client.post('/api/login/passkey/options');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SignInOptions & Record<string, unknown>>();
};

const listOf = async (client: TestClient) => (await client.get('/api/account/passkeys')).json<{ passkeys: Passkey[] }>().passkeys;

describe.each(databases)('passkeys on $label', (database) => {
  const server = useTestServer(database);

  /** A signed-in password account with one passkey, named `name`, made by `authenticator`. */
  async function withPasskey(prefix = 'passkey', name = 'Work laptop') {
    const user = await signedInUser(server(), prefix);
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
    const response = authenticator.register(await optionsFor(user.client));
    const added = await user.client.post('/api/account/passkeys', { name, response });
    expect(added.statusCode, added.body).toBe(201);
    return { user, authenticator, passkey: added.json<{ passkey: Passkey }>().passkey };
  }

  /** A new browser's passkey sign-in with `authenticator`. */
  async function passkeySignIn(authenticator: SoftwareAuthenticator, opts: Parameters<SoftwareAuthenticator['authenticate']>[1] = {}) {
    const client = server().client();
    const answer = authenticator.authenticate(await signInOptions(client), opts);
    return { client, answer, response: await client.post('/api/login/passkey', { response: answer }) };
  }

  it('adds a passkey to a password account: a discoverable credential, listed, audited and mailed', async () => {
    const user = await signedInUser(server(), 'adder');
    const options = await optionsFor(user.client);
    expect(options).toMatchObject({
      rp: { id: 'sage.test', name: 'Sage' },
      user: { name: user.email },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    expect(user.client.cookies.get(PASSKEY_COOKIE)).toBeTruthy();

    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
    const response = authenticator.register(options);
    const added = await user.client.post('/api/account/passkeys', { name: '  Work laptop  ', response });
    expect(added.statusCode, added.body).toBe(201);
    const { passkey } = added.json<{ passkey: Passkey }>();
    expect(passkey).toMatchObject({ id: response.id, name: 'Work laptop', synced: false, lastUsedAt: null });
    expect(user.client.cookies.has(PASSKEY_COOKIE)).toBe(false);
    // The challenge was spent by the answer: a second answer to it adds nothing.
    const again = await user.client.post('/api/account/passkeys', { name: 'Again', response: authenticator.register(options) });
    expect(errorBody(again).error).toBe(PASSKEY_ERRORS.challengeExpired);
    expect(await listOf(user.client)).toHaveLength(1);
    expect(await listOf(user.client)).toEqual([passkey]);

    const mail = await server().smtp.waitForMail(user.email);
    expect(mail.subject).toBe('A passkey was added to your Sage account');
    expect(mail.text).toContain('"Work laptop"');
    const audit = await server()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'account.passkey.add')
      .where('actor_id', '=', user.id)
      .execute();
    expect(audit).toHaveLength(1);

    // The next ceremony leaves it out: an authenticator keeps one passkey per account.
    expect((await optionsFor(user.client)).excludeCredentials).toEqual([{ id: response.id, transports: ['internal'], type: 'public-key' }]);
  });

  it('refuses a passkey made for another origin, or for another challenge, and one answered twice', async () => {
    const user = await signedInUser(server(), 'origin');
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);

    const phished = authenticator.register(await optionsFor(user.client), { origin: 'https://sage.test.evil.example' });
    const wrongOrigin = await user.client.post('/api/account/passkeys', { name: 'Phished', response: phished });
    expect(wrongOrigin.statusCode).toBe(400);
    expect(errorBody(wrongOrigin).error).toBe(PASSKEY_ERRORS.refused);

    const first = await optionsFor(user.client);
    await optionsFor(user.client); // a second ceremony: this browser's cookie now names its challenge
    const stale = await user.client.post('/api/account/passkeys', { name: 'Stale', response: authenticator.register(first) });
    expect(stale.statusCode).toBe(400);
    expect(errorBody(stale).error).toBe(PASSKEY_ERRORS.refused);

    // Another browser of the same user has no challenge to answer.
    const other = server().client();
    other.cookies.set('sage_session', user.client.session!);
    const noChallenge = await other.post('/api/account/passkeys', { name: 'Elsewhere', response: authenticator.register(first) });
    expect(errorBody(noChallenge).error).toBe(PASSKEY_ERRORS.challengeExpired);
    expect(await listOf(user.client)).toEqual([]);
  });

  it('refuses an expired challenge', async () => {
    const user = await signedInUser(server(), 'slow');
    const options = await optionsFor(user.client);
    await server()
      .db.updateTable('webauthn_challenges')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', user.id)
      .execute();
    const response = new SoftwareAuthenticator(PUBLIC_URL).register(options);
    const late = await user.client.post('/api/account/passkeys', { name: 'Late', response });
    expect(late.statusCode).toBe(400);
    expect(errorBody(late)).toMatchObject({ error: PASSKEY_ERRORS.challengeExpired });
  });

  it('is for password accounts: an Epic account has none to add', async () => {
    const row = userRow({ epic_account_id: `epic-${Date.now()}` });
    await server().db.insertInto('users').values(row).execute();
    const client = server().client();
    // A session for the Epic account, as Sign in with Epic starts one.
    const { token } = await signInDirectly(row.id);
    client.cookies.set('sage_session', token);
    const refused = await client.post('/api/account/passkeys/options');
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).error).toBe(PASSKEY_ERRORS.noPassword);
  });

  /** A session started for `userId` straight through the sessions table's service (as Epic's sign-in would). */
  async function signInDirectly(userId: string) {
    return createSessionService(server().db, { idleMs: 3_600_000, absoluteMs: 86_400_000 }).start(userId, false, 'epic');
  }

  it('signs in with a passkey and no password: a lasting session by passkey, the passkey marked used', async () => {
    const { user, authenticator, passkey } = await withPasskey('signin');
    const client = server().client();
    const options = await signInOptions(client);
    expect(options).toMatchObject({ rpId: 'sage.test', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);

    const response = await client.post('/api/login/passkey', { response: authenticator.authenticate(options) });
    expect(response.statusCode, response.body).toBe(200);
    const me = await client.get('/api/user');
    expect(me.json<{ id: string }>().id).toBe(user.id);
    // Kept as Remember me keeps it: the cookie outlives the browser.
    const cookie = response.cookies.find((c) => c.name === 'sage_session');
    expect(cookie?.expires).toBeInstanceOf(Date);
    const row = await server().db.selectFrom('users').select('last_sign_in_method').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.last_sign_in_method).toBe('passkey');
    const [used] = await listOf(client);
    expect(used?.id).toBe(passkey.id);
    expect(used?.lastUsedAt).not.toBeNull();
  });

  it('signs in once with one answer, however often it is sent, at once or later', async () => {
    const { authenticator } = await withPasskey('replay');
    const client = server().client();
    const answer = authenticator.authenticate(await signInOptions(client));
    const both = await Promise.all([answer, answer].map((a) => client.post('/api/login/passkey', { response: a })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);

    // Against a new challenge the old answer signs nothing.
    const later = server().client();
    await signInOptions(later);
    const replayed = await later.post('/api/login/passkey', { response: answer });
    expect(replayed.statusCode).toBe(401);
    expect(errorBody(replayed).error).toBe(PASSKEY_ERRORS.refused);
    expect((await later.get('/api/user')).statusCode).toBe(401);
  });

  it('refuses a signature counter that went backwards (a cloned authenticator)', async () => {
    const { authenticator, passkey } = await withPasskey('clone');
    expect((await passkeySignIn(authenticator)).response.statusCode).toBe(200);
    await server().db.updateTable('passkeys').set({ counter: 1000 }).where('id', '=', passkey.id).execute();
    const { response } = await passkeySignIn(authenticator);
    expect(response.statusCode).toBe(401);
    expect(errorBody(response).error).toBe(PASSKEY_ERRORS.refused);
  });

  it('signs in with a passkey that keeps no counter, each time with a fresh challenge', async () => {
    const { authenticator } = await withPasskey('synced');
    authenticator.counterStep = 0;
    expect((await passkeySignIn(authenticator)).response.statusCode).toBe(200);
    expect((await passkeySignIn(authenticator)).response.statusCode).toBe(200);
  });

  it('refuses another origin, an unverified user, an unknown passkey and a suspended account', async () => {
    const { user, authenticator } = await withPasskey('refusals');
    const phished = await passkeySignIn(authenticator, { origin: 'https://sage-login.example' });
    expect(phished.response.statusCode).toBe(401);
    expect(errorBody(phished.response).error).toBe(PASSKEY_ERRORS.refused);

    const unverified = await passkeySignIn(authenticator, { userVerified: false });
    expect(unverified.response.statusCode).toBe(401);

    const stranger = new SoftwareAuthenticator(PUBLIC_URL);
    stranger.register({ challenge: 'x', rp: { id: 'sage.test', name: 'Sage' }, user: { id: 'bm9ib2R5', name: 'nobody' } });
    const unknown = await passkeySignIn(stranger);
    expect(unknown.response.statusCode).toBe(401);
    expect(errorBody(unknown.response).error).toBe(PASSKEY_ERRORS.unknown);

    // No challenge of this browser: the options were never asked for.
    const bare = await server().client().post('/api/login/passkey', { response: unknown.answer });
    expect(errorBody(bare).error).toBe(PASSKEY_ERRORS.challengeExpired);

    await server().db.updateTable('users').set({ status: 'Suspended' }).where('id', '=', user.id).execute();
    const suspended = await passkeySignIn(authenticator);
    expect(suspended.response.statusCode).toBe(403);
    expect(errorBody(suspended.response).error).toBe('account_suspended');
    expect((await suspended.client.get('/api/user')).statusCode).toBe(401);
  });

  it("counts a passkey's failures against the account's sign-in limit, as wrong passwords are", async () => {
    const { user, authenticator } = await withPasskey('limited');
    for (let i = 0; i < AUTH_RATE_LIMITS.loginPerEmail.limit; i += 1) {
      expect((await passkeySignIn(authenticator, { userVerified: false })).response.statusCode).toBe(401);
    }
    const limited = await passkeySignIn(authenticator);
    expect(limited.response.statusCode).toBe(429);
    // The same account's password sign-in is held back too.
    expect((await server().client().login(user.email)).statusCode).toBe(429);
  });

  it('removes a passkey only with the password, only its owner, and it signs in no more', async () => {
    const { user, authenticator, passkey } = await withPasskey('remover');
    const other = await signedInUser(server(), 'neighbour');
    const url = `/api/account/passkeys/${passkey.id}`;

    const theirs = await other.client.request('DELETE', url, { json: { password: PASSWORD } });
    expect(theirs.statusCode).toBe(404);
    const rename = await other.client.request('PATCH', url, { json: { name: 'Mine now' } });
    expect(rename.statusCode).toBe(404);

    const wrong = await user.client.request('DELETE', url, { json: { password: 'not-my-password' } });
    expect(wrong.statusCode).toBe(400);
    expect(errorBody(wrong).error).toBe(PASSKEY_ERRORS.wrongPassword);
    const missing = await user.client.request('DELETE', url, { json: {} });
    expect(missing.statusCode).toBe(400);
    expect(await listOf(user.client)).toHaveLength(1);

    const renamed = await user.client.request('PATCH', url, { json: { name: 'Old laptop' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await listOf(user.client))[0]?.name).toBe('Old laptop');

    const removed = await user.client.request('DELETE', url, { json: { password: PASSWORD } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await listOf(user.client)).toEqual([]);
    // Each change mails the owner (sent after the answer).
    await vi.waitFor(() =>
      expect(
        server()
          .smtp.mailsTo(user.email)
          .map((m) => m.subject),
      ).toEqual(
        expect.arrayContaining([
          'A passkey was added to your Sage account',
          'A passkey of your Sage account was renamed',
          'A passkey was removed from your Sage account',
        ]),
      ),
    );
    const actions = await server()
      .db.selectFrom('audit_log')
      .select('action')
      .where('actor_id', '=', user.id)
      .where('action', 'like', 'account.passkey.%')
      .orderBy('created_at')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['account.passkey.add', 'account.passkey.rename', 'account.passkey.remove']);

    const after = await passkeySignIn(authenticator);
    expect(after.response.statusCode).toBe(401);
    expect(errorBody(after.response).error).toBe(PASSKEY_ERRORS.unknown);
  });

  it(`keeps at most ${MAX_PASSKEYS} passkeys per account`, async () => {
    const { user, passkey } = await withPasskey('collector');
    const rows = Array.from({ length: MAX_PASSKEYS - 1 }, (_, i) => ({
      id: `${passkey.id}${i}`,
      user_id: user.id,
      name: `Key ${i}`,
      public_key: 'x',
      counter: 0,
      transports: null,
      device_type: 'singleDevice',
      backed_up: 0,
      created_at: Date.now(),
      last_used_at: null,
    }));
    await server().db.insertInto('passkeys').values(rows).execute();
    const full = await user.client.post('/api/account/passkeys/options');
    expect(full.statusCode).toBe(409);
    expect(errorBody(full).error).toBe(PASSKEY_ERRORS.limit);
  });

  it("answers a password sign-in's second factor for one user only (the service the sign-in step calls)", async () => {
    const { user, authenticator } = await withPasskey('second');
    const { user: other, authenticator: otherAuthenticator } = await withPasskey('secondother');
    const passkeys = createPasskeyService({
      db: server().db,
      audit: createAuditService(server().db),
      mailer: { send: async () => undefined },
      publicUrl: PUBLIC_URL,
      onMailError: () => undefined,
    });
    const ceremony = await passkeys.secondFactorOptions(user.id);
    expect(ceremony.options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.passkeys[0]!.id.toString('base64url')]);
    const answer = authenticator.authenticate(ceremony.options, { userVerified: false });
    // Not for another user, nor as a sign-in: the challenge is the user's second factor's.
    await expect(passkeys.verifyAssertion(ceremony.challenge.token, answer, { userId: other.id })).rejects.toMatchObject({
      code: PASSKEY_ERRORS.challengeExpired,
    });
    const fresh = await passkeys.secondFactorOptions(user.id);
    const verified = await passkeys.verifyAssertion(
      fresh.challenge.token,
      authenticator.authenticate(fresh.options, { userVerified: false }),
      {
        userId: user.id,
      },
    );
    expect(verified.user.id).toBe(user.id);
    // Another user's passkey does not answer this user's second factor.
    const theirs = await passkeys.secondFactorOptions(user.id);
    const foreign = otherAuthenticator.authenticate({ challenge: theirs.options.challenge, rpId: theirs.options.rpId });
    await expect(passkeys.verifyAssertion(theirs.challenge.token, foreign, { userId: user.id })).rejects.toMatchObject({
      code: PASSKEY_ERRORS.unknown,
    });
    expect(await passkeys.count(user.id)).toBe(1);
  });
});

/** A signed-in account with a passkey, and a new browser's passkey sign-in with it. */
async function passkeyAccount(server: TestServer) {
  // A row (registration is closed under link-only), signed in by its password.
  const row = userRow({ password_hash: await hashPassword(PASSWORD, TEST_SCRYPT_COST), email_verified_at: Date.now() });
  await server.db.insertInto('users').values(row).execute();
  const user = { ...row, client: server.client() };
  expect((await user.client.login(row.email!)).statusCode).toBe(200);
  const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
  const added = await user.client.post('/api/account/passkeys', {
    name: 'Work laptop',
    response: authenticator.register(await optionsFor(user.client)),
  });
  expect(added.statusCode, added.body).toBe(201);
  const signIn = async () => {
    const client = server.client();
    const response = await client.post('/api/login/passkey', { response: authenticator.authenticate(await signInOptions(client)) });
    return { client, response };
  };
  return { user, authenticator, signIn };
}

describe.each(databases)('the passkey sign-in under LEGACY_LOGIN=link-only on $label', (database) => {
  const server = useTestServer(database, { LEGACY_LOGIN: 'link-only' });

  it('signs in an account without Epic, and sends one that has Epic to Epic, as the password does', async () => {
    const { user, signIn } = await passkeyAccount(server());
    const first = await signIn();
    expect(first.response.statusCode, first.response.body).toBe(200);

    await server()
      .db.updateTable('users')
      .set({ epic_account_id: `epic-${user.id}` })
      .where('id', '=', user.id)
      .execute();
    const refused = await signIn();
    expect(refused.response.statusCode).toBe(403);
    expect(errorBody(refused.response)).toEqual({
      error: 'password_sign_in_off',
      message: 'This account is linked to Epic Games: sign in with Epic Games.',
    });
    expect(refused.client.session).toBeUndefined();
  });
});

describe.each(databases)('the passkey sign-in under LEGACY_LOGIN=off on $label', (database) => {
  const server = useTestServer(database, { LEGACY_LOGIN: 'off' });

  it('is refused before any work: no options, no answer looked at', async () => {
    const client = server().client();
    const options = await client.post('/api/login/passkey/options');
    expect(options.statusCode).toBe(403);
    expect(errorBody(options).error).toBe('password_sign_in_off');
    expect(client.cookies.has(PASSKEY_COOKIE)).toBe(false);
    const answer = new SoftwareAuthenticator(PUBLIC_URL);
    answer.register({ challenge: 'Y2hhbGxlbmdl', rp: { id: 'sage.test', name: 'Sage' }, user: { id: 'dTE', name: 'someone' } });
    const refused = await client.post('/api/login/passkey', {
      response: answer.authenticate({ challenge: 'Y2hhbGxlbmdl', rpId: 'sage.test' }),
    });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused)).toEqual({
      error: 'password_sign_in_off',
      message: 'Signing in with a passkey has been retired. Sign in with Epic Games instead.',
    });
  });
});
