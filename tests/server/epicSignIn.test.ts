import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { s256 } from '../../server/services/pluginHandOff';
import { signInAtProvider } from '../fixtures/identityProvider';
import {
  closedLoopbackPort,
  devAccountId,
  epicCallbackFor,
  existingEpicUser as knownEpicUser,
  failedWith,
  location,
  pathOf,
  pkcePair,
  pluginLoginUrl,
  signInFlowOf,
  signInWithEpic,
  signUpWithEpic,
  startSignIn,
  uniqueDisplayName,
} from './epicFlow';
import { EPIC_CALLBACK_URL, databases, uniqueEmail, useTestServer, type TestClient } from './harness';

const DAY_MS = 24 * 60 * 60 * 1000;

function cookieOf(response: LightMyRequestResponse, name: string) {
  return response.cookies.find((c) => c.name === name);
}

describe.each(databases)('Sign in with Epic on $label', (database) => {
  const server = useTestServer(database);

  const flowOf = (browser: TestClient) => signInFlowOf(server(), browser);
  const existingEpicUser = () => knownEpicUser(server());

  describe('starting at /api/auth/login', () => {
    it('sends the browser to the authorize URL with the PKCE S256 challenge and state of a new flow', async () => {
      const browser = server().client();
      const response = await browser.get('/api/auth/login?client=web');
      const authorize = new URL(location(response));
      const provider = server().identityProvider?.settings;
      expect(`${authorize.origin}${authorize.pathname}`).toBe(provider?.authorizeUrl);
      const params = authorize.searchParams;
      expect(params.get('response_type')).toBe('code');
      expect(params.get('client_id')).toBe(provider?.clientId);
      expect(params.get('redirect_uri')).toBe(EPIC_CALLBACK_URL);
      expect(params.get('scope')).toBe('openid basic_profile');
      expect(params.get('code_challenge_method')).toBe('S256');
      expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.get('state')?.length).toBeGreaterThanOrEqual(32);

      const cookie = cookieOf(response, 'sage_sign_in');
      expect(cookie).toMatchObject({ httpOnly: true, path: '/api', sameSite: 'Lax' });
      expect(cookie?.value.length).toBeGreaterThanOrEqual(43);
      expect(cookie?.expires?.getTime()).toBeGreaterThan(Date.now());

      // The cookie names the flow that holds the state and the verifier behind the challenge.
      const flow = await flowOf(browser);
      expect(flow.client).toBe('web');
      expect(flow.oauth_state).toBe(params.get('state'));
      expect(s256(flow.oauth_code_verifier ?? '')).toBe(params.get('code_challenge'));
      expect(flow.plugin_redirect_uri).toBeNull();
      // A sign-in may take 30 minutes; the cookie lasts as long as its flow (HTTP dates count seconds).
      expect(flow.expires_at - flow.created_at).toBe(30 * 60_000);
      expect(Math.abs((cookie?.expires?.getTime() ?? 0) - flow.expires_at)).toBeLessThan(1000);
    });

    it('starts a fresh flow, with a fresh state, every time', async () => {
      const browser = server().client();
      const first = await startSignIn(browser);
      const firstCookie = browser.cookies.get('sage_sign_in');
      const second = await startSignIn(browser);
      expect(browser.cookies.get('sage_sign_in')).not.toBe(firstCookie);
      expect(second.searchParams.get('state')).not.toBe(first.searchParams.get('state'));
      expect(second.searchParams.get('code_challenge')).not.toBe(first.searchParams.get('code_challenge'));
    });

    it('lands on server_error, with no sign-in cookie, when Epic is not configured', async () => {
      const unconfigured = await server().appWithEpic(null);
      const browser = unconfigured.client();
      for (const url of ['/api/auth/login?client=web', '/api/auth/login', pluginLoginUrl()]) {
        const response = await browser.get(url);
        expect(location(response), url).toBe(failedWith('server_error'));
        expect(cookieOf(response, 'sage_sign_in'), url).toBeUndefined();
      }
    });

    it('sends a malformed sign-in request to the failure page, never to a JSON error', async () => {
      const browser = server().client();
      expect(location(await browser.get('/api/auth/login?client=desktop'))).toBe('/authentication_failed');
      // A plugin's over-long parameters are the plugin's mistake: say so.
      expect(location(await browser.get(pluginLoginUrl({ state: 's'.repeat(2000) })))).toBe(failedWith('invalid_plugin_request'));
      expect(location(await browser.get(pluginLoginUrl({ redirect_uri: `http://127.0.0.1:1/${'a'.repeat(5000)}` })))).toBe(
        failedWith('invalid_plugin_request'),
      );
      expect(browser.cookies.get('sage_sign_in')).toBeUndefined();
    });

    it('treats a malformed callback query as not its own answer', async () => {
      const browser = server().client();
      await startSignIn(browser);
      expect(location(await browser.get(`/api/auth/callback?code=c&state=${'s'.repeat(2000)}`))).toBe(failedWith('state_mismatch'));
      expect(location(await browser.get('/api/auth/callback?code=a&code=b&state=x'))).toBe(failedWith('state_mismatch'));
    });
  });

  describe('failure reasons', () => {
    it('canceled: the user pressed Cancel at the provider', async () => {
      const browser = server().client();
      const authorize = await startSignIn(browser);
      const callback = await signInAtProvider(authorize.href, { cancel: true });
      expect(callback.searchParams.get('error')).toBe('access_denied');
      const response = await browser.get(pathOf(callback));
      expect(location(response)).toBe(failedWith('canceled'));
      expect(cookieOf(response, 'sage_session')).toBeUndefined();
      expect((await browser.get('/api/user')).statusCode).toBe(401);
    });

    it('state_mismatch: the callback carries another state', async () => {
      const browser = server().client();
      const callback = await epicCallbackFor(browser, uniqueDisplayName());
      callback.searchParams.set('state', 'not-the-state-we-sent');
      const response = await browser.get(pathOf(callback));
      expect(location(response)).toBe(failedWith('state_mismatch'));
      expect(cookieOf(response, 'sage_session')).toBeUndefined();
    });

    it('state_mismatch: the callback carries no state at all', async () => {
      const browser = server().client();
      const callback = await epicCallbackFor(browser, uniqueDisplayName());
      callback.searchParams.delete('state');
      expect(location(await browser.get(pathOf(callback)))).toBe(failedWith('state_mismatch'));
    });

    it('state_mismatch: the browser has no sign-in cookie', async () => {
      const callback = await epicCallbackFor(server().client(), uniqueDisplayName());
      const cookieless = server().client();
      const response = await cookieless.get(pathOf(callback));
      expect(location(response)).toBe(failedWith('state_mismatch'));
      expect(cookieOf(response, 'sage_session')).toBeUndefined();
    });

    it('state_mismatch: the sign-in cookie names no flow', async () => {
      const callback = await epicCallbackFor(server().client(), uniqueDisplayName());
      const forged = server().client({ cookie: 'sage_sign_in=made-up-token' });
      expect(location(await forged.get(pathOf(callback)))).toBe(failedWith('state_mismatch'));
    });

    it('state_mismatch: the callback is replayed after it succeeded', async () => {
      const { displayName } = await existingEpicUser();
      const browser = server().client();
      const callback = await epicCallbackFor(browser, displayName);
      expect(location(await browser.get(pathOf(callback)))).toBe('/login_completed?client=web');
      const session = browser.session;
      const replay = await browser.get(pathOf(callback));
      expect(location(replay)).toBe(failedWith('state_mismatch'));
      // The replay changed nothing: no new session, the one the first callback started still works.
      expect(cookieOf(replay, 'sage_session')).toBeUndefined();
      expect(browser.session).toBe(session);
      expect((await browser.get('/api/user')).statusCode).toBe(200);
    });

    it('state_mismatch: the callback of one browser arrives in another that is signing in too', async () => {
      const victim = server().client();
      const victimCallback = await epicCallbackFor(victim, uniqueDisplayName('Victim'));
      const attacker = server().client();
      await startSignIn(attacker);
      const attackerFlow = await flowOf(attacker);

      expect(location(await attacker.get(pathOf(victimCallback)))).toBe(failedWith('state_mismatch'));
      // Neither browser's sign-in was spent by it.
      expect((await flowOf(attacker)).oauth_state).toBe(attackerFlow.oauth_state);
      expect(location(await victim.get(pathOf(victimCallback)))).toBe('/epic_account_link?client=web');
    });

    it('state_mismatch: the sign-in flow has expired', async () => {
      const browser = server().client();
      const callback = await epicCallbackFor(browser, uniqueDisplayName());
      const flow = await flowOf(browser);
      await server()
        .db.updateTable('sign_in_flows')
        .set({ expires_at: Date.now() - 1000 })
        .where('id', '=', flow.id)
        .execute();
      expect(location(await browser.get(pathOf(callback)))).toBe(failedWith('state_mismatch'));
    });

    it('spends the state once when the same callback arrives twice at the same moment', async () => {
      const { displayName } = await existingEpicUser();
      const browser = server().client();
      const callback = pathOf(await epicCallbackFor(browser, displayName));
      const answers = await Promise.all([browser.get(callback), browser.get(callback)]);
      expect(answers.map((a) => location(a)).sort()).toEqual(['/login_completed?client=web', failedWith('state_mismatch')].sort());
    });

    it('a forged callback with a wrong state does not end the real sign-in', async () => {
      const { displayName, email } = await existingEpicUser();
      const browser = server().client();
      const callback = await epicCallbackFor(browser, displayName);
      const forged = new URL(callback);
      forged.searchParams.set('state', 'forged-by-another-site');
      forged.searchParams.set('code', 'forged-code');
      expect(location(await browser.get(pathOf(forged)))).toBe(failedWith('state_mismatch'));
      const forgedError = new URL(EPIC_CALLBACK_URL);
      forgedError.search = new URLSearchParams({ error: 'access_denied', state: 'forged-by-another-site' }).toString();
      expect(location(await browser.get(pathOf(forgedError)))).toBe(failedWith('state_mismatch'));

      const real = await browser.get(pathOf(callback));
      expect(location(real)).toBe('/login_completed?client=web');
      expect((await browser.get('/api/user')).json()).toMatchObject({ email });
    });

    it('token_exchange_failed: the provider refuses our client secret', async () => {
      const misconfigured = await server().appWithEpic({ clientSecret: 'wrong' });
      const browser = misconfigured.client();
      const response = await signInWithEpic(browser, uniqueDisplayName());
      expect(location(response)).toBe(failedWith('token_exchange_failed'));
      expect(cookieOf(response, 'sage_session')).toBeUndefined();
      // The state was spent: the same callback cannot be tried again.
      expect((await flowOf(browser)).oauth_state).toBeNull();
    });

    it('user_info_failed: the provider cannot tell who signed in', async () => {
      const port = await closedLoopbackPort();
      const broken = await server().appWithEpic({ userInfoUrl: `http://127.0.0.1:${port}/me` });
      const browser = broken.client();
      const displayName = uniqueDisplayName();
      const response = await signInWithEpic(browser, displayName);
      expect(location(response)).toBe(failedWith('user_info_failed'));
      expect(cookieOf(response, 'sage_session')).toBeUndefined();
      expect((await flowOf(browser)).epic_account_id).toBeNull();
    });

    it('server_error: the provider answers error=server_error to our state', async () => {
      const browser = server().client();
      const authorize = await startSignIn(browser);
      const state = authorize.searchParams.get('state') ?? '';
      const query = new URLSearchParams({ error: 'server_error', error_description: 'Epic is down', state });
      const response = await browser.get(`/api/auth/callback?${query.toString()}`);
      expect(location(response)).toBe(failedWith('server_error'));
      expect(cookieOf(response, 'sage_session')).toBeUndefined();
    });

    it('server_error: any other error the provider names with our state', async () => {
      const browser = server().client();
      const state = (await startSignIn(browser)).searchParams.get('state') ?? '';
      const query = new URLSearchParams({ error: 'temporarily_unavailable', state });
      expect(location(await browser.get(`/api/auth/callback?${query.toString()}`))).toBe(failedWith('server_error'));
    });

    it('canceled: access_denied with our state, sent without the provider', async () => {
      const browser = server().client();
      const state = (await startSignIn(browser)).searchParams.get('state') ?? '';
      const query = new URLSearchParams({ error: 'access_denied', state });
      expect(location(await browser.get(`/api/auth/callback?${query.toString()}`))).toBe(failedWith('canceled'));
    });
  });

  describe('after the provider', () => {
    it('sends a new Epic account to /epic_account_link, creating no account and no session yet', async () => {
      const browser = server().client();
      const displayName = uniqueDisplayName('Newcomer');
      const response = await signInWithEpic(browser, displayName);
      expect(location(response)).toBe('/epic_account_link?client=web');
      expect(cookieOf(response, 'sage_session')).toBeUndefined();
      expect((await browser.get('/api/user')).statusCode).toBe(401);

      const flow = await flowOf(browser);
      expect(flow.epic_account_id).toBe(devAccountId(displayName));
      expect(flow.epic_display_name).toBe(displayName);
      const users = await server().db.selectFrom('users').select('id').where('epic_account_id', '=', devAccountId(displayName)).execute();
      expect(users).toEqual([]);
    });

    it('creates the account at verification with the display name as its username', async () => {
      const browser = server().client();
      const displayName = uniqueDisplayName('Creator');
      const email = uniqueEmail('creator');
      expect(location(await signUpWithEpic(server(), browser, { displayName, email }))).toBe('/login_completed?client=web');
      expect((await browser.get('/api/user')).json()).toEqual({
        id: expect.any(String),
        username: displayName,
        email,
        status: 'Active',
        isAdmin: false,
        staffRole: null,
      });
      const row = await server().db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ epic_account_id: devAccountId(displayName), epic_display_name: displayName, password_hash: null });
      expect(row.email_verified_at).not.toBeNull();
    });

    it('signs a known Epic account in at once, with a session that lasts like Remember me', async () => {
      const { displayName, email } = await existingEpicUser();
      const browser = server().client();
      const response = await signInWithEpic(browser, displayName);
      expect(location(response)).toBe('/login_completed?client=web');
      const session = cookieOf(response, 'sage_session');
      expect(session).toMatchObject({ httpOnly: true, path: '/', sameSite: 'Lax' });
      expect(session?.expires?.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);

      const user = await browser.get('/api/user');
      expect(user.statusCode).toBe(200);
      expect(user.json()).toMatchObject({ username: displayName, email });
      // No second account was made for the same Epic account.
      const rows = await server().db.selectFrom('users').select('id').where('epic_account_id', '=', devAccountId(displayName)).execute();
      expect(rows).toHaveLength(1);
    });

    it('records the Epic display name again at every sign-in', async () => {
      const { displayName, email } = await existingEpicUser();
      await server().db.updateTable('users').set({ epic_display_name: 'An Old Name' }).where('email', '=', email).execute();
      expect(location(await signInWithEpic(server().client(), displayName))).toBe('/login_completed?client=web');
      const row = await server().db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(row.epic_display_name).toBe(displayName);
    });

    it('replaces the session a browser had when it signs in with Epic', async () => {
      const { displayName, email } = await existingEpicUser();
      const browser = server().client();
      await browser.register(uniqueEmail('before'));
      const before = browser.session;
      expect(location(await signInWithEpic(browser, displayName))).toBe('/login_completed?client=web');
      expect(browser.session).not.toBe(before);
      expect((await browser.get('/api/user')).json()).toMatchObject({ email });
      const old = server().client({ cookie: `sage_session=${before ?? ''}` });
      expect((await old.get('/api/user')).statusCode).toBe(401);
    });
  });

  describe('client=ue requests', () => {
    const good = 'http://127.0.0.1:49152/callback';
    const accepted = [
      'http://127.0.0.1:49152/callback',
      'http://localhost:8080/',
      'http://localhost:1',
      'http://127.0.0.1:65535/sage/auth?session=abc&x=1',
    ];
    const refused = [
      'https://127.0.0.1:49152/callback',
      'http://example.com:49152/callback',
      'http://localhost.evil.com:49152/callback',
      'http://127.0.0.1.nip.io:49152/callback',
      'http://[::1]:49152/callback',
      'http://a@127.0.0.1:49152/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1:0/callback',
      'http://127.0.0.1:65536/callback',
      'http://127.0.0.1:49152/callback#fragment',
      'http://127.0.0.1:49152/call back',
      'http:\\\\127.0.0.1:49152\\callback',
      'javascript:alert(1)//127.0.0.1:49152',
      '//127.0.0.1:49152/callback',
      `http://127.0.0.1:49152/${'a'.repeat(2100)}`,
    ];

    it.each(accepted)('accepts the loopback redirect %s and starts a sign-in', async (redirectUri) => {
      const browser = server().client();
      const { challenge } = pkcePair();
      await startSignIn(browser, pluginLoginUrl({ redirect_uri: redirectUri, code_challenge: challenge, state: 'st-1' }));
      const flow = await flowOf(browser);
      expect(flow).toMatchObject({
        client: 'ue',
        plugin_redirect_uri: new URL(redirectUri).href,
        plugin_state: 'st-1',
        plugin_code_challenge: challenge,
      });
    });

    it.each(refused)('refuses the redirect %s on our own page, never redirecting to it', async (redirectUri) => {
      const browser = server().client();
      const response = await browser.get(pluginLoginUrl({ redirect_uri: redirectUri }));
      expect(location(response)).toBe(failedWith('invalid_redirect_uri'));
      expect(cookieOf(response, 'sage_sign_in')).toBeUndefined();
    });

    it('refuses a missing or empty redirect_uri', async () => {
      for (const redirectUri of [undefined, '']) {
        const response = await server()
          .client()
          .get(pluginLoginUrl({ redirect_uri: redirectUri }));
        expect(location(response)).toBe(failedWith('invalid_redirect_uri'));
      }
    });

    it.each([
      ['no state', { state: undefined }],
      ['an empty state', { state: '' }],
      ['a state with spaces', { state: 'two words' }],
      ['a state with control characters', { state: 'a\nb' }],
      ['a state longer than 512 characters', { state: 'x'.repeat(513) }],
      ['no code_challenge', { code_challenge: undefined }],
      ['a code_challenge that is not S256-shaped', { code_challenge: 'short' }],
      ['a code_challenge with characters outside base64url', { code_challenge: `${'a'.repeat(42)}=` }],
      ['no code_challenge_method', { code_challenge_method: undefined }],
      ['code_challenge_method plain', { code_challenge_method: 'plain' }],
      ['code_challenge_method s256 in lower case', { code_challenge_method: 's256' }],
    ])('refuses a plugin request with %s as invalid_plugin_request', async (_name, overrides: Record<string, string | undefined>) => {
      const response = await server()
        .client()
        .get(pluginLoginUrl({ redirect_uri: good, ...overrides }));
      expect(location(response)).toBe(failedWith('invalid_plugin_request'));
      expect(cookieOf(response, 'sage_sign_in')).toBeUndefined();
    });

    it('ignores plugin fields on a web sign-in', async () => {
      const browser = server().client();
      const query = new URLSearchParams({ client: 'web', redirect_uri: 'https://evil.example/steal', state: 'x' });
      await startSignIn(browser, `/api/auth/login?${query.toString()}`);
      const flow = await flowOf(browser);
      expect(flow).toMatchObject({ client: 'web', plugin_redirect_uri: null, plugin_state: null, plugin_code_challenge: null });
    });
  });
});
