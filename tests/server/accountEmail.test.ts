import { describe, expect, it } from 'vitest';
import { EMAIL_CHANGE_TTL_MS, type AccountEmail } from '../../contract/accountEmail';
import { RECENT_SIGN_IN_MS } from '../../contract/recentSignIn';
import { hashToken } from '../../server/services/tokens';
import { ageSignIn } from './accountDataFlow';
import { location, nthMail, pathOf, signUpWithEpic, uniqueDisplayName } from './epicFlow';
import { databases, errorBody, PASSWORD, uniqueEmail, useTestServer, type TestClient, type TestServer } from './harness';

const CONFIRM_PATH = '/api/account/email/confirm?token=';
/** Where a link lands in a browser that is not signed in (the sign-in page says how it went), and in one that is. */
const landing = (outcome: string) => `/login?emailChange=${outcome}`;
const dashboardLanding = (outcome: string) => `/dashboard?emailChange=${outcome}#account`;

/** The confirmation link of the n-th change mail to `email`. */
async function changeLink(server: TestServer, email: string, n = 1): Promise<string> {
  const mail = await nthMail(server, email, n);
  expect(mail.subject).toBe('Confirm your new e-mail for Sage');
  const link = mail.links.find((l) => l.includes(CONFIRM_PATH));
  if (!link) throw new Error(`no change link in mail: ${mail.text}`);
  return pathOf(link);
}

/** Where the link lands when opened in another browser (signed out: a phone). */
const openLink = async (server: TestServer, path: string) => location(await server.client().get(path));

/** A legacy (password) account whose browser signed in longer ago than the recent sign-in window. */
async function legacyAccount(server: TestServer) {
  const browser = server.client();
  const email = uniqueEmail('legacy');
  await browser.register(email);
  const me = (await browser.get('/api/user')).json<{ id: string }>();
  await ageSignIn(server.db, browser, RECENT_SIGN_IN_MS);
  return { browser, email, userId: me.id };
}

const overview = async (browser: TestClient) => {
  const response = await browser.get('/api/account/email');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AccountEmail>();
};

const requestChange = (browser: TestClient, newEmail: string, currentPassword?: string) =>
  browser.post('/api/account/email', { newEmail, ...(currentPassword === undefined ? {} : { currentPassword }) });

describe.each(databases)('changing the account e-mail on $label', (database) => {
  const server = useTestServer(database);

  const userRow = (id: string) => server().db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const signsIn = async (email: string) => (await server().client().login(email)).statusCode === 200;

  it('mails a link to the new address; the old one works until it is opened, then is told of the change', async () => {
    const { browser, email, userId } = await legacyAccount(server());
    expect(await overview(browser)).toEqual({ email, verified: false, epicDisplayName: null, proof: 'current_password', pending: null });
    const newEmail = uniqueEmail('moved');

    const asked = await requestChange(browser, newEmail, PASSWORD);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ ok: true, pending: { newEmail } });
    expect(asked.json<{ message: string }>().message).toContain(newEmail);
    const link = await changeLink(server(), newEmail);
    const pending = (await overview(browser)).pending;
    expect(pending?.newEmail).toBe(newEmail);
    expect(Date.parse(pending?.expiresAt ?? '') - Date.now()).toBeGreaterThan(EMAIL_CHANGE_TTL_MS - 60_000);

    // Until the link is opened, nothing changed: the old address signs in, the new one does not.
    expect((await userRow(userId)).email).toBe(email);
    expect(await signsIn(email)).toBe(true);
    expect(await signsIn(newEmail)).toBe(false);

    expect(await openLink(server(), link)).toBe(landing('changed'));
    const changed = await userRow(userId);
    expect(changed.email).toBe(newEmail);
    expect(changed.email_verified_at).not.toBeNull();
    expect(await overview(browser)).toMatchObject({ email: newEmail, verified: true, pending: null });
    expect(await signsIn(newEmail)).toBe(true);
    expect(await signsIn(email)).toBe(false);

    const told = await nthMail(server(), email);
    expect(told.subject).toBe('Your Sage e-mail was changed');
    expect(told.text).toContain(`Your Sage e-mail was changed to ${newEmail}`);
    expect(told.links.some((l) => l.includes(CONFIRM_PATH))).toBe(false);

    const audit = await server().db.selectFrom('audit_log').selectAll().where('target_id', '=', userId).execute();
    expect(
      audit.map((a) => [a.action, a.actor_id, a.actor_email, JSON.parse(a.before_json ?? 'null'), JSON.parse(a.after_json ?? 'null')]),
    ).toEqual([['account.email.change', userId, email, { email }, { email: newEmail }]]);
  });

  it('refuses a link used once already, an expired one, and one a newer request replaced', async () => {
    const { browser, email, userId } = await legacyAccount(server());
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await requestChange(browser, first, PASSWORD);
    const replaced = await changeLink(server(), first);
    await requestChange(browser, second, PASSWORD);
    const current = await changeLink(server(), second);
    expect(await openLink(server(), replaced)).toBe(landing('invalid_token'));
    expect((await userRow(userId)).email).toBe(email);

    // An hour and more later, the link has expired: nothing changes.
    const token = new URL(current, 'http://x').searchParams.get('token') ?? '';
    await server()
      .db.updateTable('email_changes')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', hashToken(token))
      .execute();
    expect(await openLink(server(), current)).toBe(landing('expired_token'));
    expect((await userRow(userId)).email).toBe(email);

    await requestChange(browser, second, PASSWORD);
    const fresh = await changeLink(server(), second, 2);
    expect(await openLink(server(), fresh)).toBe(landing('changed'));
    expect(await openLink(server(), fresh)).toBe(landing('invalid_token'));
    expect((await userRow(userId)).email).toBe(second);
    expect(await openLink(server(), `${CONFIRM_PATH}not-a-token`)).toBe(landing('invalid_token'));
    expect(await openLink(server(), '/api/account/email/confirm')).toBe(landing('invalid_token'));
    // In a browser that is signed in, the dashboard says it instead.
    expect(location(await browser.get(`${CONFIRM_PATH}not-a-token`))).toBe(dashboardLanding('invalid_token'));
  });

  it('asks an account with a password for it, and refuses a wrong one', async () => {
    const { browser } = await legacyAccount(server());
    const newEmail = uniqueEmail('new');
    const missing = await requestChange(browser, newEmail);
    expect(missing.statusCode).toBe(400);
    expect(errorBody(missing)).toEqual({
      error: 'current_password_required',
      message: 'Enter your current password to change your e-mail.',
    });
    const wrong = await requestChange(browser, newEmail, 'not-my-password');
    expect(wrong.statusCode).toBe(400);
    expect(errorBody(wrong)).toEqual({ error: 'wrong_password', message: 'The current password is not correct.' });
    expect(server().smtp.mailsTo(newEmail)).toHaveLength(0);
  });

  it("takes this browser's recent sign-in for the password, never another browser's (decision 034)", async () => {
    const browser = server().client();
    const email = uniqueEmail('fresh');
    await browser.register(email);
    expect((await overview(browser)).proof).toBe('recent_sign_in');
    // A second browser signs in now; the first one's sign-in is older than the window.
    const other = server().client();
    expect((await other.login(email)).statusCode).toBe(200);
    await ageSignIn(server().db, browser, RECENT_SIGN_IN_MS);
    expect((await overview(browser)).proof).toBe('current_password');
    const stale = await requestChange(browser, uniqueEmail('stale'));
    expect(stale.statusCode).toBe(400);
    expect(errorBody(stale).error).toBe('current_password_required');

    const newEmail = uniqueEmail('fresh-new');
    expect((await requestChange(other, newEmail)).statusCode).toBe(200);
    expect(await openLink(server(), await changeLink(server(), newEmail))).toBe(landing('changed'));
  });

  it('refuses an address another account has, now or by the time the link is opened', async () => {
    const { browser, email, userId } = await legacyAccount(server());
    const other = await legacyAccount(server());
    const taken = await requestChange(browser, other.email.toUpperCase(), PASSWORD);
    expect(taken.statusCode).toBe(409);
    expect(errorBody(taken)).toEqual({ error: 'email_taken', message: 'An account with this email already exists.' });

    const same = await requestChange(browser, email, PASSWORD);
    expect(same.statusCode).toBe(400);
    expect(errorBody(same).error).toBe('same_email');

    const wanted = uniqueEmail('wanted');
    await requestChange(browser, wanted, PASSWORD);
    const link = await changeLink(server(), wanted);
    await server().client().register(wanted);
    expect(await openLink(server(), link)).toBe(landing('email_taken'));
    expect((await userRow(userId)).email).toBe(email);
  });

  it('ends reset links mailed to the old address when the address changes', async () => {
    const { browser, email } = await legacyAccount(server());
    expect((await server().client().post('/api/forgot-password', { email })).statusCode).toBe(200);
    const resetMail = await nthMail(server(), email);
    const resetToken = new URL(resetMail.links.find((l) => l.includes('/reset-password?token=')) ?? '').searchParams.get('token');
    const newEmail = uniqueEmail('after-reset');
    await requestChange(browser, newEmail, PASSWORD);
    expect(await openLink(server(), await changeLink(server(), newEmail))).toBe(landing('changed'));
    const reset = await server().client().post('/api/reset-password', { token: resetToken, newPassword: 'another-password-1' });
    expect(reset.statusCode).toBe(400);
    expect(errorBody(reset).error).toBe('invalid_token');
  });

  it('shows an Epic account its linked Epic name; a recent sign-in is enough, an old one must sign in again', async () => {
    const browser = server().client();
    const displayName = uniqueDisplayName('Mover');
    const email = uniqueEmail('epic');
    expect(location(await signUpWithEpic(server(), browser, { displayName, email }))).toBe('/login_completed?client=web');
    expect(await overview(browser)).toEqual({
      email,
      verified: true,
      epicDisplayName: displayName,
      proof: 'recent_sign_in',
      pending: null,
    });

    const newEmail = uniqueEmail('epic-new');
    expect((await requestChange(browser, newEmail)).statusCode).toBe(200);
    expect(await openLink(server(), await changeLink(server(), newEmail))).toBe(landing('changed'));
    expect((await overview(browser)).email).toBe(newEmail);

    // The same browser, its sign-in now older than the window.
    await ageSignIn(server().db, browser, RECENT_SIGN_IN_MS);
    expect((await overview(browser)).proof).toBe('sign_in_again');
    const refused = await requestChange(browser, uniqueEmail('too-late'));
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).error).toBe('reauthentication_required');
  });

  it('counts requests per user, and is closed to strangers but for the link', async () => {
    const { browser } = await legacyAccount(server());
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await requestChange(browser, uniqueEmail('many'), 'wrong-guess')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);

    const stranger = server().client();
    expect((await stranger.get('/api/account/email')).statusCode).toBe(401);
    expect((await requestChange(stranger, uniqueEmail('nobody'), PASSWORD)).statusCode).toBe(401);
  });
});
