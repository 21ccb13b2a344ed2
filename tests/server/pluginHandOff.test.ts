import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { UsageRemaining } from '../../contract/usage';
import { utcMonth } from '../../server/services/metering/rules';
import { hashToken } from '../../server/services/tokens';
import { subscriptionRow } from './adminFlow';
import {
  LOOPBACK_REDIRECT,
  existingEpicUser,
  failedWith,
  location,
  pkcePair,
  pluginLoginUrl,
  signInWithEpic,
  signUpWithEpic,
  uniqueDisplayName,
} from './epicFlow';
import type { UpdateCheck } from '../../contract/builds';
import { databases, errorBody, uniqueEmail, useTestServer, type TestClient } from './harness';
import { downloadUrl, freshBuilds, testBuild } from './releaseFlow';

const PLUGIN_STATE = 'plugin-state-7f3a';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INVALID_CODE = { error: 'invalid_grant', message: 'The code is invalid or has already been used' };
const NO_HAND_OFF = { error: 'no_plugin_sign_in', message: 'No plugin sign-in is waiting for this account in this browser' };

describe.each(databases)('plugin hand-off on $label', (database) => {
  const server = useTestServer(database);

  /** A new Epic user signed up through a plugin request; the browser is on /login_completed?client=ue. */
  async function pluginSignUp(overrides: Record<string, string> = {}) {
    const pkce = pkcePair();
    const displayName = uniqueDisplayName('Plugin');
    const email = uniqueEmail('plugin');
    const browser = server().client();
    const loginUrl = pluginLoginUrl({ code_challenge: pkce.challenge, state: PLUGIN_STATE, ...overrides });
    const completed = await signUpWithEpic(server(), browser, { displayName, email, loginUrl });
    expect(location(completed)).toBe('/login_completed?client=ue');
    return { browser, pkce, displayName, email };
  }

  /** `POST /api/auth/ue-store-payload`, expecting a code. */
  async function storePayload(browser: TestClient): Promise<{ code: string; redirectUrl: string }> {
    const response = await browser.post('/api/auth/ue-store-payload');
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** The plugin's exchange: no cookies, only the code and its verifier (and the install it already is, if it says). */
  function redeem(code: string | undefined, verifier: string | undefined, headers: Record<string, string> = {}) {
    const query = new URLSearchParams();
    if (code !== undefined) query.set('code', code);
    if (verifier !== undefined) query.set('code_verifier', verifier);
    return server().client(headers).get(`/api/auth/ue-payload?${query.toString()}`);
  }

  it('hands the license over to the plugin: loopback redirect with code and state, then the payload', async () => {
    const { browser, pkce, displayName, email } = await pluginSignUp();
    expect((await browser.get('/api/auth/status')).json()).toEqual({
      authenticated: true,
      user: { email },
      ue: { enabled: true, status: 'success', message: 'Signed in' },
    });

    const stored = await browser.post('/api/auth/ue-store-payload');
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['cache-control']).toBe('no-store');
    const body = stored.json<{ ok: boolean; code: string; redirectUrl: string }>();
    expect(body).toEqual({ ok: true, code: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/), redirectUrl: expect.any(String) });
    const redirect = new URL(body.redirectUrl);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(LOOPBACK_REDIRECT);
    expect(Object.fromEntries(redirect.searchParams)).toEqual({ code: body.code, state: PLUGIN_STATE });
    // Only the code's hash is kept.
    const row = await server()
      .db.selectFrom('plugin_hand_off_codes')
      .selectAll()
      .where('code_hash', '=', hashToken(body.code))
      .executeTakeFirst();
    expect(row).toMatchObject({ redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce.challenge, used_at: null });

    const payload = await redeem(body.code, pkce.verifier);
    expect(payload.statusCode, payload.body).toBe(200);
    expect(payload.headers['cache-control']).toBe('no-store');
    const user = await server().db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(payload.json()).toEqual({
      token: user.license_token,
      user: { id: user.id, username: displayName, email },
      subscription: null,
      credits: 0,
      // No plan and FREE_QUERIES_PER_MONTH 0: nothing left, and the free allowance renews with the UTC month.
      remaining: { allowance: 0, credits: 0, periodEnd: new Date(utcMonth(Date.now()).end).toISOString() },
      installId: expect.stringMatching(UUID),
      // The plugin said no versions: no update check.
      update: null,
    });
  });

  it("tells the plugin what is left: the period's allowance after its uses, pack credits (`credits` too) and the renewal", async () => {
    const { browser, pkce, email } = await pluginSignUp();
    const db = server().db;
    const user = await db.selectFrom('users').select(['id', 'license_token']).where('email', '=', email).executeTakeFirstOrThrow();
    // A plan of 2 queries a period, in a period the mirror knows, and a pack of 5 credits.
    const productId = `prod_${randomUUID()}`;
    const metadata = JSON.stringify({ credits_amount: '2' });
    await db
      .insertInto('billing_products')
      .values({ id: productId, name: 'Sage Pro', description: null, images: '[]', active: 1, metadata, synced_at: Date.now() })
      .execute();
    const now = Math.floor(Date.now() / 1000);
    const [periodStart, periodEnd] = [now - 86_400, now + 20 * 86_400];
    await db
      .insertInto('billing_subscriptions')
      .values(subscriptionRow(user.id, { product_id: productId, current_period_start: periodStart, current_period_end: periodEnd }))
      .execute();
    await db
      .insertInto('credit_ledger')
      .values({
        id: randomUUID(),
        user_id: user.id,
        amount: 5,
        reason: 'Credit pack',
        source: `checkout:cs_${randomUUID()}`,
        created_at: Date.now(),
      })
      .execute();
    const plugin = server().client({ authorization: `Bearer ${user.license_token}` });
    // 3 queries: the allowance's 2, then 1 credit.
    const used = await plugin.post('/api/ingest/usage', { requestId: randomUUID(), units: 3 });
    expect(used.statusCode, used.body).toBe(201);

    const { code } = await storePayload(browser);
    const payload = await redeem(code, pkce.verifier);
    expect(payload.statusCode, payload.body).toBe(200);
    const remaining: UsageRemaining = { allowance: 0, credits: 4, periodEnd: new Date(periodEnd * 1000).toISOString() };
    expect(payload.json()).toMatchObject({ credits: 4, remaining });
    // The same figures the plugin reads later with its license token.
    expect((await plugin.get('/api/usage/remaining')).json()).toEqual(remaining);
  });

  it('keeps the query of the loopback address and adds the code and state to it', async () => {
    const redirectUri = 'http://localhost:8123/sage/auth?session=abc';
    const { browser } = await pluginSignUp({ redirect_uri: redirectUri, state: 'st=1&x' });
    const { code, redirectUrl } = await storePayload(browser);
    const redirect = new URL(redirectUrl);
    expect(`${redirect.origin}${redirect.pathname}`).toBe('http://localhost:8123/sage/auth');
    expect(Object.fromEntries(redirect.searchParams)).toEqual({ session: 'abc', code, state: 'st=1&x' });
  });

  it('signs an existing Epic user in straight to /login_completed?client=ue and hands off', async () => {
    const { displayName, email } = await existingEpicUser(server());
    const pkce = pkcePair();
    const browser = server().client();
    const response = await signInWithEpic(browser, displayName, pluginLoginUrl({ code_challenge: pkce.challenge }));
    expect(location(response)).toBe('/login_completed?client=ue');
    expect((await browser.get('/api/auth/status')).json()).toMatchObject({ authenticated: true, ue: { enabled: true } });
    const { code } = await storePayload(browser);
    const payload = await redeem(code, pkce.verifier);
    expect(payload.statusCode).toBe(200);
    expect(payload.json()).toMatchObject({ user: { email, username: displayName } });
  });

  describe('GET /api/auth/ue-payload', () => {
    it('refuses a verifier that does not match, and the code is then spent', async () => {
      const { browser, pkce } = await pluginSignUp();
      const { code } = await storePayload(browser);
      const wrong = await redeem(code, pkcePair().verifier);
      expect(wrong.statusCode).toBe(400);
      expect(errorBody(wrong)).toEqual({ error: 'invalid_grant', message: 'The code verifier does not match the code challenge' });
      const right = await redeem(code, pkce.verifier);
      expect(right.statusCode).toBe(400);
      expect(errorBody(right)).toEqual(INVALID_CODE);
    });

    it('refuses the code of an account suspended after it was issued, and spends it', async () => {
      const { browser, pkce, email } = await pluginSignUp();
      const { code } = await storePayload(browser);
      await server().db.updateTable('users').set({ status: 'Suspended' }).where('email', '=', email).execute();
      const refused = await redeem(code, pkce.verifier);
      expect(refused.statusCode).toBe(403);
      expect(errorBody(refused)).toEqual({ error: 'account_suspended', message: 'This account is suspended. Please contact support.' });
      await server().db.updateTable('users').set({ status: 'Active' }).where('email', '=', email).execute();
      expect(errorBody(await redeem(code, pkce.verifier))).toEqual(INVALID_CODE);
    });

    it('refuses a code used before', async () => {
      const { browser, pkce } = await pluginSignUp();
      const { code } = await storePayload(browser);
      expect((await redeem(code, pkce.verifier)).statusCode).toBe(200);
      const again = await redeem(code, pkce.verifier);
      expect(again.statusCode).toBe(400);
      expect(errorBody(again)).toEqual(INVALID_CODE);
    });

    it('gives a code to one of two racing exchanges only', async () => {
      const { browser, pkce } = await pluginSignUp();
      const { code } = await storePayload(browser);
      const answers = await Promise.all([redeem(code, pkce.verifier), redeem(code, pkce.verifier), redeem(code, pkce.verifier)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    });

    it('refuses an expired code with The code has expired', async () => {
      const { browser, pkce } = await pluginSignUp();
      const { code } = await storePayload(browser);
      await server()
        .db.updateTable('plugin_hand_off_codes')
        .set({ expires_at: Date.now() - 1000 })
        .where('code_hash', '=', hashToken(code))
        .execute();
      const response = await redeem(code, pkce.verifier);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_grant', message: 'The code has expired' });
    });

    it('gives codes a lifetime of five minutes', async () => {
      const { browser } = await pluginSignUp();
      const before = Date.now();
      const { code } = await storePayload(browser);
      const row = await server()
        .db.selectFrom('plugin_hand_off_codes')
        .selectAll()
        .where('code_hash', '=', hashToken(code))
        .executeTakeFirstOrThrow();
      expect(row.expires_at - row.created_at).toBe(5 * 60_000);
      expect(row.created_at).toBeGreaterThanOrEqual(before);
    });

    it('refuses an unknown code', async () => {
      const response = await redeem('x'.repeat(43), pkcePair().verifier);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response)).toEqual(INVALID_CODE);
    });

    it.each([
      ['no code', undefined, 'v'.repeat(43), 'code is required'],
      ['an empty code', '', 'v'.repeat(43), 'code is required'],
      ['a code over 100 characters', 'c'.repeat(101), 'v'.repeat(43), 'code is too long'],
      ['no code_verifier', 'some-code', undefined, 'code_verifier is required'],
      [
        'a code_verifier of 42 characters',
        'some-code',
        'v'.repeat(42),
        'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~"',
      ],
      [
        'a code_verifier of 129 characters',
        'some-code',
        'v'.repeat(129),
        'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~"',
      ],
      [
        'a code_verifier with other characters',
        'some-code',
        `${'v'.repeat(42)}+`,
        'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~"',
      ],
    ])('answers 400 invalid_request to %s', async (_name, code, verifier, message) => {
      const response = await redeem(code, verifier);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_request', message });
    });

    it('is rate-limited per address of the client', async () => {
      for (let i = 0; i < 30; i++) expect((await redeem(`unknown-${i}`, pkcePair().verifier)).statusCode).toBe(400);
      const limited = await redeem('unknown-last', pkcePair().verifier);
      expect(limited.statusCode).toBe(429);
      expect(errorBody(limited)).toEqual({
        error: 'rate_limited',
        message: 'Too many code exchanges. Please wait a few minutes and try again.',
      });
    });
  });

  describe('POST /api/auth/ue-store-payload', () => {
    it('answers 401 when signed out', async () => {
      const response = await server().client().post('/api/auth/ue-store-payload');
      expect(response.statusCode).toBe(401);
      expect(errorBody(response)).toEqual({ error: 'unauthorized', message: 'Authentication required' });
    });

    it('answers 401 to a plugin flow that has not signed in yet', async () => {
      const browser = server().client();
      expect(location(await signInWithEpic(browser, uniqueDisplayName(), pluginLoginUrl()))).toBe('/epic_account_link?client=ue');
      expect((await browser.post('/api/auth/ue-store-payload')).statusCode).toBe(401);
    });

    it('answers 403 to a web sign-in, which has no plugin request', async () => {
      const { displayName } = await existingEpicUser(server());
      const browser = server().client();
      expect(location(await signInWithEpic(browser, displayName))).toBe('/login_completed?client=web');
      const response = await browser.post('/api/auth/ue-store-payload');
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(NO_HAND_OFF);

      const passwordUser = server().client();
      await passwordUser.register(uniqueEmail());
      expect(errorBody(await passwordUser.post('/api/auth/ue-store-payload'))).toEqual(NO_HAND_OFF);
    });

    it('answers 403 when the browser is now signed in as someone else', async () => {
      const { browser } = await pluginSignUp();
      const other = uniqueEmail('other');
      await server().client().register(other);
      expect((await browser.login(other)).statusCode).toBe(200);
      const response = await browser.post('/api/auth/ue-store-payload');
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(NO_HAND_OFF);
    });

    it('replaces an unused code with the next one', async () => {
      const { browser, pkce } = await pluginSignUp();
      const first = await storePayload(browser);
      const second = await storePayload(browser);
      expect(second.code).not.toBe(first.code);
      expect(errorBody(await redeem(first.code, pkce.verifier))).toEqual(INVALID_CODE);
      expect((await redeem(second.code, pkce.verifier)).statusCode).toBe(200);
    });
  });

  describe('POST /api/auth/ue-clear', () => {
    it('ends the hand-off: status turns ue off and store-payload answers 403', async () => {
      const { browser, email } = await pluginSignUp();
      const cleared = await browser.post('/api/auth/ue-clear');
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toEqual({ ok: true, message: 'Plugin hand-off finished' });
      expect((await browser.get('/api/auth/status')).json()).toEqual({
        authenticated: true,
        user: { email },
        ue: { enabled: false, status: 'success', message: 'Signed in' },
      });
      const response = await browser.post('/api/auth/ue-store-payload');
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toEqual(NO_HAND_OFF);
    });

    it('leaves a code already issued usable by the plugin', async () => {
      const { browser, pkce } = await pluginSignUp();
      const { code } = await storePayload(browser);
      expect((await browser.post('/api/auth/ue-clear')).statusCode).toBe(200);
      expect((await redeem(code, pkce.verifier)).statusCode).toBe(200);
    });

    it('answers ok without a flow', async () => {
      const response = await server().client().post('/api/auth/ue-clear');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true, message: 'Plugin hand-off finished' });
    });
  });

  describe('the install a hand-off records (issue 27)', () => {
    const installsOf = (userId: string) =>
      server().db.selectFrom('plugin_installs').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();

    it('records the engine and plugin versions said at the start, carried by the code, and gives the install its id', async () => {
      const { browser, pkce, email } = await pluginSignUp({ engineVersion: '5.4.2', pluginVersion: '1.3.0-beta' });
      const { code } = await storePayload(browser);
      const row = await server()
        .db.selectFrom('plugin_hand_off_codes')
        .selectAll()
        .where('code_hash', '=', hashToken(code))
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ engine_version: '5.4.2', plugin_version: '1.3.0-beta' });

      const before = Date.now();
      const payload = await redeem(code, pkce.verifier);
      expect(payload.statusCode, payload.body).toBe(200);
      const { installId } = payload.json<{ installId: string }>();
      expect(installId).toMatch(UUID);
      const user = await server().db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const [install, ...others] = await installsOf(user.id);
      expect(others).toEqual([]);
      expect(install).toMatchObject({ id: installId, engine_version: '5.4.2', plugin_version: '1.3.0-beta' });
      expect(install!.created_at).toBeGreaterThanOrEqual(before);
      expect(install!.last_used_at).toBe(install!.created_at);
    });

    it('records a plugin that says no versions without them', async () => {
      const { browser, pkce, email } = await pluginSignUp();
      const { code } = await storePayload(browser);
      expect((await redeem(code, pkce.verifier)).statusCode).toBe(200);
      const user = await server().db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      expect(await installsOf(user.id)).toEqual([expect.objectContaining({ engine_version: null, plugin_version: null })]);
    });

    it('keeps the install a plugin names when it signs in again (X-Sage-Install), with the versions it says now', async () => {
      const { displayName } = await existingEpicUser(server());
      const signIn = async (versions: Record<string, string>, headers: Record<string, string> = {}) => {
        const pkce = pkcePair();
        const browser = server().client();
        const url = pluginLoginUrl({ code_challenge: pkce.challenge, ...versions });
        expect(location(await signInWithEpic(browser, displayName, url))).toBe('/login_completed?client=ue');
        const { code } = await storePayload(browser);
        const payload = await redeem(code, pkce.verifier, headers);
        expect(payload.statusCode, payload.body).toBe(200);
        return payload.json<{ installId: string; user: { id: string } }>();
      };
      const first = await signIn({ engineVersion: '5.4', pluginVersion: '1.0.0' });
      const again = await signIn({ engineVersion: '5.5', pluginVersion: '1.1.0' }, { 'x-sage-install': first.installId });
      expect(again.installId).toBe(first.installId);
      expect(await installsOf(first.user.id)).toEqual([
        expect.objectContaining({ id: first.installId, engine_version: '5.5', plugin_version: '1.1.0' }),
      ]);

      // Without the header, or naming an install that is not this user's, it is another install.
      const other = await signIn({});
      const stranger = await signIn({}, { 'x-sage-install': '00000000-0000-4000-8000-000000000000' });
      const garbled = await signIn({}, { 'x-sage-install': 'not an id' });
      const ids = [first.installId, other.installId, stranger.installId, garbled.installId];
      expect(new Set(ids).size).toBe(4);
      expect((await installsOf(first.user.id)).map((i) => i.id).sort()).toEqual([...ids].sort());
    });

    it.each([
      ['an empty engineVersion', { engineVersion: '' }],
      ['an engineVersion over 32 characters', { engineVersion: '5'.repeat(33) }],
      ['a pluginVersion with a control character', { pluginVersion: '1.0\u0007' }],
    ])('refuses a start with %s: the browser lands on invalid_plugin_request', async (_name, versions) => {
      const response = await server()
        .client()
        .get(pluginLoginUrl({ code_challenge: pkcePair().challenge, ...versions }));
      expect(location(response)).toBe(failedWith('invalid_plugin_request'));
    });
  });

  describe('the update check in the payload (issue 41)', () => {
    /** A plugin sign-up saying `versions`, exchanged: the payload's `update`. */
    async function updateAfterSignIn(versions: Record<string, string>): Promise<UpdateCheck | null> {
      const { browser, pkce } = await pluginSignUp(versions);
      const { code } = await storePayload(browser);
      const payload = await redeem(code, pkce.verifier);
      expect(payload.statusCode, payload.body).toBe(200);
      return payload.json<{ update: UpdateCheck | null }>().update;
    }

    it('carries the answer GET /api/plugin/updates gives for the versions said at the start', async () => {
      const builds = await freshBuilds(server().db);
      await builds.releaseAll(testBuild('1.0.0'), testBuild('1.1.0', { required: true, notes: 'Fix' }), testBuild('1.2.0'));
      const update = await updateAfterSignIn({ engineVersion: '5.6.1', pluginVersion: '1.0.0' });
      expect(update).toMatchObject({
        engineVersion: '5.6',
        pluginVersion: '1.0.0',
        updateAvailable: true,
        required: true,
        reason: 'required_update',
        latest: { version: '1.2.0', downloadUrl: downloadUrl('1.2.0', '5.6') },
      });
      const checked = await server().client().get('/api/plugin/updates?engineVersion=5.6.1&pluginVersion=1.0.0');
      expect(update).toEqual(checked.json());

      await builds.withdraw('1.2.0', 'Broken', null);
      expect(await updateAfterSignIn({ engineVersion: '5.6', pluginVersion: '1.2.0' })).toMatchObject({
        required: true,
        reason: 'withdrawn',
        withdrawn: { version: '1.2.0', reason: 'Broken' },
        latest: { version: '1.1.0' },
      });
      expect(await updateAfterSignIn({ engineVersion: '5.6', pluginVersion: '1.1.0' })).toMatchObject({
        updateAvailable: false,
        required: false,
      });
    });

    it.each([
      ['no versions', {}],
      ['no plugin version', { engineVersion: '5.6' }],
      ['no engine version', { pluginVersion: '1.0.0' }],
      ['an engine no build ships for', { engineVersion: '4.27', pluginVersion: '1.0.0' }],
      ['a plugin version that is not one', { engineVersion: '5.6', pluginVersion: 'dev build' }],
    ])('is null for %s', async (_name, versions) => {
      const builds = await freshBuilds(server().db);
      await builds.releaseAll(testBuild('1.0.0'));
      expect(await updateAfterSignIn(versions)).toBeNull();
    });
  });
});
