import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { hashPassword, verifyPassword } from '../../server/services/passwords';
import { createMemoryRateLimiter } from '../../server/services/rateLimiter';
import { hashToken } from '../../server/services/tokens';
import { PASSWORD, TEST_SCRYPT_COST, databases, errorBody, testConfig, uniqueEmail, useTestServer } from './harness';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(databases)('legacy sign-in on $label', (database) => {
  const server = useTestServer(database);

  function sessionCookie(response: LightMyRequestResponse) {
    return response.cookies.find((c) => c.name === 'sage_session');
  }

  /** An account as the old product stored it, bypassing today's registration rules. */
  async function insertLegacyUser(email: string, password: string) {
    const now = Date.now();
    await server()
      .db.insertInto('users')
      .values({
        id: `legacy-${now}-${Math.random()}`,
        username: 'legacy',
        email,
        email_verified_at: null,
        password_hash: await hashPassword(password, TEST_SCRYPT_COST),
        status: 'Active',
        is_admin: 0,
        license_token: `lt-${now}-${Math.random()}`,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  it('answers GET /api/user with 401 when signed out', async () => {
    const response = await server().client().get('/api/user');
    expect(response.statusCode).toBe(401);
    expect(errorBody(response)).toEqual({ error: 'unauthorized', message: 'Authentication required' });
  });

  it('registers, signs the new user in and returns the profile', async () => {
    const browser = server().client();
    const email = uniqueEmail('ada');
    const response = await browser.post('/api/register', { email: `  ${email.toUpperCase()} `, password: PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ ok: true, message: 'Account created' });

    const user = await browser.get('/api/user');
    expect(user.statusCode).toBe(200);
    expect(user.json()).toEqual({
      id: expect.any(String),
      username: email.split('@')[0],
      email,
      status: 'Active',
      isAdmin: false,
      staffRole: null,
    });
  });

  it('sets an HttpOnly, SameSite=Lax session cookie of at least 256 bits', async () => {
    const response = await server().client().register(uniqueEmail());
    const cookie = sessionCookie(response);
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.path).toBe('/');
    // http://sage.test is plain http, so the cookie cannot be Secure there.
    expect(cookie?.secure).toBeFalsy();
    // 32 random bytes in base64url are 43 characters.
    expect(cookie?.value.length).toBeGreaterThanOrEqual(43);
  });

  it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
    // A second app over the same database, configured for https.
    const app = await buildApp({
      config: testConfig({ PUBLIC_URL: 'https://sage.test' }),
      db: server().db,
      mailer: { send: async () => undefined },
      rateLimiter: createMemoryRateLimiter(),
      scryptCost: TEST_SCRYPT_COST,
    });
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { email: uniqueEmail(), password: PASSWORD },
      });
      expect(response.statusCode).toBe(201);
      // Named `__Host-…` on https (tests/server/httpsDeployment.test.ts).
      expect(sessionCookie(response)).toBeUndefined();
      expect(response.cookies.find((c) => c.name === '__Host-sage_session')?.secure).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('signs in with the e-mail in any case and spacing', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const browser = server().client();
    const response = await browser.login(`  ${email.toUpperCase()}  `);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, message: 'Signed in' });
    expect((await browser.get('/api/user')).json()).toMatchObject({ email });
  });

  it('issues a new session token at every sign-in and ends the one it replaces', async () => {
    const email = uniqueEmail();
    const browser = server().client();
    await browser.register(email);
    const first = browser.session;
    await browser.login(email);
    const second = browser.session;
    await browser.login(email);
    const third = browser.session;
    expect(new Set([first, second, third]).size).toBe(3);

    // Signing in again from the same browser ends the session the browser had before.
    const stale = server().client({ cookie: `sage_session=${second}` });
    expect((await stale.get('/api/user')).statusCode).toBe(401);
    expect((await browser.get('/api/user')).statusCode).toBe(200);
  });

  it('keeps sessions of different browsers apart', async () => {
    const email = uniqueEmail();
    const laptop = server().client();
    await laptop.register(email);
    const phone = server().client();
    await phone.login(email);
    expect(laptop.session).not.toBe(phone.session);
    expect((await laptop.get('/api/user')).statusCode).toBe(200);
    expect((await phone.get('/api/user')).statusCode).toBe(200);
  });

  it('ends the session on the server at POST /api/logout, so the old cookie no longer works', async () => {
    const browser = server().client();
    await browser.register(uniqueEmail());
    const token = browser.session;
    const response = await browser.post('/api/logout');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, message: 'Signed out' });
    // The cookie is cleared in the browser…
    expect(sessionCookie(response)?.value).toBe('');
    expect(browser.session).toBeUndefined();
    expect((await browser.get('/api/user')).statusCode).toBe(401);
    // …and a copy of the old cookie is worthless.
    const replay = server().client({ cookie: `sage_session=${token}` });
    expect((await replay.get('/api/user')).statusCode).toBe(401);
    const rows = await server()
      .db.selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(token ?? ''))
      .execute();
    expect(rows).toEqual([]);
  });

  it('ends the session at GET /api/logout from our own origin (Sec-Fetch-Site: same-origin) and redirects to /', async () => {
    const browser = server().client();
    await browser.register(uniqueEmail());
    const token = browser.session;
    const response = await browser.get('/api/logout', { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect(sessionCookie(response)?.value).toBe('');
    const replay = server().client({ cookie: `sage_session=${token}` });
    expect((await replay.get('/api/user')).statusCode).toBe(401);
  });

  it.each([
    ['no fetch metadata', undefined],
    ['another site', 'cross-site'],
    ['a page of the same site on another origin', 'same-site'],
    ['a typed address or bookmark', 'none'],
    ['a repeated header', 'same-origin, same-origin'],
    ['a differently spelled value', 'Same-Origin'],
  ])('keeps the session at GET /api/logout from %s and sends the browser to /logout to confirm', async (_from, site) => {
    const browser = server().client();
    await browser.register(uniqueEmail());
    const token = browser.session;
    const response = await browser.get('/api/logout', site === undefined ? undefined : { headers: { 'sec-fetch-site': site } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/logout');
    expect(sessionCookie(response)).toBeUndefined();
    expect(browser.session).toBe(token);
    expect((await browser.get('/api/user')).statusCode).toBe(200);
    // The confirmation page's button signs out with a POST from our own origin.
    expect((await browser.post('/api/logout')).statusCode).toBe(200);
    expect((await browser.get('/api/user')).statusCode).toBe(401);
  });

  it('answers logout without a session with success', async () => {
    const response = await server().client().post('/api/logout');
    expect(response.statusCode).toBe(200);
  });

  it('gives a persistent cookie of about 30 days with Remember me', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const browser = server().client();
    const before = Date.now();
    const response = await browser.login(email, PASSWORD, true);
    expect(response.statusCode).toBe(200);
    const cookie = sessionCookie(response);
    expect(cookie?.expires).toBeInstanceOf(Date);
    const lifetime = (cookie?.expires?.getTime() ?? 0) - before;
    // Expires has one-second resolution.
    expect(Math.abs(lifetime - 30 * DAY_MS)).toBeLessThan(60_000);
    const row = await server()
      .db.selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(cookie?.value ?? ''))
      .executeTakeFirst();
    expect(row?.persistent).toBe(1);
  });

  it('gives a browser-session cookie (no Expires, no Max-Age) without Remember me', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    for (const rememberMe of [false, undefined]) {
      const response = await server().client().login(email, PASSWORD, rememberMe);
      expect(response.statusCode).toBe(200);
      const cookie = sessionCookie(response);
      expect(cookie?.expires).toBeUndefined();
      expect(cookie?.maxAge).toBeUndefined();
      const header = String(response.headers['set-cookie']);
      expect(header).not.toMatch(/expires=|max-age=/i);
    }
  });

  it('refuses a wrong password with 401 Invalid email or password', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const browser = server().client();
    const response = await browser.login(email, 'not-the-password');
    expect(response.statusCode).toBe(401);
    expect(errorBody(response)).toEqual({ error: 'invalid_credentials', message: 'Invalid email or password' });
    expect(browser.session).toBeUndefined();
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const wrong = await server().client().login(email, 'not-the-password');
    const unknown = await server().client().login(uniqueEmail('nobody'), 'not-the-password');
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
  });

  it('refuses a second account on the same e-mail, whatever its case, with 409', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const browser = server().client();
    const response = await browser.post('/api/register', { email: email.toUpperCase(), password: 'another-password' });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response)).toEqual({ error: 'email_taken', message: 'An account with this email already exists.' });
    expect(browser.session).toBeUndefined();
    // The first account keeps its password.
    expect((await server().client().login(email)).statusCode).toBe(200);
  });

  it('refuses a new password shorter than 8 characters at registration', async () => {
    const email = uniqueEmail();
    const response = await server().client().post('/api/register', { email, password: 'short77' });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toEqual({ error: 'invalid_request', message: 'Password must be at least 8 characters' });
    const row = await server().db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('still signs in an existing user whose password is shorter than 8 characters', async () => {
    const email = uniqueEmail('legacy');
    await insertLegacyUser(email, 'abc');
    const browser = server().client();
    const response = await browser.login(email, 'abc');
    expect(response.statusCode).toBe(200);
    expect((await browser.get('/api/user')).json()).toMatchObject({ email, username: 'legacy' });
  });

  it('answers 401, not a server error, for an account whose stored hash is damaged', async () => {
    const email = uniqueEmail('damaged');
    await server().client().register(email);
    await server().db.updateTable('users').set({ password_hash: 'scrypt$abc$8$1$c2FsdA==$aGFzaA==' }).where('email', '=', email).execute();
    const response = await server().client().login(email, PASSWORD);
    expect(response.statusCode).toBe(401);
    expect(errorBody(response).message).toBe('Invalid email or password');
  });

  it('answers 401 for an account without a password (an Epic-only user)', async () => {
    const email = uniqueEmail('epic');
    await server().client().register(email);
    await server().db.updateTable('users').set({ password_hash: null }).where('email', '=', email).execute();
    expect((await server().client().login(email, PASSWORD)).statusCode).toBe(401);
  });

  it('stores passwords as scrypt hashes, never as plain text', async () => {
    const email = uniqueEmail();
    await server().client().register(email, PASSWORD);
    const row = await server().db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(row.password_hash).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, row.password_hash ?? '')).toBe(true);
    // Two accounts with one password get different hashes (salted).
    const other = uniqueEmail();
    await server().client().register(other, PASSWORD);
    const otherRow = await server().db.selectFrom('users').select('password_hash').where('email', '=', other).executeTakeFirstOrThrow();
    expect(otherRow.password_hash).not.toBe(row.password_hash);
  });

  it('stores session tokens hashed: the cookie value is nowhere in the sessions table', async () => {
    const email = uniqueEmail();
    const browser = server().client();
    await browser.register(email);
    const token = browser.session ?? '';
    const rows = await server().db.selectFrom('sessions').selectAll().execute();
    for (const row of rows) {
      expect(Object.values(row).map(String)).not.toContain(token);
    }
    expect(rows.some((r) => r.token_hash === hashToken(token))).toBe(true);
  });

  it('ends a session that has been idle too long', async () => {
    const browser = server().client();
    await browser.register(uniqueEmail());
    const tokenHash = hashToken(browser.session ?? '');
    const idle = server().config.sessionIdleMs;
    await server()
      .db.updateTable('sessions')
      .set({ last_seen_at: Date.now() - idle - 1000 })
      .where('token_hash', '=', tokenHash)
      .execute();
    expect((await browser.get('/api/user')).statusCode).toBe(401);
    const row = await server().db.selectFrom('sessions').select('token_hash').where('token_hash', '=', tokenHash).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('keeps a session alive while it is used and records the use', async () => {
    const browser = server().client();
    await browser.register(uniqueEmail());
    const tokenHash = hashToken(browser.session ?? '');
    const idle = server().config.sessionIdleMs;
    // Last used a while ago, but within the idle limit.
    const lastSeen = Date.now() - idle + 60 * 60_000;
    await server().db.updateTable('sessions').set({ last_seen_at: lastSeen }).where('token_hash', '=', tokenHash).execute();
    expect((await browser.get('/api/user')).statusCode).toBe(200);
    const row = await server()
      .db.selectFrom('sessions')
      .select('last_seen_at')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirstOrThrow();
    expect(row.last_seen_at).toBeGreaterThan(lastSeen + 60_000);
  });

  it('ends a session past its absolute lifetime however busy it is', async () => {
    const browser = server().client();
    await browser.register(uniqueEmail());
    const tokenHash = hashToken(browser.session ?? '');
    await server()
      .db.updateTable('sessions')
      .set({ last_seen_at: Date.now(), expires_at: Date.now() - 1000 })
      .where('token_hash', '=', tokenHash)
      .execute();
    expect((await browser.get('/api/user')).statusCode).toBe(401);
  });

  it('answers an unknown session cookie with 401 and clears the cookie', async () => {
    const browser = server().client({ cookie: 'sage_session=not-a-real-token' });
    const response = await browser.get('/api/user');
    expect(response.statusCode).toBe(401);
    expect(errorBody(response)).toEqual({ error: 'unauthorized', message: 'Authentication required' });
    expect(sessionCookie(response)?.value).toBe('');
  });

  it('clears the cookie of an expired session', async () => {
    const browser = server().client();
    await browser.register(uniqueEmail());
    await server()
      .db.updateTable('sessions')
      .set({ expires_at: Date.now() - 1000 })
      .where('token_hash', '=', hashToken(browser.session ?? ''))
      .execute();
    const response = await browser.get('/api/user');
    expect(response.statusCode).toBe(401);
    expect(sessionCookie(response)?.value).toBe('');
    expect(browser.session).toBeUndefined();
  });

  it('sets no cookie on a 401 when the request had none', async () => {
    const response = await server().client().get('/api/user');
    expect(response.statusCode).toBe(401);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('signs in an existing account whatever its address looks like', async () => {
    // Accounts from before today's format rule, e.g. a host without a dot.
    const email = `legacy-${Date.now()}@intranet`;
    await insertLegacyUser(email, PASSWORD);
    const browser = server().client();
    expect((await browser.login(` ${email} `)).statusCode).toBe(200);
    expect((await browser.get('/api/user')).json()).toMatchObject({ email });
    // Any other text is just an unknown account.
    const unknown = await server().client().login('not-an-email', PASSWORD);
    expect(unknown.statusCode).toBe(401);
    expect(errorBody(unknown).error).toBe('invalid_credentials');
  });

  it('refuses a sign-in e-mail over 254 characters', async () => {
    const response = await server()
      .client()
      .login(`${'a'.repeat(250)}@example.com`);
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toEqual({ error: 'invalid_request', message: 'Email is too long' });
  });
});
