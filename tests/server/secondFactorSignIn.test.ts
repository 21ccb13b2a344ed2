/**
 * Signing in with two-step sign-in on (issue 40, decision 046): the password answers
 * `secondFactorRequired` without a session, and the code in the same browser completes it; codes
 * cannot be replayed, wrong ones count against sign-in's limits, and two at once pass once.
 */
import { describe, expect, it } from 'vitest';
import { SECOND_FACTOR_MESSAGES } from '../../contract/secondFactor';
import { AUTH_RATE_LIMITS } from '../../server/services/rateLimiter';
import { signedInUser } from './adminFlow';
import { databases, errorBody, PASSWORD, useTestServer, type TestClient } from './harness';
import { appCode, enrol, forgetLastStep } from './secondFactorFlow';

const secondStep = (browser: TestClient, code: string) => browser.post('/api/login/second-factor', { code });

describe.each(databases)('signing in with two-step sign-in on $label', (database) => {
  const server = useTestServer(database);

  async function enrolled() {
    const me = await signedInUser(server(), 'two-step');
    const factor = await enrol(me.client);
    return { ...me, ...factor };
  }

  it('asks for the code after the password, without a session, then signs in with the app code', async () => {
    const me = await enrolled();
    const browser = server().client();
    const first = await browser.login(me.email, PASSWORD, true);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true, secondFactorRequired: true, message: SECOND_FACTOR_MESSAGES.askForCode });
    expect(browser.session).toBeUndefined();
    const cookie = first.cookies.find((c) => c.name === 'sage_second_factor')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/login' });
    expect(cookie.expires!.getTime()).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    expect((await browser.get('/api/user')).statusCode).toBe(401);
    const stored = await server().db.selectFrom('second_factor_sign_ins').selectAll().where('user_id', '=', me.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toBe(cookie.value);

    // Another browser has no pending sign-in, even with the right code.
    const elsewhere = await secondStep(server().client(), appCode(me.secret, 1));
    expect(elsewhere.statusCode).toBe(401);
    expect(errorBody(elsewhere).error).toBe('second_factor_expired');

    const done = await secondStep(browser, appCode(me.secret, 1));
    expect(done.statusCode, done.body).toBe(200);
    expect(browser.session).toBeDefined();
    expect(browser.cookies.has('sage_second_factor')).toBe(false);
    // Remember me was kept: the session cookie outlives the browser.
    expect(done.cookies.find((c) => c.name === 'sage_session')?.expires).toBeDefined();
    expect((await browser.get('/api/user')).statusCode).toBe(200);
    const session = await server()
      .db.selectFrom('sessions')
      .select('method')
      .where('user_id', '=', me.id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(session.method).toBe('password');
    // Single use: the pending sign-in is gone.
    expect(errorBody(await secondStep(browser, appCode(me.secret, -1))).error).toBe('second_factor_expired');
  });

  it('refuses a code of a step already used, and a pending sign-in past its five minutes', async () => {
    const me = await enrolled();
    // The code that turned the app on cannot sign in.
    const browser = server().client();
    await browser.login(me.email);
    const replay = await secondStep(browser, me.code);
    expect(replay.statusCode).toBe(401);
    expect(errorBody(replay).error).toBe('invalid_code');
    // One code, computed once: one computed later could fall in a newer step, which is no replay.
    const next = appCode(me.secret, 1);
    expect((await secondStep(browser, next)).statusCode).toBe(200);
    // Nor the one that just signed in, in another browser.
    const other = server().client();
    await other.login(me.email);
    expect(errorBody(await secondStep(other, next)).error).toBe('invalid_code');

    await server()
      .db.updateTable('second_factor_sign_ins')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', me.id)
      .execute();
    await forgetLastStep(server(), me.id);
    const late = await secondStep(other, appCode(me.secret));
    expect(late.statusCode).toBe(401);
    expect(errorBody(late).error).toBe('second_factor_expired');
  });

  it('signs in with a recovery code once; the owner is told how many remain', async () => {
    const me = await enrolled();
    const browser = server().client();
    await browser.login(me.email);
    const code = me.recoveryCodes[3]!;
    expect((await secondStep(browser, code.toUpperCase().replace(/-/g, ' '))).statusCode).toBe(200);
    const again = server().client();
    await again.login(me.email);
    expect(errorBody(await secondStep(again, code)).error).toBe('invalid_code');
    expect((await me.client.get('/api/account/second-factor')).json()).toMatchObject({ recoveryCodesLeft: 9 });
    await expect
      .poll(() =>
        server()
          .smtp.mailsTo(me.email)
          .map((m) => m.subject),
      )
      .toContain('A recovery code was used to sign in to your Sage account');
  });

  it('the same code sent twice at once signs in once', async () => {
    const me = await enrolled();
    for (const code of [appCode(me.secret, 1), me.recoveryCodes[0]!]) {
      const a = server().client();
      const b = server().client();
      await a.login(me.email);
      await b.login(me.email);
      const answers = await Promise.all([secondStep(a, code), secondStep(b, code)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    }
    // And one browser's pending sign-in, completed twice at once with two good codes: one session.
    const c = server().client();
    await c.login(me.email);
    await forgetLastStep(server(), me.id);
    const both = await Promise.all([secondStep(c, appCode(me.secret)), secondStep(c, me.recoveryCodes[1]!)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('counts wrong codes against the sign-in limit of the account, as wrong passwords', async () => {
    const me = await enrolled();
    const browser = server().client();
    await browser.login(me.email);
    const { limit } = AUTH_RATE_LIMITS.loginPerEmail;
    for (let i = 0; i < limit; i++) expect((await secondStep(browser, String(100000 + i))).statusCode).toBe(401);
    const limited = await secondStep(browser, appCode(me.secret, 1));
    expect(limited.statusCode).toBe(429);
    // The password step of the same account waits too.
    expect((await server().client().login(me.email)).statusCode).toBe(429);
  });

  it('a wrong password never reaches the second step', async () => {
    const me = await enrolled();
    const browser = server().client();
    expect((await browser.login(me.email, 'not-the-password')).statusCode).toBe(401);
    expect(browser.cookies.has('sage_second_factor')).toBe(false);
  });
});
