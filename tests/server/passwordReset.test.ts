import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { PURGE_INTERVAL_MS } from '../../server/app';
import { hashToken } from '../../server/services/tokens';
import { buildExtraApp, PASSWORD, PUBLIC_URL, databases, errorBody, uniqueEmail, useTestServer, type TestClient } from './harness';

const NEW_PASSWORD = 'a-brand-new-secret';
const SAME_ANSWER = {
  ok: true,
  message: 'If an account exists for this email, a password reset link has been sent.',
};

describe.each(databases)('password reset on $label', (database) => {
  const server = useTestServer(database);

  /** Asks for a reset link for `email` and returns the token from the mail that arrives. */
  async function requestResetToken(email: string, client: TestClient = server().client()): Promise<string> {
    const before = server().smtp.mailsTo(email).length;
    const response = await client.post('/api/forgot-password', { email });
    expect(response.statusCode).toBe(200);
    const mail = await waitForNthMail(email, before + 1);
    const link = mail.links.find((l) => l.includes('/reset-password?token='));
    if (!link) throw new Error(`no reset link in mail: ${mail.text}`);
    const token = new URL(link).searchParams.get('token');
    if (!token) throw new Error(`no token in ${link}`);
    return token;
  }

  async function waitForNthMail(email: string, n: number) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const mails = server().smtp.mailsTo(email);
      const mail = mails[n - 1];
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`mail #${n} to ${email} did not arrive`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('mails a reset link built from PUBLIC_URL, never from the Host header', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const attacker = server().client({ host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    const response = await attacker.post('/api/forgot-password', { email });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(SAME_ANSWER);

    const mail = await server().smtp.waitForMail(email);
    expect(mail.subject).toBe('Reset your Sage password');
    expect(mail.headers.from).toBe(server().config.mailFrom);
    expect(mail.to).toEqual([email]);
    expect(mail.text).toMatch(/within one hour/);
    expect(mail.html).toContain('<a href="');
    expect(mail.links.length).toBeGreaterThan(0);
    for (const link of mail.links) {
      expect(link.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
      expect(link).not.toContain('evil.example');
    }
    expect(mail.raw).not.toContain('evil.example');
  });

  it('resets the password, ends every old session and refuses the token a second time', async () => {
    const email = uniqueEmail();
    const laptop = server().client();
    await laptop.register(email);
    const phone = server().client();
    expect((await phone.login(email, PASSWORD, true)).statusCode).toBe(200);
    const oldTokens = [laptop.session, phone.session];

    const token = await requestResetToken(email);
    const reset = await server().client().post('/api/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ ok: true, message: 'Password reset successful. Please login with your new password.' });

    // Every session the user had is gone, on the server.
    expect((await laptop.get('/api/user')).statusCode).toBe(401);
    expect((await phone.get('/api/user')).statusCode).toBe(401);
    for (const old of oldTokens) {
      const replay = server().client({ cookie: `sage_session=${old}` });
      expect((await replay.get('/api/user')).statusCode).toBe(401);
    }

    // Only the new password works now.
    expect((await server().client().login(email, PASSWORD)).statusCode).toBe(401);
    const browser = server().client();
    expect((await browser.login(email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await browser.get('/api/user')).json()).toMatchObject({ email });

    // The link is single use.
    const again = await server().client().post('/api/reset-password', { token, newPassword: 'yet-another-secret' });
    expect(again.statusCode).toBe(400);
    expect(errorBody(again)).toEqual({
      error: 'invalid_token',
      message: 'This password reset link is invalid or has already been used.',
    });
    expect((await server().client().login(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('accepts a reset token only once even when two resets race', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const token = await requestResetToken(email);
    const [a, b] = await Promise.all([
      server().client().post('/api/reset-password', { token, newPassword: 'first-racer-password' }),
      server().client().post('/api/reset-password', { token, newPassword: 'second-racer-password' }),
    ]);
    expect([a?.statusCode, b?.statusCode].sort()).toEqual([200, 400]);
    const winner = a?.statusCode === 200 ? 'first-racer-password' : 'second-racer-password';
    const loser = a?.statusCode === 200 ? 'second-racer-password' : 'first-racer-password';
    expect((await server().client().login(email, winner)).statusCode).toBe(200);
    expect((await server().client().login(email, loser)).statusCode).toBe(401);
  });

  it('refuses an expired reset token and leaves the password as it was', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const token = await requestResetToken(email);
    await server()
      .db.updateTable('password_reset_tokens')
      .set({ expires_at: Date.now() - 1000 })
      .where('token_hash', '=', hashToken(token))
      .execute();

    const response = await server().client().post('/api/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toEqual({
      error: 'expired_token',
      message: 'This password reset link has expired. Please request a new one.',
    });
    expect((await server().client().login(email, PASSWORD)).statusCode).toBe(200);
    expect((await server().client().login(email, NEW_PASSWORD)).statusCode).toBe(401);
  });

  it('gives reset tokens a lifetime of one hour', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const before = Date.now();
    const token = await requestResetToken(email);
    const row = await server()
      .db.selectFrom('password_reset_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(row.expires_at - before).toBeGreaterThan(59 * 60_000);
    expect(row.expires_at - before).toBeLessThanOrEqual(60 * 60_000 + 5000);
  });

  it('refuses a made-up reset token', async () => {
    const response = await server().client().post('/api/reset-password', { token: 'made-up-token', newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).error).toBe('invalid_token');
  });

  it('refuses a new password shorter than 8 characters and keeps the link usable', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const token = await requestResetToken(email);
    const short = await server().client().post('/api/reset-password', { token, newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(errorBody(short)).toEqual({ error: 'invalid_request', message: 'Password must be at least 8 characters' });
    expect((await server().client().login(email, PASSWORD)).statusCode).toBe(200);

    const ok = await server().client().post('/api/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(ok.statusCode).toBe(200);
  });

  it('stores reset tokens hashed', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const token = await requestResetToken(email);
    const rows = await server().db.selectFrom('password_reset_tokens').selectAll().execute();
    for (const row of rows) expect(Object.values(row).map(String)).not.toContain(token);
    expect(rows.some((r) => r.token_hash === hashToken(token))).toBe(true);
  });

  it('answers forgot-password the same for an unknown e-mail and sends nothing', async () => {
    const known = uniqueEmail('known');
    await server().client().register(known);
    const unknown = uniqueEmail('unknown');

    const forUnknown = await server().client().post('/api/forgot-password', { email: unknown });
    const forKnown = await server().client().post('/api/forgot-password', { email: known });
    expect(forUnknown.statusCode).toBe(forKnown.statusCode);
    expect(forUnknown.body).toBe(forKnown.body);
    expect(forUnknown.json()).toEqual(SAME_ANSWER);

    // The mail for the known account was sent after the unknown request was handled.
    await server().smtp.waitForMail(known);
    expect(server().smtp.mailsTo(unknown)).toEqual([]);
    const tokens = await server().db.selectFrom('password_reset_tokens').select('user_id').execute();
    const knownUser = await server().db.selectFrom('users').select('id').where('email', '=', known).executeTakeFirstOrThrow();
    expect(tokens.filter((t) => t.user_id === knownUser.id)).toHaveLength(1);
  });

  it.runIf(database.kind === 'postgres')(
    'answers forgot-password before anything about the address is looked up, for a known and an unknown one alike',
    async () => {
      const known = uniqueEmail('known');
      await server().client().register(known);
      const unknown = uniqueEmail('unknown');
      // Another connection holds the users table: a lookup of either address would wait for it.
      await server()
        .db.connection()
        .execute(async (locked) => {
          await sql`begin`.execute(locked);
          await sql`lock table users in access exclusive mode`.execute(locked);
          try {
            for (const email of [known, unknown]) {
              const response = await server().client().post('/api/forgot-password', { email });
              expect(response.json()).toEqual(SAME_ANSWER);
            }
            expect(server().smtp.mailsTo(known)).toEqual([]);
          } finally {
            await sql`rollback`.execute(locked);
          }
        });
      // The work follows the answer: the known address gets its mail once the table is free.
      await server().smtp.waitForMail(known);
      expect(server().smtp.mailsTo(unknown)).toEqual([]);
    },
  );

  it('lets an earlier link of the user stop working once a reset succeeds', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const first = await requestResetToken(email);
    const second = await requestResetToken(email);
    expect(first).not.toBe(second);
    expect((await server().client().post('/api/reset-password', { token: second, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
    const stale = await server().client().post('/api/reset-password', { token: first, newPassword: 'yet-another-secret' });
    expect(stale.statusCode).toBe(400);
    expect((await server().client().login(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('rate-limits forgot-password per address with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (
          await server()
            .client()
            .post('/api/forgot-password', { email: uniqueEmail('ask') })
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('rate-limits reset-password per address with 429, so tokens cannot be guessed in bulk', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const response = await server()
        .client()
        .post('/api/reset-password', { token: `guess-${i}`, newPassword: NEW_PASSWORD });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(errorBody(await server().client().post('/api/reset-password', { token: 'x', newPassword: NEW_PASSWORD }))).toEqual({
      error: 'rate_limited',
      message: 'Too many password reset attempts. Please try again later.',
    });
  });

  it('drops expired and used reset tokens in the hourly housekeeping', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const user = await server().db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const now = Date.now();
    const row = (tokenHash: string, expiresAt: number, usedAt: number | null) => ({
      token_hash: tokenHash,
      user_id: user.id,
      created_at: now - 60_000,
      expires_at: expiresAt,
      used_at: usedAt,
    });
    const [expired, used, live] = [`expired-${now}`, `used-${now}`, `live-${now}`];
    await server()
      .db.insertInto('password_reset_tokens')
      .values([row(expired, now - 1000, null), row(used, now + 60_000, now - 1000), row(live, now + 60_000, null)])
      .execute();
    const remaining = async () =>
      (await server().db.selectFrom('password_reset_tokens').select('token_hash').where('user_id', '=', user.id).execute()).map(
        (r) => r.token_hash,
      );
    expect((await remaining()).sort()).toEqual([expired, live, used].sort());

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const app = await buildExtraApp(server().db);
    try {
      await app.ready();
      vi.advanceTimersByTime(PURGE_INTERVAL_MS);
      const deadline = Date.now() + 5000;
      while ((await remaining()).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(await remaining()).toEqual([live]);
    } finally {
      await app.close();
      vi.useRealTimers();
    }
  });

  it('rate-limits forgot-password per e-mail with 429 and a clear message', async () => {
    const email = uniqueEmail();
    await server().client().register(email);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await server().client().post('/api/forgot-password', { email });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.headers['retry-after']).toMatch(/^\d+$/);
    expect(errorBody(last!)).toEqual({
      error: 'rate_limited',
      message: 'Too many password reset requests. Please try again later.',
    });
  });
});
