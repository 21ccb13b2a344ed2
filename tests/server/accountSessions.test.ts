/**
 * "Where you're signed in" (issue 27): GET /api/account/sessions, DELETE /api/account/sessions/{id},
 * POST /api/account/sessions/end-others and DELETE /api/account/installs/{id}, on both databases.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountSessions } from '../../contract/accountSessions';
import { hashToken } from '../../server/services/tokens';
import { existingEpicUser, location, pkcePair, pluginLoginUrl, signInWithEpic } from './epicFlow';
import { TestClient, buildExtraApp, databases, errorBody, uniqueEmail, useTestServer } from './harness';
import { downloadUrl, freshBuilds, testBuild } from './releaseFlow';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NO_SESSION = { error: 'not_found', message: 'You have no session with this id' };
const NO_INSTALL = { error: 'not_found', message: 'You have no plugin install with this id' };

describe.each(databases)("where you're signed in on $label", (database) => {
  const server = useTestServer(database);

  /** A new account signed in in one browser per user agent, the first registering. */
  async function signedInBrowsers(...userAgents: string[]) {
    const email = uniqueEmail('sessions');
    const browsers = userAgents.map((ua) => server().client({ 'user-agent': ua }));
    const [first, ...others] = browsers;
    await first!.register(email);
    for (const browser of others) expect((await browser.login(email)).statusCode).toBe(200);
    const user = await server().db.selectFrom('users').select(['id', 'email']).where('email', '=', email).executeTakeFirstOrThrow();
    return { email, user, browsers };
  }

  async function listed(browser: TestClient): Promise<AccountSessions> {
    const response = await browser.get('/api/account/sessions');
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  const signedIn = async (browser: TestClient) => (await browser.get('/api/user')).statusCode === 200;

  const auditOf = (action: string, targetId: string) =>
    server().db.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', targetId).execute();

  describe('GET /api/account/sessions', () => {
    it('lists every session, this browser first and marked current, with browser, OS, network and times', async () => {
      const before = Date.now();
      const { browsers } = await signedInBrowsers(FIREFOX_LINUX, CHROME_WINDOWS, SAFARI_IPHONE);
      const [firefox] = browsers;
      const { sessions, installs } = await listed(firefox!);
      expect(installs).toEqual([]);
      expect(sessions).toEqual([
        {
          id: expect.stringMatching(UUID),
          kind: 'browser',
          browser: 'Firefox',
          os: 'Linux',
          ipNetwork: '127.0.0.0/24',
          createdAt: expect.stringMatching(ISO),
          lastSeenAt: expect.stringMatching(ISO),
          current: true,
        },
        // The others newest first.
        expect.objectContaining({ browser: 'Safari', os: 'iOS', ipNetwork: '127.0.0.0/24', current: false }),
        expect.objectContaining({ browser: 'Chrome', os: 'Windows', current: false }),
      ]);
      expect(new Set(sessions.map((s) => s.id)).size).toBe(3);
      expect(Date.parse(sessions[0]!.createdAt)).toBeGreaterThanOrEqual(before - 1);

      // Another browser sees the same sessions with its own marked.
      const fromChrome = await listed(browsers[1]!);
      expect(fromChrome.sessions.map((s) => [s.browser, s.current])).toEqual([
        ['Chrome', true],
        ['Safari', false],
        ['Firefox', false],
      ]);
    });

    it('never shows a token or its hash', async () => {
      const { browsers } = await signedInBrowsers(FIREFOX_LINUX, CHROME_WINDOWS);
      const response = await browsers[0]!.get('/api/account/sessions');
      for (const browser of browsers) {
        expect(response.body).not.toContain(browser.session!);
        expect(response.body).not.toContain(hashToken(browser.session!));
      }
    });

    it("lists only this user's sessions that still sign in", async () => {
      const { user, browsers } = await signedInBrowsers(FIREFOX_LINUX, CHROME_WINDOWS, SAFARI_IPHONE);
      await signedInBrowsers(FIREFOX_LINUX); // someone else
      const db = server().db;
      const now = Date.now();
      await db
        .updateTable('sessions')
        .set({ expires_at: now - 1 })
        .where('token_hash', '=', hashToken(browsers[1]!.session!))
        .execute();
      await db
        .updateTable('sessions')
        .set({ last_seen_at: now - server().config.sessionIdleMs - 1 })
        .where('token_hash', '=', hashToken(browsers[2]!.session!))
        .execute();
      const { sessions } = await listed(browsers[0]!);
      expect(sessions.map((s) => s.browser)).toEqual(['Firefox']);
      expect(await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(3);
    });

    it('says Unknown for a session from before, and gives an id to one a previous release started without it', async () => {
      const { browsers } = await signedInBrowsers(FIREFOX_LINUX, CHROME_WINDOWS);
      const other = hashToken(browsers[1]!.session!);
      await server()
        .db.updateTable('sessions')
        .set({ id: null, user_agent: null, ip_network: null })
        .where('token_hash', '=', other)
        .execute();
      const first = (await listed(browsers[0]!)).sessions[1]!;
      expect(first).toMatchObject({ id: expect.stringMatching(UUID), browser: 'Unknown', os: 'Unknown', ipNetwork: null, current: false });
      // The id it was given stays, and it ends the session like any other.
      expect((await listed(browsers[0]!)).sessions[1]!.id).toBe(first.id);
      expect((await browsers[0]!.request('DELETE', `/api/account/sessions/${first.id}`)).statusCode).toBe(200);
      expect(await signedIn(browsers[1]!)).toBe(false);
    });

    it('records the network of the client a trusted proxy names (TRUST_PROXY)', async () => {
      const app = await buildExtraApp(server().db, { TRUST_PROXY: '1' });
      try {
        const browser = new TestClient(app, { 'user-agent': CHROME_WINDOWS, 'x-forwarded-for': '2001:db8:abcd:12::7' });
        await browser.register(uniqueEmail('proxied'));
        const { sessions } = await listed(browser);
        expect(sessions).toEqual([expect.objectContaining({ ipNetwork: '2001:db8:abcd::/48', current: true })]);
      } finally {
        await app.close();
      }
    });
  });

  describe('DELETE /api/account/sessions/{id}', () => {
    it('ends another session of mine: that browser is signed out, this one is not, and it is audited', async () => {
      const { user, browsers } = await signedInBrowsers(FIREFOX_LINUX, CHROME_WINDOWS);
      const [mine, theirs] = browsers;
      const other = (await listed(mine!)).sessions.find((s) => !s.current)!;
      const response = await mine!.request('DELETE', `/api/account/sessions/${other.id}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true, signedOut: false });
      expect(response.cookies).toEqual([]);
      expect(await signedIn(mine!)).toBe(true);
      expect(await signedIn(theirs!)).toBe(false);
      expect((await listed(mine!)).sessions.map((s) => s.id)).not.toContain(other.id);

      expect(await auditOf('account.session.end', other.id)).toEqual([
        expect.objectContaining({ actor_id: user.id, actor_email: user.email, target_type: 'session', after_json: '{"current":false}' }),
      ]);
      // Ended already: nothing of mine has that id any more.
      const again = await mine!.request('DELETE', `/api/account/sessions/${other.id}`);
      expect(again.statusCode).toBe(404);
      expect(errorBody(again)).toEqual(NO_SESSION);
    });

    it("ending this browser's own session signs it out and clears its cookie", async () => {
      const { browsers } = await signedInBrowsers(FIREFOX_LINUX, CHROME_WINDOWS);
      const [mine, theirs] = browsers;
      const current = (await listed(mine!)).sessions.find((s) => s.current)!;
      const response = await mine!.request('DELETE', `/api/account/sessions/${current.id}`);
      expect(response.json()).toEqual({ ok: true, signedOut: true });
      expect(response.cookies).toEqual([expect.objectContaining({ name: 'sage_session', value: '' })]);
      expect(mine!.session).toBeUndefined();
      expect(await signedIn(mine!)).toBe(false);
      expect(await signedIn(theirs!)).toBe(true);
    });

    it("answers 404 for another user's session, which goes on", async () => {
      const { browsers } = await signedInBrowsers(FIREFOX_LINUX);
      const stranger = await signedInBrowsers(CHROME_WINDOWS);
      const theirs = (await listed(stranger.browsers[0]!)).sessions[0]!;
      for (const id of [theirs.id, randomUUID()]) {
        const response = await browsers[0]!.request('DELETE', `/api/account/sessions/${id}`);
        expect(response.statusCode).toBe(404);
        expect(errorBody(response)).toEqual(NO_SESSION);
      }
      expect(await signedIn(stranger.browsers[0]!)).toBe(true);
      expect(await auditOf('account.session.end', theirs.id)).toEqual([]);
    });

    it('answers 404 for an id this server never gives', async () => {
      const { browsers } = await signedInBrowsers(FIREFOX_LINUX);
      const response = await browsers[0]!.request('DELETE', '/api/account/sessions/not-an-id');
      expect(response.statusCode).toBe(404);
      expect(errorBody(response)).toEqual(NO_SESSION);
    });
  });

  describe('POST /api/account/sessions/end-others', () => {
    it('signs out everywhere else, says how many, keeps this browser, and is audited', async () => {
      const { user, browsers } = await signedInBrowsers(FIREFOX_LINUX, CHROME_WINDOWS, SAFARI_IPHONE);
      const stranger = await signedInBrowsers(FIREFOX_LINUX);
      const [mine, ...others] = browsers;
      const response = await mine!.post('/api/account/sessions/end-others');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true, ended: 2 });
      expect(await signedIn(mine!)).toBe(true);
      for (const browser of others) expect(await signedIn(browser)).toBe(false);
      expect(await signedIn(stranger.browsers[0]!)).toBe(true);
      expect((await listed(mine!)).sessions).toEqual([expect.objectContaining({ current: true })]);
      expect(await auditOf('account.sessions.end_others', user.id)).toEqual([
        expect.objectContaining({ actor_id: user.id, target_type: 'user', after_json: '{"ended":2}' }),
      ]);

      // Nothing else left: 0.
      expect((await mine!.post('/api/account/sessions/end-others')).json()).toEqual({ ok: true, ended: 0 });
    });
  });

  describe('plugin installs', () => {
    /** A plugin sign-in of an Epic user in `browser`, saying its versions; answers the payload. */
    async function pluginSignIn(browser: TestClient, displayName: string, versions: Record<string, string>) {
      const pkce = pkcePair();
      const landed = await signInWithEpic(browser, displayName, pluginLoginUrl({ code_challenge: pkce.challenge, ...versions }));
      expect(location(landed)).toBe('/login_completed?client=ue');
      const { code } = (await browser.post('/api/auth/ue-store-payload')).json<{ code: string }>();
      const payload = await server().client().get(`/api/auth/ue-payload?code=${code}&code_verifier=${pkce.verifier}`);
      expect(payload.statusCode, payload.body).toBe(200);
      return payload.json<{ token: string; installId: string; user: { id: string } }>();
    }

    it('lists the install the hand-off recorded, with its versions, beside the Epic session', async () => {
      const { displayName } = await existingEpicUser(server());
      const browser = server().client({ 'user-agent': CHROME_WINDOWS });
      const payload = await pluginSignIn(browser, displayName, { engineVersion: '5.4.2', pluginVersion: '1.3.0' });
      const { sessions, installs } = await listed(browser);
      expect(installs).toEqual([
        {
          id: payload.installId,
          engineVersion: '5.4.2',
          pluginVersion: '1.3.0',
          // No build released in this suite's database: nothing to compare with.
          update: { status: 'unknown', latestVersion: null, downloadUrl: null, required: false },
          createdAt: expect.stringMatching(ISO),
          lastUsedAt: expect.stringMatching(ISO),
        },
      ]);
      // The Epic sign-in's session is recorded like any other (existingEpicUser's sign-up browser is the other one).
      expect(sessions[0]).toMatchObject({ browser: 'Chrome', os: 'Windows', ipNetwork: '127.0.0.0/24', current: true });
      expect(sessions).toHaveLength(2);
    });

    it.each([
      ['GET /api/license', (plugin: TestClient) => plugin.get('/api/license')],
      ['GET /api/usage/remaining', (plugin: TestClient) => plugin.get('/api/usage/remaining')],
      ['POST /api/ingest/usage', (plugin: TestClient) => plugin.post('/api/ingest/usage', { requestId: randomUUID() })],
    ])('a token call naming the install (%s) moves its last use, at most once a minute', async (_name, call) => {
      const { displayName } = await existingEpicUser(server());
      const browser = server().client();
      const payload = await pluginSignIn(browser, displayName, {});
      const db = server().db;
      const longAgo = Date.now() - 10 * 60_000;
      const setLastUse = (at: number) =>
        db.updateTable('plugin_installs').set({ last_used_at: at }).where('id', '=', payload.installId).execute();
      const lastUse = async () =>
        (await db.selectFrom('plugin_installs').select('last_used_at').where('id', '=', payload.installId).executeTakeFirstOrThrow())
          .last_used_at;
      await setLastUse(longAgo);

      // Without the header, the token says nothing of the install.
      const bearer = { authorization: `Bearer ${payload.token}` };
      expect((await call(server().client(bearer))).statusCode).toBeLessThan(500);
      expect(await lastUse()).toBe(longAgo);

      const before = Date.now();
      const plugin = server().client({ ...bearer, 'x-sage-install': payload.installId });
      expect((await call(plugin)).statusCode).toBeLessThan(500);
      expect(await lastUse()).toBeGreaterThanOrEqual(before);
      expect((await listed(browser)).installs[0]!.lastUsedAt).toBe(new Date(await lastUse()).toISOString());

      // Within the minute this instance writes nothing more.
      await setLastUse(longAgo);
      await call(plugin);
      expect(await lastUse()).toBe(longAgo);
    });

    it('says of each install whether its build is current, out of date (required or not), withdrawn, or unknown (issue 41)', async () => {
      const builds = await freshBuilds(server().db);
      await builds.releaseAll(
        testBuild('1.0.0'),
        testBuild('1.1.0', { required: true }),
        testBuild('1.2.0'),
        testBuild('1.3.0', { engines: ['5.7'] }),
      );
      await builds.withdraw('1.3.0', 'Broken', null);
      const { browsers, user } = await signedInBrowsers(FIREFOX_LINUX);
      const versions: [string | null, string | null][] = [
        ['5.6', '1.2.0'],
        ['5.6.1', '1.1.0'],
        ['5.5', '1.0.0'],
        ['5.7', '1.3.0'],
        ['5.4', '1.0.0'],
        ['4.27', '1.0.0'],
        ['5.6', 'nightly'],
        [null, null],
      ];
      const now = Date.now();
      await server()
        .db.insertInto('plugin_installs')
        .values(
          versions.map(([engine, plugin], i) => ({
            id: randomUUID(),
            user_id: user.id,
            engine_version: engine,
            plugin_version: plugin,
            created_at: now,
            last_used_at: now - i * 1000,
          })),
        )
        .execute();
      const latest = (engine: '5.6' | '5.5' | '5.7') => ({ latestVersion: '1.2.0', downloadUrl: downloadUrl('1.2.0', engine) });
      const unknown = { status: 'unknown', latestVersion: null, downloadUrl: null, required: false };
      expect((await listed(browsers[0]!)).installs.map((install) => install.update)).toEqual([
        { status: 'current', ...latest('5.6'), required: false },
        { status: 'out_of_date', ...latest('5.6'), required: false },
        { status: 'out_of_date', ...latest('5.5'), required: true },
        { status: 'withdrawn', ...latest('5.7'), required: true },
        unknown,
        unknown,
        unknown,
        unknown,
      ]);
    });

    it("a token call naming another user's install changes nothing", async () => {
      const { displayName } = await existingEpicUser(server());
      const theirs = await pluginSignIn(server().client(), displayName, {});
      const other = await existingEpicUser(server());
      const mine = await pluginSignIn(server().client(), other.displayName, {});
      const longAgo = Date.now() - 10 * 60_000;
      await server().db.updateTable('plugin_installs').set({ last_used_at: longAgo }).where('id', '=', theirs.installId).execute();
      const plugin = server().client({ authorization: `Bearer ${mine.token}`, 'x-sage-install': theirs.installId });
      expect((await plugin.get('/api/usage/remaining')).statusCode).toBe(200);
      const row = await server()
        .db.selectFrom('plugin_installs')
        .select('last_used_at')
        .where('id', '=', theirs.installId)
        .executeTakeFirstOrThrow();
      expect(row.last_used_at).toBe(longAgo);
    });

    it("forgets an install of mine (audited), and answers 404 for another user's", async () => {
      const { displayName } = await existingEpicUser(server());
      const browser = server().client();
      const payload = await pluginSignIn(browser, displayName, { engineVersion: '5.5', pluginVersion: '2.0.0' });
      const stranger = await existingEpicUser(server());
      const strangerBrowser = server().client();
      const theirs = await pluginSignIn(strangerBrowser, stranger.displayName, {});

      const refused = await browser.request('DELETE', `/api/account/installs/${theirs.installId}`);
      expect(refused.statusCode).toBe(404);
      expect(errorBody(refused)).toEqual(NO_INSTALL);
      expect((await listed(strangerBrowser)).installs).toHaveLength(1);

      const response = await browser.request('DELETE', `/api/account/installs/${payload.installId}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      expect((await listed(browser)).installs).toEqual([]);
      expect(await auditOf('account.install.forget', payload.installId)).toEqual([
        expect.objectContaining({
          actor_id: payload.user.id,
          target_type: 'plugin_install',
          before_json: '{"engineVersion":"5.5","pluginVersion":"2.0.0"}',
        }),
      ]);
      // The token is the user's one license token: forgetting an install signs no plugin out.
      expect(
        (
          await server()
            .client({ authorization: `Bearer ${payload.token}` })
            .get('/api/license')
        ).statusCode,
      ).toBe(200);
      expect((await browser.request('DELETE', `/api/account/installs/${payload.installId}`)).statusCode).toBe(404);
    });
  });

  it.each([
    ['GET', '/api/account/sessions'],
    ['DELETE', `/api/account/sessions/${randomUUID()}`],
    ['POST', '/api/account/sessions/end-others'],
    ['DELETE', `/api/account/installs/${randomUUID()}`],
  ] as const)('answers 401 to %s %s when signed out', async (method, url) => {
    const response = await server().client().request(method, url);
    expect(response.statusCode).toBe(401);
    expect(errorBody(response)).toEqual({ error: 'unauthorized', message: 'Authentication required' });
  });
});
