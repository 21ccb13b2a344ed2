import { describe, expect, it } from 'vitest';
import {
  ageVerifications,
  devAccountId,
  EXPIRED_LINK_PAGE,
  failedWith,
  INVALID_LINK_PAGE,
  linkedEpicBrowser,
  linkEmail,
  location,
  NOT_LINKING,
  openVerificationLink,
  pathOf,
  pendingEpicBrowser,
  signInWithEpic,
  uniqueDisplayName,
  userByEmail as userOf,
  verificationLink,
  VERIFIED_PAGE,
} from './epicFlow';
import { databases, errorBody, uniqueEmail, useTestServer, type TestClient } from './harness';

/** After the mail: the waiting page's polling, the mail's link, and signing the linking browser in. */
describe.each(databases)('e-mail verification link on $label', (database) => {
  const server = useTestServer(database);
  const pendingBrowser = (client?: TestClient) => pendingEpicBrowser(server(), client);
  const linkedBrowser = (email: string) => linkedEpicBrowser(server(), email);
  const age = (browser: TestClient, column: 'created_at' | 'expires_at', ms: number) => ageVerifications(server(), browser, column, ms);
  const userByEmail = (email: string) => userOf(server(), email);

  describe('POST /api/email/check-verification-status', () => {
    it('answers verified:false until the link is opened on another device, then verified:true', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      const before = await browser.post('/api/email/check-verification-status', { email });
      expect(before.statusCode).toBe(200);
      expect(before.headers['cache-control']).toBe('no-store');
      expect(before.json()).toEqual({ ok: true, verified: false, message: 'Waiting for verification' });

      const phone = server().client();
      expect(location(await phone.get(pathOf(await verificationLink(server(), email))))).toBe(VERIFIED_PAGE);
      // Opening the link signs nobody in: only the browser that started the flow will be.
      expect(phone.session).toBeUndefined();

      const after = await browser.post('/api/email/check-verification-status', { email: email.toUpperCase() });
      expect(after.json()).toEqual({ ok: true, verified: true, message: 'Email verified' });
    });

    it('answers 410 Verification code has expired once the link expired unopened', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      await age(browser, 'expires_at', 16 * 60_000);
      const response = await browser.post('/api/email/check-verification-status', { email });
      expect(response.statusCode).toBe(410);
      expect(errorBody(response)).toEqual({ error: 'verification_expired', message: 'Verification code has expired' });
    });

    it('still answers verified:true after an opened link has expired', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);
      await age(browser, 'expires_at', 16 * 60_000);
      expect((await browser.post('/api/email/check-verification-status', { email })).json()).toMatchObject({ verified: true });
    });

    it('answers 403 to another browser asking about the same e-mail', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);

      const stranger = await server().client().post('/api/email/check-verification-status', { email });
      expect(stranger.statusCode).toBe(403);
      expect(errorBody(stranger)).toEqual(NOT_LINKING);
      const { browser: other } = await pendingBrowser();
      await linkEmail(other, uniqueEmail('other'));
      const otherFlow = await other.post('/api/email/check-verification-status', { email });
      expect(otherFlow.statusCode).toBe(403);
      // The linking browser itself still may.
      expect((await browser.post('/api/email/check-verification-status', { email })).statusCode).toBe(200);
    });
  });

  describe('GET /api/email/verify', () => {
    it('verifies once: the second opening fails', async () => {
      const email = uniqueEmail();
      await linkedBrowser(email);
      const link = await verificationLink(server(), email);
      expect(location(await server().client().get(pathOf(link)))).toBe(VERIFIED_PAGE);
      expect(location(await server().client().get(pathOf(link)))).toBe(INVALID_LINK_PAGE);
    });

    it('refuses an expired link with Verification code has expired and creates no account', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      const link = await verificationLink(server(), email);
      await age(browser, 'expires_at', 16 * 60_000);
      expect(location(await server().client().get(pathOf(link)))).toBe(EXPIRED_LINK_PAGE);
      expect(await userByEmail(email)).toBeUndefined();
    });

    it('answers a missing or made-up token with success=false, never an error', async () => {
      for (const url of [
        '/api/email/verify',
        '/api/email/verify?token=',
        '/api/email/verify?token=garbage',
        `/api/email/verify?token=${'A'.repeat(43)}`,
        `/api/email/verify?token=${encodeURIComponent("' OR 1=1 --")}`,
        '/api/email/verify?token=%00%FF',
      ]) {
        expect(location(await server().client().get(url)), url).toBe(INVALID_LINK_PAGE);
      }
    });

    it('shows the invalid-link page for an over-long or repeated token', async () => {
      for (const url of [`/api/email/verify?token=${'A'.repeat(500)}`, '/api/email/verify?token=a&token=b']) {
        expect(location(await server().client().get(url)), url).toBe(INVALID_LINK_PAGE);
      }
    });

    it('creates the account at verification, with the e-mail verified', async () => {
      const email = uniqueEmail();
      const { displayName } = await linkedBrowser(email);
      expect(await userByEmail(email)).toBeUndefined();
      const before = Date.now();
      expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);
      const user = await userByEmail(email);
      expect(user).toMatchObject({
        username: displayName,
        email,
        epic_account_id: devAccountId(displayName),
        epic_display_name: displayName,
        password_hash: null,
        status: 'Active',
        is_admin: 0,
      });
      expect(user?.email_verified_at).toBeGreaterThanOrEqual(before);
      expect(user?.license_token.length).toBeGreaterThanOrEqual(43);
    });

    it('fails when the address got an account meanwhile, and attaches nothing to it', async () => {
      const email = uniqueEmail();
      const { browser, displayName } = await linkedBrowser(email);
      await server().client().register(email);
      const opened = await server()
        .client()
        .get(pathOf(await verificationLink(server(), email)));
      expect(location(opened)).toBe(
        `/email-verification-completed?success=false&message=${encodeURIComponent('An account with this email already exists.')}`,
      );
      expect((await userByEmail(email))?.epic_account_id).toBeNull();
      expect(
        await server().db.selectFrom('users').select('id').where('epic_account_id', '=', devAccountId(displayName)).executeTakeFirst(),
      ).toBeUndefined();
      expect((await browser.post('/api/email/check-verification-status', { email })).json()).toMatchObject({ verified: false });
      expect(location(await browser.get('/api/auth/callback-internal'))).toBe(failedWith('verification_required'));
      expect(browser.session).toBeUndefined();
    });
  });

  describe('two tabs of one Epic account', () => {
    /** Two browsers back from Epic as the same new Epic account, both on the link page. */
    async function twoTabs() {
      const displayName = uniqueDisplayName('Twin');
      const first = server().client();
      const second = server().client();
      expect(location(await signInWithEpic(first, displayName))).toBe('/epic_account_link?client=web');
      expect(location(await signInWithEpic(second, displayName))).toBe('/epic_account_link?client=web');
      return { displayName, first, second };
    }

    it('lets the other tab finish without a second mail once the address is verified', async () => {
      const email = uniqueEmail('twin');
      const { first, second } = await twoTabs();
      await linkEmail(first, email);
      expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);

      const linked = await second.post('/api/epic/link', { email });
      expect(linked.statusCode).toBe(200);
      expect(linked.json()).toEqual({
        ok: true,
        message: 'Email already verified',
        requiresVerification: false,
        next: '/api/auth/callback-internal',
      });
      expect(location(await second.get('/api/auth/callback-internal'))).toBe('/login_completed?client=web');
      expect((await second.get('/api/user')).json()).toMatchObject({ email });
      expect(server().smtp.mailsTo(email)).toHaveLength(1);
    });

    it('does not report another address verified once the Epic account has an account', async () => {
      const email = uniqueEmail('twin');
      const otherEmail = uniqueEmail('twin-other');
      const { displayName, first, second } = await twoTabs();
      await linkEmail(first, email);
      await linkEmail(second, otherEmail);
      expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);

      // The second address cannot become this Epic account's: its link must not claim it did.
      const opened = await server()
        .client()
        .get(pathOf(await verificationLink(server(), otherEmail)));
      expect(location(opened)).toBe(
        `/email-verification-completed?success=false&message=${encodeURIComponent(
          'Your Epic account is already linked to another email. Sign in with Epic again to use it.',
        )}`,
      );
      expect((await second.post('/api/email/check-verification-status', { email: otherEmail })).json()).toMatchObject({ verified: false });
      expect(location(await second.get('/api/auth/callback-internal'))).toBe(failedWith('verification_required'));
      const accounts = await server().db.selectFrom('users').selectAll().where('epic_account_id', '=', devAccountId(displayName)).execute();
      expect(accounts.map((a) => a.email)).toEqual([email]);
      expect(await userByEmail(otherEmail)).toBeUndefined();
    });

    it("creates one account when both tabs' links are opened at once", async () => {
      const email = uniqueEmail('race');
      const { displayName, first, second } = await twoTabs();
      await linkEmail(first, email);
      await linkEmail(second, email);
      const links = [await verificationLink(server(), email, 1), await verificationLink(server(), email, 2)];
      const opened = await Promise.all(links.map((link) => server().client().get(pathOf(link))));
      for (const response of opened) expect(location(response)).toBe(VERIFIED_PAGE);
      const accounts = await server()
        .db.selectFrom('users')
        .select('email')
        .where('epic_account_id', '=', devAccountId(displayName))
        .execute();
      expect(accounts).toEqual([{ email }]);
      expect(location(await first.get('/api/auth/callback-internal'))).toBe('/login_completed?client=web');
      expect(location(await second.get('/api/auth/callback-internal'))).toBe('/login_completed?client=web');
    });
  });

  it('verifies a link once even when it is opened twice at the same moment', async () => {
    const email = uniqueEmail('race');
    await linkedBrowser(email);
    const link = await verificationLink(server(), email);
    const opened = await Promise.all([server().client().get(pathOf(link)), server().client().get(pathOf(link))]);
    expect(opened.map((r) => location(r)).sort()).toEqual([INVALID_LINK_PAGE, VERIFIED_PAGE].sort());
    expect(await server().db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });

  describe('GET /api/auth/callback-internal', () => {
    it('refuses a browser whose link is not verified yet, without a session', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      const response = await browser.get('/api/auth/callback-internal');
      expect(location(response)).toBe(failedWith('verification_required'));
      expect(response.cookies.find((c) => c.name === 'sage_session')).toBeUndefined();
      expect((await browser.get('/api/user')).statusCode).toBe(401);
    });

    it('refuses a browser without a flow, or one that has not linked an e-mail', async () => {
      expect(location(await server().client().get('/api/auth/callback-internal'))).toBe(failedWith('verification_required'));
      const { browser } = await pendingBrowser();
      expect(location(await browser.get('/api/auth/callback-internal'))).toBe(failedWith('verification_required'));
      expect(browser.session).toBeUndefined();
    });

    it('signs the linking browser in once its link is verified', async () => {
      const email = uniqueEmail();
      const { browser, displayName } = await linkedBrowser(email);
      expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);
      const response = await browser.get('/api/auth/callback-internal');
      expect(location(response)).toBe('/login_completed?client=web');
      expect(browser.session).toBeTruthy();
      expect((await browser.get('/api/user')).json()).toMatchObject({ email, username: displayName });
      // Spent: the flow no longer waits for an e-mail.
      expect((await browser.post('/api/user/check-exists', { email: uniqueEmail() })).statusCode).toBe(403);
    });

    it('signs in only the browser that linked, not another one linking the same address', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      const { browser: rival } = await pendingBrowser();
      expect((await rival.post('/api/epic/link', { email })).statusCode).toBe(200);
      expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);

      expect((await rival.post('/api/email/check-verification-status', { email })).json()).toMatchObject({ verified: false });
      expect(location(await rival.get('/api/auth/callback-internal'))).toBe(failedWith('verification_required'));
      expect(rival.session).toBeUndefined();
      expect(location(await browser.get('/api/auth/callback-internal'))).toBe('/login_completed?client=web');
    });
  });
});
