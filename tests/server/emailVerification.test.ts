import { describe, expect, it } from 'vitest';
import { mailerFromConfig } from '../../server/services/mailer';
import {
  ageVerifications,
  closedLoopbackPort,
  devAccountId,
  existingEpicUser,
  INVALID_LINK_PAGE,
  linkedEpicBrowser,
  linkEmail,
  location,
  NO_PENDING_SIGN_IN,
  NOT_LINKING,
  openVerificationLink,
  pathOf,
  pendingEpicBrowser,
  signInFlowOf,
  signInWithEpic,
  startSignIn,
  uniqueDisplayName,
  userByEmail as userOf,
  verificationLink,
  VERIFIED_PAGE,
} from './epicFlow';
import { PUBLIC_URL, TestClient, buildExtraApp, databases, errorBody, uniqueEmail, useTestServer } from './harness';

/** From the link page to the verification mail: check-exists, link and the sends. */
describe.each(databases)('e-mail linking and verification mail on $label', (database) => {
  const server = useTestServer(database);

  const pendingBrowser = (client?: TestClient) => pendingEpicBrowser(server(), client);
  const linkedBrowser = (email: string) => linkedEpicBrowser(server(), email);
  const age = (browser: TestClient, column: 'created_at' | 'expires_at', ms: number) => ageVerifications(server(), browser, column, ms);
  const userByEmail = (email: string) => userOf(server(), email);

  describe('POST /api/user/check-exists', () => {
    it('answers 403 to a browser with no Epic sign-in', async () => {
      const response = await server().client().post('/api/user/check-exists', { email: uniqueEmail() });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(NO_PENDING_SIGN_IN);
    });

    it('answers 403 to a browser still at the provider', async () => {
      const browser = server().client();
      await startSignIn(browser);
      const response = await browser.post('/api/user/check-exists', { email: uniqueEmail() });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(NO_PENDING_SIGN_IN);
    });

    it('answers 403 to a browser whose Epic sign-in already signed it in', async () => {
      const { displayName } = await existingEpicUser(server());
      const browser = server().client();
      expect(location(await signInWithEpic(browser, displayName))).toBe('/login_completed?client=web');
      const response = await browser.post('/api/user/check-exists', { email: uniqueEmail() });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(NO_PENDING_SIGN_IN);
    });

    it('tells a pending sign-in whether an address has an account', async () => {
      const taken = uniqueEmail('taken');
      await server().client().register(taken);
      const { browser } = await pendingBrowser();

      const yes = await browser.post('/api/user/check-exists', { email: taken });
      expect(yes.statusCode).toBe(200);
      expect(yes.json()).toEqual({ ok: true, exists: true, message: 'An account with this email already exists.' });
      const upper = await browser.post('/api/user/check-exists', { email: `  ${taken.toUpperCase()} ` });
      expect(upper.json()).toMatchObject({ exists: true });

      const no = await browser.post('/api/user/check-exists', { email: uniqueEmail('free') });
      expect(no.json()).toEqual({ ok: true, exists: false, message: 'No account uses this email yet.' });
    });

    it('refuses a missing or malformed e-mail with the link page texts', async () => {
      const { browser } = await pendingBrowser();
      const cases: [unknown, string][] = [
        [{}, 'Email is required'],
        [{ email: '' }, 'Email is required'],
        [{ email: '   ' }, 'Email is required'],
        [{ email: 'not-an-email' }, 'Invalid email address'],
        [{ email: 'ada@' }, 'Invalid email address'],
        [{ email: 'ada example@example.com' }, 'Invalid email address'],
      ];
      for (const path of [
        '/api/user/check-exists',
        '/api/epic/link',
        '/api/email/send-verification',
        '/api/email/check-verification-status',
      ]) {
        for (const [body, message] of cases) {
          const response = await browser.post(path, body);
          expect(response.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
          expect(errorBody(response), `${path} ${JSON.stringify(body)}`).toEqual({ error: 'invalid_request', message });
        }
      }
    });

    it('is rate-limited per address of the client', async () => {
      // Two Epic accounts, 15 questions each: the client's address runs out at 30.
      const browsers = [(await pendingBrowser()).browser, (await pendingBrowser()).browser];
      for (const browser of browsers) {
        for (let i = 0; i < 15; i++) {
          expect((await browser.post('/api/user/check-exists', { email: uniqueEmail() })).statusCode).toBe(200);
        }
      }
      const limited = await (browsers[0] as TestClient).post('/api/user/check-exists', { email: uniqueEmail() });
      expect(limited.statusCode).toBe(429);
      expect(errorBody(limited)).toEqual({
        error: 'rate_limited',
        message: 'Too many email checks. Please wait a few minutes and try again.',
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('asking about e-mails from one Epic account', () => {
    it('is rate-limited per Epic account, in whichever browser it asks', async () => {
      const { browser, displayName } = await pendingBrowser();
      for (let i = 0; i < 10; i++) {
        expect((await browser.post('/api/user/check-exists', { email: uniqueEmail() })).statusCode).toBe(200);
        expect((await browser.post('/api/epic/link', { email: uniqueEmail() })).statusCode).toBe(200);
      }
      // The same Epic account signing in again in a fresh browser has no questions left.
      const again = server().client();
      expect(location(await signInWithEpic(again, displayName))).toBe('/epic_account_link?client=web');
      const limited = await again.post('/api/user/check-exists', { email: uniqueEmail() });
      expect(limited.statusCode).toBe(429);
      expect(errorBody(limited).error).toBe('rate_limited');
      // Another Epic account may still ask.
      const other = await pendingBrowser();
      expect((await other.browser.post('/api/user/check-exists', { email: uniqueEmail() })).statusCode).toBe(200);
    });

    it('answers exists:false for the address this Epic account verified in another tab, and link finishes', async () => {
      const displayName = uniqueDisplayName('Tabs');
      const email = uniqueEmail('tabs');
      const [first, second] = [server().client(), server().client()];
      expect(location(await signInWithEpic(first, displayName))).toBe('/epic_account_link?client=web');
      expect(location(await signInWithEpic(second, displayName))).toBe('/epic_account_link?client=web');
      await linkEmail(first, email);
      expect(await openVerificationLink(server(), email)).toMatch(/success=true/);

      const exists = await second.post('/api/user/check-exists', { email });
      expect(exists.json()).toMatchObject({ ok: true, exists: false });
      const linked = await second.post('/api/epic/link', { email });
      expect(linked.json()).toMatchObject({ requiresVerification: false, next: '/api/auth/callback-internal' });
      expect(location(await second.get('/api/auth/callback-internal'))).toBe('/login_completed?client=web');
    });
  });

  describe('POST /api/epic/link', () => {
    it('refuses an address another account owns with 409 email_exists', async () => {
      const taken = uniqueEmail('owned');
      await server().client().register(taken);
      const epicOwned = await existingEpicUser(server());
      const { browser } = await pendingBrowser();
      for (const email of [taken, taken.toUpperCase(), epicOwned.email]) {
        const response = await browser.post('/api/epic/link', { email });
        expect(response.statusCode, email).toBe(409);
        expect(errorBody(response)).toEqual({ error: 'email_exists', message: 'An account with this email already exists.' });
      }
      // Nothing was attached to the existing accounts.
      expect((await userByEmail(taken))?.epic_account_id).toBeNull();
      expect((await signInFlowOf(server(), browser)).link_email).toBeNull();
    });

    it('asks for verification and names the waiting page for the normalised address', async () => {
      const { browser } = await pendingBrowser();
      const email = `Ada+${uniqueEmail('link')}`;
      const normalized = email.toLowerCase();
      const response = await browser.post('/api/epic/link', { email: ` ${email.toUpperCase()} ` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        ok: true,
        message: 'Email Verification Required',
        requiresVerification: true,
        next: `/email-verification?email=${encodeURIComponent(normalized)}&client=web`,
      });
      expect((await signInFlowOf(server(), browser)).link_email).toBe(normalized);
      // Nothing is mailed and no account exists until the waiting page sends.
      expect(server().smtp.mailsTo(normalized)).toHaveLength(0);
      expect(await userByEmail(normalized)).toBeUndefined();
    });

    it('answers 403 without a pending Epic sign-in', async () => {
      const response = await server().client().post('/api/epic/link', { email: uniqueEmail() });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(NO_PENDING_SIGN_IN);
    });
  });

  describe('sending the verification mail', () => {
    it('mails a link to GET /api/email/verify built from PUBLIC_URL, never from the Host header', async () => {
      const { browser, displayName } = await pendingBrowser(server().client({ host: 'evil.example', 'x-forwarded-host': 'evil.example' }));
      const email = uniqueEmail('mail');
      expect((await browser.post('/api/epic/link', { email })).statusCode).toBe(200);
      const sent = await browser.post('/api/email/send-verification', { email });
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({ ok: true, code: 'sent', message: 'Verification email sent' });

      const mail = await server().smtp.waitForMail(email);
      expect(mail.to).toEqual([email]);
      expect(mail.subject).toBe('Verify your email for Sage');
      expect(mail.headers.from).toBe(server().config.mailFrom);
      // Nothing of the requester's reaches the inbox: not even the Epic display name.
      expect(mail.text).not.toContain(displayName);
      expect(mail.html).not.toContain(displayName);
      expect(mail.links.length).toBeGreaterThan(0);
      for (const link of mail.links) expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/api/email/verify\\?token=[A-Za-z0-9_-]{43,}$`));
      expect(mail.raw).not.toContain('evil.example');
    });

    it('gives the link 15 minutes and keeps the Epic account on the row, not in the mail', async () => {
      const displayName = '<b>Ada & "Co"</b>';
      const browser = server().client();
      expect(location(await signInWithEpic(browser, displayName))).toBe('/epic_account_link?client=web');
      const email = uniqueEmail('escape');
      const before = Date.now();
      await linkEmail(browser, email);
      const mail = await server().smtp.waitForMail(email);
      expect(mail.text).not.toContain('Ada');
      expect(mail.html).not.toContain('Ada');

      const flow = await signInFlowOf(server(), browser);
      const row = await server().db.selectFrom('email_verifications').selectAll().where('flow_id', '=', flow.id).executeTakeFirstOrThrow();
      expect(row.created_at).toBeGreaterThanOrEqual(before);
      expect(row.expires_at - row.created_at).toBe(15 * 60_000);
      expect(row).toMatchObject({ email, epic_account_id: devAccountId(displayName), epic_display_name: displayName, verified_at: null });
    });

    it('does not mail twice when the waiting page sends again within 60 s', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      await verificationLink(server(), email);
      const again = await browser.post('/api/email/send-verification', { email });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ ok: true, code: 'already_sent', message: 'Verification email already sent' });
      expect(server().smtp.mailsTo(email)).toHaveLength(1);
    });

    it('refuses a resend within 60 s with 429 and Retry-After', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      const resend = await browser.post('/api/email/resend-verification', { email });
      expect(resend.statusCode).toBe(429);
      expect(errorBody(resend).error).toBe('rate_limited');
      expect(errorBody(resend).message).toMatch(/^Please wait \d+ seconds before requesting another email$/);
      const retryAfter = Number(resend.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(server().smtp.mailsTo(email)).toHaveLength(1);
    });

    it('resends after the cooldown, and the new mail voids the old link', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      const oldLink = await verificationLink(server(), email);
      await age(browser, 'created_at', 61_000);

      const resend = await browser.post('/api/email/resend-verification', { email });
      expect(resend.statusCode).toBe(200);
      expect(resend.json()).toEqual({ ok: true, code: 'sent', message: 'Verification email resent' });
      const newLink = await verificationLink(server(), email, 2);
      expect(newLink).not.toBe(oldLink);

      expect(location(await server().client().get(pathOf(oldLink)))).toBe(INVALID_LINK_PAGE);
      expect(await userByEmail(email)).toBeUndefined();
      expect(location(await server().client().get(pathOf(newLink)))).toBe(VERIFIED_PAGE);
      expect(await userByEmail(email)).toBeDefined();
    });

    it('answers already_verified once the link was opened', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);
      await age(browser, 'created_at', 61_000);
      for (const path of ['/api/email/send-verification', '/api/email/resend-verification']) {
        const response = await browser.post(path, { email });
        expect(response.json(), path).toEqual({ ok: true, code: 'already_verified', message: 'Email already verified' });
      }
      expect(server().smtp.mailsTo(email)).toHaveLength(1);
    });

    it('answers 403 for an e-mail other than the linked one', async () => {
      const email = uniqueEmail();
      const { browser } = await linkedBrowser(email);
      const other = uniqueEmail('other');
      for (const path of ['/api/email/send-verification', '/api/email/resend-verification']) {
        const response = await browser.post(path, { email: other });
        expect(response.statusCode, path).toBe(403);
        expect(errorBody(response)).toEqual(NOT_LINKING);
      }
      expect(server().smtp.mailsTo(other)).toHaveLength(0);
    });

    it('answers 403 before any e-mail is linked', async () => {
      const { browser } = await pendingBrowser();
      const email = uniqueEmail();
      const response = await browser.post('/api/email/send-verification', { email });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(NOT_LINKING);
      expect(server().smtp.mailsTo(email)).toHaveLength(0);
    });

    it('answers 403 to another browser, with or without a sign-in of its own', async () => {
      const email = uniqueEmail();
      await linkedBrowser(email);
      const stranger = server().client();
      const { browser: other } = await pendingBrowser();
      await linkEmail(other, uniqueEmail('other'));
      for (const browser of [stranger, other]) {
        for (const path of ['/api/email/send-verification', '/api/email/resend-verification']) {
          const response = await browser.post(path, { email });
          expect(response.statusCode, path).toBe(403);
          expect(errorBody(response)).toEqual(NOT_LINKING);
        }
      }
      expect(server().smtp.mailsTo(email)).toHaveLength(1);
    });

    it('answers 502 when the mail cannot be delivered, and lets the page try again at once', async () => {
      const port = await closedLoopbackPort();
      const config = { ...server().config, smtpUrl: `smtp://127.0.0.1:${port}` };
      const failing = await buildExtraApp(server().db, {}, { config, mailer: mailerFromConfig(config, { info: () => undefined }) });
      try {
        const onFailing = new TestClient(failing);
        const email = uniqueEmail('undeliverable');
        await pendingBrowser(onFailing);
        expect((await onFailing.post('/api/epic/link', { email })).statusCode).toBe(200);
        for (const path of ['/api/email/send-verification', '/api/email/resend-verification', '/api/email/send-verification']) {
          const response = await onFailing.post(path, { email });
          expect(response.statusCode, path).toBe(502);
          expect(errorBody(response)).toEqual({ error: 'mail_failed', message: 'Failed to send verification email' });
        }
        const flow = await signInFlowOf(server(), onFailing);
        expect(await server().db.selectFrom('email_verifications').select('token_hash').where('flow_id', '=', flow.id).execute()).toEqual(
          [],
        );

        // Mail works again (the suite's app, same browser): no cooldown holds the retry back.
        const browser = server().client();
        for (const [name, value] of onFailing.cookies) browser.cookies.set(name, value);
        const retry = await browser.post('/api/email/resend-verification', { email });
        expect(retry.statusCode).toBe(200);
        expect(retry.json()).toMatchObject({ code: 'sent' });
        expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);
      } finally {
        await failing.close();
      }
    });
  });
});
