/**
 * Issue 36's recovery tests: an account holding one pending single-use credential of every kind,
 * each made the way a browser, a mailbox or the plugin makes it, and a way to try each one.
 *
 *   const account = await accountWithPendingCredentials(server());
 *   await account.credentials.email_change.use();   // 'worked' | 'refused'
 */
import { expect } from 'vitest';
import { emailChangeSignedOutLanding } from '../../contract/accountEmail';
import { hashPassword } from '../../server/services/passwords';
import {
  INVALID_LINK_PAGE,
  VERIFIED_PAGE,
  linkEmail,
  location,
  pathOf,
  pkcePair,
  pluginLoginUrl,
  signInWithEpic,
  uniqueDisplayName,
} from './epicFlow';
import { PASSWORD, TEST_SCRYPT_COST, uniqueEmail, type TestClient, type TestServer } from './harness';

/** Every kind of pending single-use credential an account can have (decision 003's recovery table). */
export const CREDENTIALS = ['email_change', 'password_reset', 'email_verification', 'hand_off_code'] as const;
export type CredentialKind = (typeof CREDENTIALS)[number];

export const NEW_PASSWORD = 'a-brand-new-secret';

export interface PendingCredential {
  /** Tries the credential as its holder would: 'worked' when it did what it is for, else how it was refused. */
  use(): Promise<string>;
  /** How a void (or spent) credential is refused. */
  invalid: string;
  /** What it would have changed is still as it was (after a refused use). */
  changedNothing(): Promise<void>;
}

export interface AccountWithCredentials {
  id: string;
  email: string;
  username: string;
  /** A browser signed in with the account's password. */
  browser: TestClient;
  credentials: Record<CredentialKind, PendingCredential>;
}

/** Waits for the n-th mail to `to` (1-based). */
export async function nthMailTo(server: TestServer, to: string, n: number) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const mail = server.smtp.mailsTo(to)[n - 1];
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`mail #${n} to ${to} did not arrive`);
}

/** The link of the next mail to `to` that `send` causes, matching `path`. */
export async function nextLink(server: TestServer, to: string, path: string, send: () => Promise<unknown>): Promise<string> {
  const before = server.smtp.mailsTo(to).length;
  await send();
  const mail = await nthMailTo(server, to, before + 1);
  const link = mail.links.find((l) => l.includes(path));
  if (!link) throw new Error(`no ${path} link in mail: ${mail.text}`);
  return link;
}

/** A reset link's token, from the mail `POST /api/forgot-password` sends. */
export async function resetToken(server: TestServer, email: string): Promise<string> {
  const link = await nextLink(server, email, '/reset-password?token=', () => server.client().post('/api/forgot-password', { email }));
  return new URL(link).searchParams.get('token') ?? '';
}

const userRow = (server: TestServer, id: string) => server.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * An Epic account's user, with a password too, signed in with it in `browser`, holding one of each
 * pending credential: a link to change its e-mail, a reset link, a verification link that another
 * browser linking the same Epic account is waiting on (opening it signs that browser in), and a
 * plugin hand-off code.
 */
export async function accountWithPendingCredentials(server: TestServer): Promise<AccountWithCredentials> {
  const displayName = uniqueDisplayName('Owner');
  const email = uniqueEmail('owner');
  // Two browsers sign in with the same new Epic account and link the same e-mail; the second one's
  // link makes the account, and the first one's link stays pending for it.
  const waiting = server.client();
  expect(location(await signInWithEpic(waiting, displayName))).toBe('/epic_account_link?client=web');
  await linkEmail(waiting, email);
  const verifyLink = (await nthMailTo(server, email, 1)).links.find((l) => l.includes('/api/email/verify?token='));
  if (!verifyLink) throw new Error('no verification link');
  const other = server.client();
  expect(location(await signInWithEpic(other, displayName))).toBe('/epic_account_link?client=web');
  await linkEmail(other, email);
  const second = (await nthMailTo(server, email, 2)).links.find((l) => l.includes('/api/email/verify?token='));
  expect(location(await server.client().get(pathOf(second ?? '')))).toBe(VERIFIED_PAGE);

  const user = await server.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  await server.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(PASSWORD, TEST_SCRYPT_COST) })
    .where('id', '=', user.id)
    .execute();
  const browser = server.client();
  expect((await browser.login(email, PASSWORD)).statusCode).toBe(200);

  const newEmail = uniqueEmail('moved');
  const changeLink = await nextLink(server, newEmail, '/api/account/email/confirm?token=', async () => {
    const asked = await browser.post('/api/account/email', { newEmail, currentPassword: PASSWORD });
    expect(asked.statusCode, asked.body).toBe(200);
  });
  const reset = await resetToken(server, email);

  const pkce = pkcePair();
  const plugin = server.client();
  expect(location(await signInWithEpic(plugin, displayName, pluginLoginUrl({ code_challenge: pkce.challenge })))).toBe(
    '/login_completed?client=ue',
  );
  const stored = await plugin.post('/api/auth/ue-store-payload');
  expect(stored.statusCode, stored.body).toBe(200);
  const code = stored.json<{ code: string }>().code;

  const credentials: Record<CredentialKind, PendingCredential> = {
    email_change: {
      async use() {
        const landed = location(await server.client().get(pathOf(changeLink)));
        return landed === emailChangeSignedOutLanding('changed') ? 'worked' : landed;
      },
      invalid: emailChangeSignedOutLanding('invalid_token'),
      async changedNothing() {
        expect((await userRow(server, user.id))?.email ?? null).not.toBe(newEmail);
      },
    },
    password_reset: {
      async use() {
        const answer = await server.client().post('/api/reset-password', { token: reset, newPassword: NEW_PASSWORD });
        return answer.statusCode === 200 ? 'worked' : `${answer.statusCode} ${answer.json<{ error: string }>().error}`;
      },
      invalid: '400 invalid_token',
      async changedNothing() {
        expect((await server.client().login(email, NEW_PASSWORD)).statusCode).not.toBe(200);
      },
    },
    email_verification: {
      async use() {
        const landed = location(await server.client().get(pathOf(verifyLink)));
        if (landed !== VERIFIED_PAGE) return landed;
        const completed = await waiting.get('/api/auth/callback-internal');
        return location(completed) === '/login_completed?client=web' ? 'worked' : location(completed);
      },
      invalid: INVALID_LINK_PAGE,
      async changedNothing() {
        // The waiting browser is signed in as nobody, and no account came back for that Epic account.
        expect((await waiting.get('/api/user')).statusCode).toBe(401);
        const row = await userRow(server, user.id);
        if (!row) expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
      },
    },
    hand_off_code: {
      async use() {
        const query = new URLSearchParams({ code, code_verifier: pkce.verifier });
        const answer = await server.client().get(`/api/auth/ue-payload?${query.toString()}`);
        return answer.statusCode === 200 ? 'worked' : `${answer.statusCode} ${answer.json<{ error: string }>().error}`;
      },
      invalid: '400 invalid_grant',
      async changedNothing() {
        const installs = await server.db.selectFrom('plugin_installs').select('id').where('user_id', '=', user.id).execute();
        expect(installs).toEqual([]);
      },
    },
  };
  return { id: user.id, email, username: displayName, browser, credentials };
}
