/**
 * Two-step sign-in in the Account section (issue 40, decision 046): enrolment with an authenticator
 * app, confirmation with its code and ten recovery codes, removal and new recovery codes with the
 * password or a fresh code; each change audited and mailed.
 */
import { describe, expect, it } from 'vitest';
import { RECOVERY_CODE_COUNT } from '../../contract/secondFactor';
import { base32Decode } from '../../server/services/secondFactor/totp';
import { signedInUser } from './adminFlow';
import { databases, errorBody, PASSWORD, useTestServer, type TestServer } from './harness';
import { appCode, enrol } from './secondFactorFlow';

const auditActions = async (server: TestServer, userId: string) =>
  (await server.db.selectFrom('audit_log').select('action').where('target_id', '=', userId).orderBy('created_at').execute()).map(
    (r) => r.action,
  );

describe.each(databases)('two-step sign-in in the Account section on $label', (database) => {
  const server = useTestServer(database);

  it('enrols: a secret and its otpauth URI, confirmed with a code, ten recovery codes shown once and stored hashed', async () => {
    const me = await signedInUser(server(), 'enrol');
    expect((await me.client.get('/api/account/second-factor')).json()).toEqual({
      hasPassword: true,
      totp: { enrolled: false, since: null },
      recoveryCodesLeft: 0,
      requiredForStaff: false,
    });
    const started = await me.client.post('/api/account/totp');
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUri } = started.json<{ secret: string; otpauthUri: string }>();
    expect(base32Decode(secret)).toHaveLength(20);
    expect(otpauthUri).toBe(
      `otpauth://totp/Sage:${encodeURIComponent(me.email)}?secret=${secret}&issuer=Sage&algorithm=SHA1&digits=6&period=30`,
    );

    const wrong = await me.client.post('/api/account/totp/confirm', { code: appCode(secret, 5) });
    expect(wrong.statusCode).toBe(400);
    expect(errorBody(wrong).error).toBe('wrong_code');

    const confirmed = await me.client.post('/api/account/totp/confirm', { code: appCode(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    const stored = await server().db.selectFrom('recovery_codes').selectAll().where('user_id', '=', me.id).execute();
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    for (const row of stored) expect(recoveryCodes.some((c) => row.code_hash.includes(c.replace(/-/g, '')))).toBe(false);

    const status = (await me.client.get('/api/account/second-factor')).json<{ totp: { enrolled: boolean; since: number } }>();
    expect(status).toMatchObject({ totp: { enrolled: true }, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    expect(status.totp.since).toBeGreaterThan(Date.now() - 60_000);
    // Shown once: a second confirm or start is refused, the secret is never answered again.
    expect(errorBody(await me.client.post('/api/account/totp/confirm', { code: appCode(secret, 1) })).error).toBe('totp_enrolled');
    const again = await me.client.post('/api/account/totp');
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).error).toBe('totp_enrolled');

    expect(await auditActions(server(), me.id)).toContain('account.second_factor.enable');
    await expect
      .poll(() =>
        server()
          .smtp.mailsTo(me.email)
          .map((m) => m.subject),
      )
      .toContain('Two-step sign-in is on for your Sage account');
  });

  it('refuses an Epic-only account: Epic protects it', async () => {
    const me = await signedInUser(server(), 'epic-only');
    await server().db.updateTable('users').set({ password_hash: null }).where('id', '=', me.id).execute();
    const refused = await me.client.post('/api/account/totp');
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).error).toBe('no_password');
    expect(errorBody(refused).message).toMatch(/Epic Games/);
  });

  it('a second start replaces an unconfirmed secret: of two enrolments racing, only the last secret confirms', async () => {
    const me = await signedInUser(server(), 'race');
    const answers = await Promise.all([me.client.post('/api/account/totp'), me.client.post('/api/account/totp')]);
    for (const a of answers) expect(a.statusCode).toBe(200);
    const secrets = answers.map((a) => a.json<{ secret: string }>().secret);
    const kept = (await server().db.selectFrom('user_totp').select('secret').where('user_id', '=', me.id).executeTakeFirstOrThrow()).secret;
    expect(secrets).toContain(kept);
    const replaced = secrets.find((s) => s !== kept)!;
    const stale = await me.client.post('/api/account/totp/confirm', { code: appCode(replaced) });
    expect(stale.statusCode).toBe(400);
    expect((await me.client.post('/api/account/totp/confirm', { code: appCode(kept) })).statusCode).toBe(200);
  });

  it('turns off with the password or a fresh code, not with a wrong one; the recovery codes go with it', async () => {
    const me = await signedInUser(server(), 'off');
    const { recoveryCodes } = await enrol(me.client);
    const refused = await me.client.request('DELETE', '/api/account/totp', { json: { password: 'not-my-password' } });
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).error).toBe('wrong_proof');
    const both = await me.client.request('DELETE', '/api/account/totp', { json: { password: PASSWORD, code: '123456' } });
    expect(both.statusCode).toBe(400);

    const off = await me.client.request('DELETE', '/api/account/totp', { json: { code: recoveryCodes[0] } });
    expect(off.statusCode, off.body).toBe(200);
    expect(await server().db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', me.id).execute()).toEqual([]);
    expect((await me.client.get('/api/account/second-factor')).json()).toMatchObject({ totp: { enrolled: false }, recoveryCodesLeft: 0 });
    expect(errorBody(await me.client.request('DELETE', '/api/account/totp', { json: { password: PASSWORD } })).error).toBe(
      'second_factor_not_enrolled',
    );

    // On again, and off with the password.
    await enrol(me.client);
    expect((await me.client.request('DELETE', '/api/account/totp', { json: { password: PASSWORD } })).statusCode).toBe(200);
    expect(await auditActions(server(), me.id)).toEqual([
      'account.second_factor.enable',
      'account.second_factor.disable',
      'account.second_factor.enable',
      'account.second_factor.disable',
    ]);
    await expect
      .poll(
        () =>
          server()
            .smtp.mailsTo(me.email)
            .filter((m) => m.subject === 'Two-step sign-in is off for your Sage account').length,
      )
      .toBe(2);
  });

  it('makes new recovery codes with the password or a fresh code: the old ones stop working', async () => {
    const me = await signedInUser(server(), 'regen');
    const { secret, recoveryCodes: old } = await enrol(me.client);
    // One code, computed once: a second computed later could fall in a newer step, which is no replay.
    const proof = appCode(secret, 1);
    const fresh = await me.client.post('/api/account/recovery-codes', { code: proof });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const { recoveryCodes } = fresh.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    // The code used as proof cannot prove again; an old recovery code proves nothing.
    expect((await me.client.post('/api/account/recovery-codes', { code: proof })).statusCode).toBe(400);
    expect((await me.client.post('/api/account/recovery-codes', { code: old[0] })).statusCode).toBe(400);
    expect((await me.client.post('/api/account/recovery-codes', { password: PASSWORD })).statusCode).toBe(200);
    expect(await auditActions(server(), me.id)).toEqual([
      'account.second_factor.enable',
      'account.recovery_codes.regenerate',
      'account.recovery_codes.regenerate',
    ]);
    await expect
      .poll(() =>
        server()
          .smtp.mailsTo(me.email)
          .map((m) => m.subject),
      )
      .toContain('New recovery codes for your Sage account');
  });

  it('counts wrong codes and passwords per account: past the limit even the right one waits', async () => {
    const me = await signedInUser(server(), 'guess');
    await enrol(me.client);
    for (let i = 0; i < 10; i++)
      expect((await me.client.post('/api/account/recovery-codes', { password: `wrong-${i}` })).statusCode).toBe(400);
    const limited = await me.client.post('/api/account/recovery-codes', { password: PASSWORD });
    expect(limited.statusCode).toBe(429);
  });
});
