import { describe, expect, it } from 'vitest';
import { signInAtProvider } from '../fixtures/identityProvider';
import {
  existingEpicUser as knownEpicUser,
  failedWith,
  location,
  pathOf,
  pluginLoginUrl,
  signInFlowOf,
  signInWithEpic,
  signUpWithEpic,
  startSignIn,
  uniqueDisplayName,
} from './epicFlow';
import { PASSWORD, databases, errorBody, uniqueEmail, useTestServer, type TestClient } from './harness';

const SIGNED_OUT_STATUS = { authenticated: false, user: null, ue: { enabled: false, status: null, message: null } };

/** What a browser's sign-in looks like from the pages after the provider: status and cancel. */
describe.each(databases)('Epic sign-in status and cancel on $label', (database) => {
  const server = useTestServer(database);
  const flowOf = (browser: TestClient) => signInFlowOf(server(), browser);
  const existingEpicUser = () => knownEpicUser(server());

  describe('GET /api/auth/status', () => {
    it('answers a signed-out browser without a flow', async () => {
      const response = await server().client().get('/api/auth/status');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json()).toEqual(SIGNED_OUT_STATUS);
    });

    it('answers a browser signed in on the web', async () => {
      const { displayName, email } = await existingEpicUser();
      const browser = server().client();
      expect(location(await signInWithEpic(browser, displayName))).toBe('/login_completed?client=web');
      expect((await browser.get('/api/auth/status')).json()).toEqual({
        authenticated: true,
        user: { email },
        ue: { enabled: false, status: null, message: null },
      });
    });

    it('answers a browser signed in with a password', async () => {
      const email = uniqueEmail();
      const browser = server().client();
      await browser.register(email, PASSWORD);
      expect((await browser.get('/api/auth/status')).json()).toEqual({
        authenticated: true,
        user: { email },
        ue: { enabled: false, status: null, message: null },
      });
    });

    it('follows a plugin sign-in from start to signed in', async () => {
      const browser = server().client();
      const displayName = uniqueDisplayName('Plugin');
      const email = uniqueEmail('plugin');
      const loginUrl = pluginLoginUrl();

      await startSignIn(browser, loginUrl);
      expect((await browser.get('/api/auth/status')).json()).toEqual(SIGNED_OUT_STATUS);

      const completed = await signUpWithEpic(server(), browser, { displayName, email, loginUrl });
      expect(location(completed)).toBe('/login_completed?client=ue');
      expect((await browser.get('/api/auth/status')).json()).toEqual({
        authenticated: true,
        user: { email },
        ue: { enabled: true, status: 'success', message: 'Signed in' },
      });
    });

    it('tells the plugin page that the user canceled at the provider', async () => {
      const browser = server().client();
      const authorize = await startSignIn(browser, pluginLoginUrl());
      const callback = await signInAtProvider(authorize.href, { cancel: true });
      expect(location(await browser.get(pathOf(callback)))).toBe(failedWith('canceled'));
      expect((await browser.get('/api/auth/status')).json()).toEqual({
        authenticated: false,
        user: null,
        ue: { enabled: false, status: 'canceled', message: 'Epic sign-in was canceled' },
      });
    });

    it('tells the plugin page that the sign-in failed', async () => {
      const misconfigured = await server().appWithEpic({ clientSecret: 'wrong' });
      const browser = misconfigured.client();
      expect(location(await signInWithEpic(browser, uniqueDisplayName(), pluginLoginUrl()))).toBe(failedWith('token_exchange_failed'));
      expect((await browser.get('/api/auth/status')).json()).toEqual({
        authenticated: false,
        user: null,
        ue: { enabled: false, status: 'failed', message: 'Epic sign-in failed (token_exchange_failed)' },
      });
    });

    it('does not offer the hand-off to a browser signed in as someone else than the flow', async () => {
      const { displayName } = await existingEpicUser();
      const browser = server().client();
      expect(location(await signInWithEpic(browser, displayName, pluginLoginUrl()))).toBe('/login_completed?client=ue');
      const other = uniqueEmail('other');
      await server().client().register(other);
      expect((await browser.login(other)).statusCode).toBe(200);
      expect((await browser.get('/api/auth/status')).json()).toMatchObject({
        authenticated: true,
        user: { email: other },
        ue: { enabled: false },
      });
    });
  });

  describe('POST /api/auth/epic/cancel', () => {
    it('abandons the link: check-exists and link then answer 403', async () => {
      const browser = server().client();
      expect(location(await signInWithEpic(browser, uniqueDisplayName()))).toBe('/epic_account_link?client=web');
      const email = uniqueEmail();
      expect((await browser.post('/api/user/check-exists', { email })).statusCode).toBe(200);

      const canceled = await browser.post('/api/auth/epic/cancel');
      expect(canceled.statusCode).toBe(200);
      expect(canceled.json()).toEqual({ ok: true, message: 'Sign-in canceled' });

      for (const path of ['/api/user/check-exists', '/api/epic/link', '/api/email/send-verification']) {
        const response = await browser.post(path, { email });
        expect(response.statusCode, path).toBe(403);
      }
      expect(errorBody(await browser.post('/api/epic/link', { email }))).toEqual({
        error: 'no_pending_sign_in',
        message: 'No Epic sign-in is waiting for an email here. Please sign in with Epic again.',
      });
      expect((await flowOf(browser)).epic_account_id).toBeNull();
    });

    it('voids a verification link already mailed, so no account is made', async () => {
      const browser = server().client();
      const displayName = uniqueDisplayName();
      const email = uniqueEmail();
      expect(location(await signInWithEpic(browser, displayName))).toBe('/epic_account_link?client=web');
      expect((await browser.post('/api/epic/link', { email })).statusCode).toBe(200);
      expect((await browser.post('/api/email/send-verification', { email })).json()).toMatchObject({ code: 'sent' });
      const mail = await server().smtp.waitForMail(email);
      const link = mail.links.find((l) => l.includes('/api/email/verify?token=')) ?? '';

      expect((await browser.post('/api/auth/epic/cancel')).statusCode).toBe(200);
      const opened = await server().client().get(pathOf(link));
      expect(location(opened)).toMatch(/^\/email-verification-completed\?success=false&/);
      expect(await server().db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
      expect(location(await browser.get('/api/auth/callback-internal'))).toBe(failedWith('verification_required'));
    });

    it('marks a plugin flow canceled', async () => {
      const browser = server().client();
      expect(location(await signInWithEpic(browser, uniqueDisplayName(), pluginLoginUrl()))).toBe('/epic_account_link?client=ue');
      expect((await browser.post('/api/auth/epic/cancel')).statusCode).toBe(200);
      expect((await browser.get('/api/auth/status')).json()).toEqual({
        authenticated: false,
        user: null,
        ue: { enabled: false, status: 'canceled', message: 'Sign-in was canceled' },
      });
    });

    it('answers ok without a flow and leaves a finished sign-in signed in', async () => {
      const none = await server().client().post('/api/auth/epic/cancel');
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual({ ok: true, message: 'Sign-in canceled' });

      const { displayName } = await existingEpicUser();
      const browser = server().client();
      expect(location(await signInWithEpic(browser, displayName, pluginLoginUrl()))).toBe('/login_completed?client=ue');
      expect((await browser.post('/api/auth/epic/cancel')).statusCode).toBe(200);
      expect((await browser.get('/api/user')).statusCode).toBe(200);
      expect((await browser.get('/api/auth/status')).json()).toMatchObject({ ue: { status: 'success', message: 'Signed in' } });
    });
  });
});
