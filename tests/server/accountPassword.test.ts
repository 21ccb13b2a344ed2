/**
 * A customer's own password (issue 27): changed with the current one, the other sessions end, a
 * mail tells the owner, the audit log says who; and an admin made by `create-admin` with a one-time
 * password can do nothing but set their own until they have.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresSchema } from '../../scripts/postgresSchema';
import { runCli } from '../../server/cli';
import { migrateToLatest, openDatabase } from '../../server/db';
import { ACCOUNT_SECURITY_RATE_LIMITS } from '../../server/services/rateLimiter';
import {
  buildExtraApp,
  databases,
  errorBody,
  PASSWORD,
  TestClient,
  uniqueEmail,
  useTestServer,
  type TestDatabase,
  type TestServer,
} from './harness';

const NEW_PASSWORD = 'a-password-of-my-own';

/** A registered user signed in on `browsers` browsers (the first registered, the others signed in). */
async function userWithBrowsers(server: TestServer, browsers = 1) {
  const email = uniqueEmail('owner');
  const first = server.client();
  await first.register(email);
  const others: TestClient[] = [];
  for (let i = 1; i < browsers; i++) {
    const other = server.client();
    expect((await other.login(email)).statusCode).toBe(200);
    others.push(other);
  }
  const id = (await first.get('/api/user')).json<{ id: string }>().id;
  return { email, id, browser: first, others };
}

const change = (browser: TestClient, currentPassword: string, newPassword = NEW_PASSWORD) =>
  browser.post('/api/account/password', { currentPassword, newPassword });

describe.each(databases)('changing your own password on $label', (database) => {
  const server = useTestServer(database);

  it('says whether the account has a password: an Epic account has none, and nothing to change', async () => {
    const { id, browser } = await userWithBrowsers(server());
    expect((await browser.get('/api/account/password')).json()).toEqual({ hasPassword: true });

    await server().db.updateTable('users').set({ password_hash: null }).where('id', '=', id).execute();
    expect((await browser.get('/api/account/password')).json()).toEqual({ hasPassword: false });
    const refused = await change(browser, PASSWORD);
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).error).toBe('no_password');
  });

  it('refuses a wrong current password and keeps the old one', async () => {
    const { email, browser, others } = await userWithBrowsers(server(), 2);
    const refused = await change(browser, 'not-my-password');
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused)).toEqual({ error: 'wrong_password', message: 'The current password is not correct.' });
    // Nothing changed: the old password signs in, the other browser is still signed in, no mail.
    expect((await server().client().login(email)).statusCode).toBe(200);
    expect((await others[0]!.get('/api/user')).statusCode).toBe(200);
    expect(server().smtp.mailsTo(email)).toEqual([]);
  });

  it('counts wrong current passwords like sign-in: past the limit even the right one waits', async () => {
    const { email, browser } = await userWithBrowsers(server());
    const { limit } = ACCOUNT_SECURITY_RATE_LIMITS.passwordChangePerUser;
    for (let i = 0; i < limit; i++) expect((await change(browser, `wrong-guess-${i}`)).statusCode).toBe(400);
    const limited = await change(browser, PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(errorBody(limited).error).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await server().client().login(email)).statusCode).toBe(200);
  });

  it('counts only failures: successes give their attempt back', async () => {
    const { browser } = await userWithBrowsers(server());
    const { limit } = ACCOUNT_SECURITY_RATE_LIMITS.passwordChangePerUser;
    let current = PASSWORD;
    for (let i = 0; i <= limit; i++) {
      const next = `my-password-number-${i}`;
      expect((await change(browser, current, next)).statusCode).toBe(200);
      current = next;
    }
  });

  it.each([
    ['a new password shorter than the rule', PASSWORD, 'short', 'Password must be at least 8 characters'],
    ['the current password again', PASSWORD, PASSWORD, 'Choose a new password that differs from the current one'],
    ['no current password', '', NEW_PASSWORD, 'Current password is required'],
  ])('refuses %s with the rule in its words', async (_name, currentPassword, newPassword, message) => {
    const { browser } = await userWithBrowsers(server());
    const refused = await change(browser, currentPassword, newPassword);
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).error).toBe('invalid_request');
    expect(errorBody(refused).message).toContain(message);
  });

  it('changes it: this browser stays signed in, every other one is signed out, the owner is told by mail, the audit log says so', async () => {
    const { email, id, browser, others } = await userWithBrowsers(server(), 3);
    const response = await change(browser, PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ok: true,
      message: 'Your password was changed. You were signed out everywhere else. Sign the Sage plugin in again.',
    });

    expect((await browser.get('/api/user')).statusCode).toBe(200);
    for (const other of others) expect((await other.get('/api/user')).statusCode).toBe(401);
    expect((await server().client().login(email, PASSWORD)).statusCode).toBe(401);
    expect((await server().client().login(email, NEW_PASSWORD)).statusCode).toBe(200);

    const mail = await server().smtp.waitForMail(email);
    expect(mail.subject).toBe('Your Sage password was changed');
    expect(mail.text).toMatch(/every other browser signed in to it was signed out/);
    expect(mail.links).toEqual([`${server().config.publicUrl}/login`]);
    expect(mail.raw).not.toContain(NEW_PASSWORD);

    const entries = await server()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'account.password.change')
      .where('target_id', '=', id)
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: id, actor_email: email, target_type: 'user' });
    expect(JSON.parse(entries[0]!.after_json ?? 'null')).toEqual({ otherSessionsEnded: 2, signOutPlugin: true });
    expect(JSON.stringify(entries[0])).not.toContain(NEW_PASSWORD);
  });

  it('a one-time password is also replaced by a reset from the e-mailed link', async () => {
    const { email, id, browser } = await userWithBrowsers(server());
    await server().db.updateTable('users').set({ password_change_required: 1 }).where('id', '=', id).execute();
    expect((await browser.get('/api/user')).json()).toMatchObject({ passwordChangeRequired: true });

    await server().client().post('/api/forgot-password', { email });
    const link = (await server().smtp.waitForMail(email)).links.find((l) => l.includes('/reset-password?token='));
    const token = new URL(link!).searchParams.get('token');
    expect((await server().client().post('/api/reset-password', { token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);

    const again = server().client();
    expect((await again.login(email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await again.get('/api/user')).json()).not.toHaveProperty('passwordChangeRequired');
    expect((await again.get('/api/account/password')).statusCode).toBe(200);
  });

  it('of two changes at once, one wins and the other is refused', async () => {
    const { email, browser, others } = await userWithBrowsers(server(), 2);
    const answers = await Promise.all([
      change(browser, PASSWORD, 'first-new-password'),
      change(others[0]!, PASSWORD, 'second-new-password'),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    // The loser either saw the old hash replaced (409) or was signed out by the winner first (401).
    expect(codes[0]).toBe(200);
    expect([401, 409]).toContain(codes[1]);
    const winner = answers[0]!.statusCode === 200 ? 'first-new-password' : 'second-new-password';
    expect((await server().client().login(email, winner)).statusCode).toBe(200);
  });
});

/** A database of its own for the CLI, which opens the one its environment names. */
async function cliDatabase(database: TestDatabase) {
  if (database.kind === 'postgres') {
    const schema = await createPostgresSchema(process.env.TEST_DATABASE_URL!, 'cli');
    return { env: { DATABASE_URL: schema.url, DATA_DIR: os.tmpdir() }, dispose: () => schema.drop() };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-cli-'));
  return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/** Runs the CLI with `env` as its environment's database settings. */
async function cli(env: Record<string, string>, args: string[]): Promise<string> {
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  Object.assign(process.env, env);
  const output: string[] = [];
  try {
    expect(await runCli(args, (line) => output.push(line))).toBe(0);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  return output.join('\n');
}

describe.each(databases)('an admin with a one-time password on $label', (database) => {
  it('must set their own password before anything else; then the console opens', async () => {
    const { env, dispose } = await cliDatabase(database);
    const email = uniqueEmail('boss');
    try {
      const printed = await cli(env, ['create-admin', '--email', email]);
      const oneTime = /One-time password \(shown only now\): (\S+)/.exec(printed)?.[1];
      expect(oneTime).toBeTruthy();
      expect(printed).toContain('It must be replaced with a password of their own at the first sign-in.');

      const db = openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR });
      await migrateToLatest(db);
      const app = await buildExtraApp(db);
      try {
        const admin = new TestClient(app);
        expect((await admin.login(email, oneTime!)).statusCode).toBe(200);
        expect((await admin.get('/api/user')).json()).toMatchObject({ email, isAdmin: true, passwordChangeRequired: true });

        // Refused everything else, reads and writes, the console's and a user's, with one code.
        for (const [method, url] of [
          ['GET', '/api/admin/grove-metrics'],
          ['GET', '/api/admin/users'],
          ['GET', '/api/stripe/subscription-status'],
          ['POST', '/api/account/license/reissue'],
        ] as const) {
          const refused = await admin.request(method, url, method === 'POST' ? { json: {} } : {});
          expect(refused.statusCode, `${method} ${url}`).toBe(403);
          expect(errorBody(refused)).toEqual({
            error: 'password_change_required',
            message: 'Your account has a one-time password. Please set your own password first.',
          });
        }
        expect((await admin.get('/api/account/password')).json()).toEqual({ hasPassword: true });

        expect((await change(admin, oneTime!)).statusCode).toBe(200);
        const me = (await admin.get('/api/user')).json<Record<string, unknown>>();
        expect(me).not.toHaveProperty('passwordChangeRequired');
        expect((await admin.get('/api/admin/grove-metrics')).statusCode).toBe(200);
        expect((await new TestClient(app).login(email, NEW_PASSWORD)).statusCode).toBe(200);
      } finally {
        await app.close();
        await db.destroy();
      }
    } finally {
      await dispose();
    }
  });

  it('may still sign out, and an admin given --password must set nothing', async () => {
    const { env, dispose } = await cliDatabase(database);
    const flagged = uniqueEmail('boss');
    const chosen = uniqueEmail('boss');
    try {
      const oneTime = /One-time password \(shown only now\): (\S+)/.exec(await cli(env, ['create-admin', '--email', flagged]))?.[1];
      await cli(env, ['create-admin', '--email', chosen, '--password', 'an-operator-password']);

      const db = openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR });
      await migrateToLatest(db);
      const app = await buildExtraApp(db);
      try {
        const admin = new TestClient(app);
        expect((await admin.login(flagged, oneTime!)).statusCode).toBe(200);
        expect((await admin.post('/api/logout')).statusCode).toBe(200);
        expect((await admin.get('/api/user')).statusCode).toBe(401);

        const other = new TestClient(app);
        expect((await other.login(chosen, 'an-operator-password')).statusCode).toBe(200);
        expect((await other.get('/api/user')).json()).not.toHaveProperty('passwordChangeRequired');
        expect((await other.get('/api/admin/grove-metrics')).statusCode).toBe(200);
      } finally {
        await app.close();
        await db.destroy();
      }
    } finally {
      await dispose();
    }
  });
});
