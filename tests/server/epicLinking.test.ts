import { describe, expect, it } from 'vitest';
import { ACCOUNT_EXISTS_MESSAGE } from '../../contract/user';
import { hashPassword } from '../../server/services/passwords';
import { signInAtProvider } from '../fixtures/identityProvider';
import { insertUsers, listUsers, signedInAdmin, subscriptionRow, uniqueTag, userRow } from './adminFlow';
import {
  devAccountId,
  existingEpicUser,
  failedWith,
  location,
  nthMail,
  pathOf,
  pendingEpicBrowser,
  pluginLoginUrl,
  signInWithEpic,
  startSignIn,
  uniqueDisplayName,
  userByEmail,
} from './epicFlow';
import { PASSWORD, TEST_SCRYPT_COST, databases, errorBody, uniqueEmail, useTestServer, type TestServer } from './harness';

const LINK_FROM_ACCOUNT = '/api/auth/login?client=web&intent=link';
const ACCOUNT_LINKED = '/dashboard?epic=linked#account';
const LINK_SENT = 'If an account can use this email, a link to sign in and link your Epic Games account has been sent to it.';

/** A legacy account (e-mail and password, no Epic), written as a row: registration is rate limited and may be closed. */
async function legacyUser(server: TestServer, overrides: Parameters<typeof userRow>[0] = {}) {
  const email = uniqueEmail('legacy');
  const row = userRow({
    email,
    password_hash: await hashPassword(PASSWORD, TEST_SCRYPT_COST),
    email_verified_at: Date.now(),
    ...overrides,
  });
  await server.db.insertInto('users').values(row).execute();
  return row as typeof row & { email: string };
}

async function signedInLegacy(server: TestServer) {
  const user = await legacyUser(server);
  const browser = server.client();
  expect((await browser.login(user.email)).statusCode).toBe(200);
  return { user, browser };
}

const auditOf = (server: TestServer, userId: string, action: string) =>
  server.db.selectFrom('audit_log').selectAll().where('target_id', '=', userId).where('action', '=', action).execute();

/** The link mailed by link-by-email or link-request, as a path. */
async function mailedLink(server: TestServer, email: string, n = 1) {
  const mail = await nthMail(server, email, n);
  const link = mail.links.find((l) => l.includes('/api/auth/link-email?token='));
  if (!link) throw new Error(`no link in mail: ${mail.text}`);
  return pathOf(link);
}

describe.each(databases)('linking Epic to an existing account on $label', (database) => {
  const server = useTestServer(database);

  describe('from the Account section', () => {
    it('links the Epic account to the signed-in account, audited and mailed, and lands on the Account section', async () => {
      const { user, browser } = await signedInLegacy(server());
      expect((await browser.get('/api/account/epic')).json()).toEqual({
        linked: false,
        displayName: null,
        hasPassword: true,
        canUnlink: false,
      });
      const name = uniqueDisplayName('Legacy');
      expect(location(await signInWithEpic(browser, name, LINK_FROM_ACCOUNT))).toBe(ACCOUNT_LINKED);
      const row = await userByEmail(server(), user.email);
      expect(row?.epic_account_id).toBe(devAccountId(name));
      expect(row?.epic_display_name).toBe(name);
      expect(await auditOf(server(), user.id, 'account.epic.link')).toHaveLength(1);
      expect((await nthMail(server(), user.email)).subject).toBe('An Epic Games account was linked to your Sage account');
      expect((await browser.get('/api/account/epic')).json()).toEqual({
        linked: true,
        displayName: name,
        hasPassword: true,
        canUnlink: true,
      });
      // The same browser is still signed in as the same account; Epic now signs it in too.
      expect((await browser.get('/api/user')).json()).toMatchObject({ email: user.email });
      const elsewhere = server().client();
      expect(location(await signInWithEpic(elsewhere, name))).toBe('/login_completed?client=web');
      expect((await elsewhere.get('/api/user')).json()).toMatchObject({ email: user.email });
    });

    it('refuses an Epic account that belongs to another user, and changes nothing', async () => {
      const known = await existingEpicUser(server());
      const { user, browser } = await signedInLegacy(server());
      expect(location(await signInWithEpic(browser, known.displayName, LINK_FROM_ACCOUNT))).toBe(failedWith('epic_account_taken'));
      expect((await userByEmail(server(), user.email))?.epic_account_id).toBeNull();
      expect((await userByEmail(server(), known.email))?.epic_account_id).toBe(devAccountId(known.displayName));
      expect(await auditOf(server(), user.id, 'account.epic.link')).toHaveLength(0);
      expect((await browser.get('/api/user')).json()).toMatchObject({ email: user.email });
    });

    it('needs a session to start, and an account without Epic', async () => {
      expect(location(await server().client().get(LINK_FROM_ACCOUNT))).toBe('/login');
      const { browser } = await signedInLegacy(server());
      expect(location(await signInWithEpic(browser, uniqueDisplayName(), LINK_FROM_ACCOUNT))).toBe(ACCOUNT_LINKED);
      expect(location(await browser.get(LINK_FROM_ACCOUNT))).toBe(failedWith('epic_already_linked'));
    });

    it('links nothing when the browser signed out (or into another account) before Epic answered', async () => {
      const { user, browser } = await signedInLegacy(server());
      const authorize = await startSignIn(browser, LINK_FROM_ACCOUNT);
      const callback = await signInAtProvider(authorize.href, { displayName: uniqueDisplayName() });
      await browser.post('/api/logout');
      expect(location(await browser.get(pathOf(callback)))).toBe(failedWith('state_mismatch'));
      expect((await userByEmail(server(), user.email))?.epic_account_id).toBeNull();
    });
  });

  describe('unlinking', () => {
    it('needs the password, audits and mails; an account with no password cannot unlink', async () => {
      const { user, browser } = await signedInLegacy(server());
      expect((await browser.request('DELETE', '/api/account/epic', { json: { password: PASSWORD } })).statusCode).toBe(409);
      await signInWithEpic(browser, uniqueDisplayName(), LINK_FROM_ACCOUNT);
      const wrong = await browser.request('DELETE', '/api/account/epic', { json: { password: 'not-the-password' } });
      expect(wrong.statusCode).toBe(400);
      expect(errorBody(wrong).error).toBe('wrong_password');
      const done = await browser.request('DELETE', '/api/account/epic', { json: { password: PASSWORD } });
      expect(done.statusCode, done.body).toBe(200);
      expect((await userByEmail(server(), user.email))?.epic_account_id).toBeNull();
      expect(await auditOf(server(), user.id, 'account.epic.unlink')).toHaveLength(1);
      expect((await nthMail(server(), user.email, 2)).subject).toBe('An Epic Games account was unlinked from your Sage account');

      const known = await existingEpicUser(server());
      const epicOnly = server().client();
      await signInWithEpic(epicOnly, known.displayName);
      expect((await epicOnly.get('/api/account/epic')).json()).toMatchObject({ linked: true, hasPassword: false, canUnlink: false });
      const refused = await epicOnly.request('DELETE', '/api/account/epic', { json: { password: PASSWORD } });
      expect(refused.statusCode).toBe(409);
      expect(errorBody(refused).error).toBe('unlink_refused');
      expect((await userByEmail(server(), known.email))?.epic_account_id).toBe(devAccountId(known.displayName));
    });
  });

  describe("the plugin's sign-in meets an existing account", () => {
    it('links to the account the browser is signed in as after a password check, and the plugin hand-off is ready', async () => {
      const { user, browser } = await signedInLegacy(server());
      const name = uniqueDisplayName('Plugin');
      expect(location(await signInWithEpic(browser, name, pluginLoginUrl()))).toBe('/epic_account_link?client=ue');
      const wrong = await browser.post('/api/epic/link-signed-in', { password: 'wrong-password' });
      expect(wrong.statusCode).toBe(400);
      expect((await userByEmail(server(), user.email))?.epic_account_id).toBeNull();
      const linked = await browser.post('/api/epic/link-signed-in', { password: PASSWORD });
      expect(linked.json()).toEqual({ ok: true, message: 'Your Epic Games account is linked.', next: '/login_completed?client=ue' });
      expect((await userByEmail(server(), user.email))?.epic_account_id).toBe(devAccountId(name));
      expect((await browser.get('/api/auth/status')).json()).toEqual({
        authenticated: true,
        user: { email: user.email },
        ue: { enabled: true, status: 'success', message: 'Signed in' },
      });
      const code = await browser.post('/api/auth/ue-store-payload');
      expect(code.statusCode, code.body).toBe(200);
    });

    it('signs in to the typed account with its password to link it; keeps the Email Already Exists words', async () => {
      const user = await legacyUser(server());
      const { browser, displayName } = await pendingEpicBrowser(server());
      expect((await browser.post('/api/user/check-exists', { email: user.email })).json()).toEqual({
        ok: true,
        exists: true,
        message: ACCOUNT_EXISTS_MESSAGE,
      });
      const wrong = await browser.post('/api/epic/link-sign-in', { email: user.email, password: 'wrong-password' });
      expect(wrong.statusCode).toBe(401);
      expect(browser.session).toBeUndefined();
      const linked = await browser.post('/api/epic/link-sign-in', { email: user.email, password: PASSWORD });
      expect(linked.json()).toMatchObject({ ok: true, next: ACCOUNT_LINKED });
      expect((await browser.get('/api/user')).json()).toMatchObject({ email: user.email });
      expect((await userByEmail(server(), user.email))?.epic_account_id).toBe(devAccountId(displayName));
    });

    it('refuses the password path to an account with a second factor (an app or a passkey): the e-mailed link is its way', async () => {
      const now = Date.now();
      // An authenticator app, set up after this browser signed in.
      const { user: withApp, browser: signedIn } = await signedInLegacy(server());
      await server()
        .db.insertInto('user_totp')
        .values({ user_id: withApp.id, secret: 'JBSWY3DPEHPK3PXP', created_at: now, confirmed_at: now, last_used_step: null })
        .execute();
      expect(location(await signInWithEpic(signedIn, uniqueDisplayName('Plugin'), pluginLoginUrl()))).toBe('/epic_account_link?client=ue');
      const refusedSignedIn = await signedIn.post('/api/epic/link-signed-in', { password: PASSWORD });
      expect(refusedSignedIn.statusCode).toBe(403);
      expect(errorBody(refusedSignedIn)).toEqual({
        error: 'password_not_accepted',
        message: 'This account cannot be proved with its password here. Use "Email me a link" instead.',
      });
      expect((await userByEmail(server(), withApp.email))?.epic_account_id).toBeNull();

      // A passkey only.
      const withPasskey = await legacyUser(server());
      await server()
        .db.insertInto('passkeys')
        .values({
          id: `cred-${uniqueTag()}`,
          user_id: withPasskey.id,
          name: 'Work laptop',
          public_key: 'AA',
          counter: 0,
          transports: null,
          device_type: 'singleDevice',
          backed_up: 0,
          created_at: now,
          last_used_at: null,
        })
        .execute();
      const { browser } = await pendingEpicBrowser(server());
      const refused = await browser.post('/api/epic/link-sign-in', { email: withPasskey.email, password: PASSWORD });
      expect(refused.statusCode).toBe(403);
      expect(errorBody(refused).error).toBe('password_not_accepted');
      expect(browser.session).toBeUndefined();
      expect((await userByEmail(server(), withPasskey.email))?.epic_account_id).toBeNull();
      // The e-mailed link still links it.
      expect((await browser.post('/api/epic/link-by-email', { email: withPasskey.email })).json()).toEqual({
        ok: true,
        message: LINK_SENT,
      });
      expect(await mailedLink(server(), withPasskey.email)).toMatch(/^\/api\/auth\/link-email\?token=/);
    });

    it('refuses an account that already has another Epic account (no merge)', async () => {
      const known = await existingEpicUser(server());
      await server()
        .db.updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD, TEST_SCRYPT_COST) })
        .where('email', '=', known.email)
        .execute();
      const { browser } = await pendingEpicBrowser(server());
      const refused = await browser.post('/api/epic/link-sign-in', { email: known.email, password: PASSWORD });
      expect(refused.statusCode).toBe(409);
      expect(errorBody(refused).error).toBe('epic_already_linked');
      expect(browser.session).toBeUndefined();
      expect((await userByEmail(server(), known.email))?.epic_account_id).toBe(devAccountId(known.displayName));
    });

    it('links one Epic account to one account when two browsers link it to two accounts at once', async () => {
      const [a, b] = [await legacyUser(server()), await legacyUser(server())];
      const name = uniqueDisplayName('Race');
      const [first, second] = [server().client(), server().client()];
      expect(location(await signInWithEpic(first, name))).toBe('/epic_account_link?client=web');
      expect(location(await signInWithEpic(second, name))).toBe('/epic_account_link?client=web');
      const answers = await Promise.all([
        first.post('/api/epic/link-sign-in', { email: a.email, password: PASSWORD }),
        second.post('/api/epic/link-sign-in', { email: b.email, password: PASSWORD }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(errorBody(answers.find((r) => r.statusCode === 409)!).error).toBe('epic_account_taken');
      const holders = await server().db.selectFrom('users').select('email').where('epic_account_id', '=', devAccountId(name)).execute();
      expect(holders).toHaveLength(1);
    });

    it('links through the e-mailed link in the same browser; the link works once; unknown addresses get the same answer', async () => {
      const user = await legacyUser(server());
      const { browser, displayName } = await pendingEpicBrowser(server());
      const unknown = await browser.post('/api/epic/link-by-email', { email: uniqueEmail('nobody') });
      const known = await browser.post('/api/epic/link-by-email', { email: user.email });
      expect(unknown.json()).toEqual({ ok: true, message: LINK_SENT });
      expect(known.json()).toEqual(unknown.json());
      const link = await mailedLink(server(), user.email);
      expect(location(await browser.get(link))).toBe(ACCOUNT_LINKED);
      expect((await browser.get('/api/user')).json()).toMatchObject({ email: user.email });
      expect((await userByEmail(server(), user.email))?.epic_account_id).toBe(devAccountId(displayName));
      expect(location(await server().client().get(link))).toBe(failedWith('link_invalid'));
      expect(location(await browser.get(link))).toBe(failedWith('link_invalid'));
    });

    it('opened in another browser, the link starts an Epic sign-in there that links to that account', async () => {
      const user = await legacyUser(server());
      const { browser } = await pendingEpicBrowser(server());
      await browser.post('/api/epic/link-by-email', { email: user.email });
      const phone = server().client();
      const authorize = new URL(location(await phone.get(await mailedLink(server(), user.email))));
      expect(authorize.pathname).toBe('/auth');
      const name = uniqueDisplayName('Phone');
      const callback = await signInAtProvider(authorize.href, { displayName: name });
      expect(location(await phone.get(pathOf(callback)))).toBe(ACCOUNT_LINKED);
      expect((await phone.get('/api/user')).json()).toMatchObject({ email: user.email });
      expect((await userByEmail(server(), user.email))?.epic_account_id).toBe(devAccountId(name));
      // The first browser's waiting sign-in linked nothing.
      expect(browser.session).toBeUndefined();
    });
  });
});

describe.each(databases)("the console's view of the e-mail login's retirement on $label", (database) => {
  const server = useTestServer(database);

  it("counts active subscribers without Epic on the Home, and the User List filters 'No Epic link'", async () => {
    const admin = await signedInAdmin(server());
    const count = async () =>
      (await admin.client.get('/api/admin/grove-metrics')).json<{ userStats: { subscribersWithoutEpic: number } }>().userStats
        .subscribersWithoutEpic;
    const before = await count();
    const tag = uniqueTag('noepic');
    const [legacy, linked, lapsed] = await insertUsers(server().db, [
      userRow({ username: `${tag}-legacy` }),
      userRow({ username: `${tag}-linked`, epic_account_id: `epic-${tag}`, epic_display_name: tag }),
      userRow({ username: `${tag}-lapsed` }),
    ]);
    await server()
      .db.insertInto('billing_subscriptions')
      .values([subscriptionRow(legacy!.id), subscriptionRow(linked!.id), subscriptionRow(lapsed!.id, { status: 'canceled' })])
      .execute();
    expect(await count()).toBe(before + 1);

    const filtered = await listUsers(admin.client, { filter: { q: tag, noEpic: true } });
    expect(filtered.users.map((u) => u.username).sort()).toEqual([`${tag}-lapsed`, `${tag}-legacy`]);
    const all = await listUsers(admin.client, { filter: { noEpic: true }, range: [0, 999] });
    expect(all.users.every((u) => u.epicDisplayName === null)).toBe(true);
    expect(all.users.map((u) => u.id)).toEqual(expect.arrayContaining([legacy!.id, lapsed!.id]));
    expect(all.users.map((u) => u.id)).not.toContain(linked!.id);
  });
});

describe.each(databases)('LEGACY_LOGIN=link-only on $label', (database) => {
  const server = useTestServer(database, { LEGACY_LOGIN: 'link-only' });

  it('takes passwords only of accounts without Epic, registers nobody, resets only passwords of accounts without Epic', async () => {
    expect((await server().client().get('/api/config')).json()).toMatchObject({ legacyLogin: 'link-only' });
    const register = await server().client().post('/api/register', { email: uniqueEmail(), password: PASSWORD });
    expect(register.statusCode).toBe(403);
    expect(errorBody(register).error).toBe('registration_closed');

    const legacy = await legacyUser(server());
    expect((await server().client().login(legacy.email)).statusCode).toBe(200);
    const linked = await legacyUser(server(), { epic_account_id: `epic-${legacy.id}`, epic_display_name: 'Linked' });
    const refused = await server().client().login(linked.email);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).error).toBe('password_sign_in_off');

    await server().client().post('/api/forgot-password', { email: linked.email });
    await server().client().post('/api/forgot-password', { email: legacy.email });
    expect((await nthMail(server(), legacy.email)).subject).toMatch(/password/i);
    await server().app.close();
    expect(server().smtp.mailsTo(linked.email)).toHaveLength(0);
  });
});

describe.each(databases)('LEGACY_LOGIN=off on $label', (database) => {
  const server = useTestServer(database, { LEGACY_LOGIN: 'off' });

  it('refuses password sign-in and registration; the e-mailed link leads to Epic, links and then signs in', async () => {
    const user = await legacyUser(server());
    const login = await server().client().login(user.email);
    expect(login.statusCode).toBe(403);
    expect(errorBody(login).error).toBe('password_sign_in_off');
    expect((await server().client().post('/api/register', { email: uniqueEmail(), password: PASSWORD })).statusCode).toBe(403);

    const browser = server().client();
    expect((await browser.post('/api/login/link-request', { email: user.email })).json()).toEqual({ ok: true, message: LINK_SENT });
    const link = await mailedLink(server(), user.email);
    const authorize = new URL(location(await browser.get(link)));
    // No session before Epic is linked.
    expect(browser.session).toBeUndefined();
    const name = uniqueDisplayName('Retired');
    const callback = await signInAtProvider(authorize.href, { displayName: name });
    expect(location(await browser.get(pathOf(callback)))).toBe(ACCOUNT_LINKED);
    expect((await browser.get('/api/user')).json()).toMatchObject({ email: user.email });
    expect((await userByEmail(server(), user.email))?.epic_account_id).toBe(devAccountId(name));
    // Unlinking would leave no way in.
    expect((await browser.request('DELETE', '/api/account/epic', { json: { password: PASSWORD } })).statusCode).toBe(409);
  });

  it('forgot-password mails the sign-in link instead of a reset; the password path to link is closed', async () => {
    const user = await legacyUser(server());
    expect((await server().client().post('/api/forgot-password', { email: user.email })).json()).toEqual({ ok: true, message: LINK_SENT });
    expect(await mailedLink(server(), user.email)).toMatch(/^\/api\/auth\/link-email\?token=/);
    const { browser } = await pendingEpicBrowser(server());
    const refused = await browser.post('/api/epic/link-sign-in', { email: user.email, password: PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).error).toBe('password_not_accepted');
  });
});

describe.each(databases)('LEGACY_LOGIN=on on $label', (database) => {
  const server = useTestServer(database);

  it('sends no sign-in links: the password is the way in', async () => {
    expect((await server().client().get('/api/config')).json()).toMatchObject({ legacyLogin: 'on' });
    expect((await server().client().post('/api/login/link-request', { email: uniqueEmail() })).statusCode).toBe(404);
  });
});
