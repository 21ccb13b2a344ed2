import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { PublicReleases, UpdateCheck } from '../../contract/builds';
import { PLUGIN_UPDATE_RATE_LIMITS } from '../../server/services/rateLimiter';
import { signedInAdmin } from './adminFlow';
import { databases, errorBody, useTestServer } from './harness';
import { downloadUrl, freshBuilds, testBuild } from './releaseFlow';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(databases)('the plugin update check on $label', (database) => {
  const server = useTestServer(database);

  const check = (query: string, headers: Record<string, string> = {}) => server().client(headers).get(`/api/plugin/updates?${query}`);
  const answer = async (engineVersion: string, pluginVersion: string): Promise<UpdateCheck> => {
    const response = await check(new URLSearchParams({ engineVersion, pluginVersion }).toString());
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UpdateCheck>();
  };
  const notesOf = (update: UpdateCheck) => update.releaseNotes.map((release) => [release.version, release.notes, release.required]);

  it('answers an install on the newest build: up to date, the build and its download for the engine', async () => {
    const builds = await freshBuilds(server().db);
    await builds.releaseAll(testBuild('1.0.0'), testBuild('1.1.0', { notes: '- Faster *search*' }));
    expect(await answer('5.6', '1.1.0')).toEqual({
      engineVersion: '5.6',
      pluginVersion: '1.1.0',
      updateAvailable: false,
      required: false,
      reason: null,
      latest: {
        version: '1.1.0',
        releasedAt: expect.stringMatching(ISO),
        notes: '- Faster *search*',
        required: false,
        downloads: [
          { engineVersion: '5.5', url: downloadUrl('1.1.0', '5.5') },
          { engineVersion: '5.6', url: downloadUrl('1.1.0', '5.6') },
          { engineVersion: '5.7', url: downloadUrl('1.1.0', '5.7') },
        ],
        downloadUrl: downloadUrl('1.1.0', '5.6'),
      },
      withdrawn: null,
      releaseNotes: [],
    });
    // The engine as the editor reports it ("5.6.1") is 5.6.
    expect((await answer('5.6.1', '1.1.0')).engineVersion).toBe('5.6');
  });

  it('tells an older install the newest build for its engine and the notes of every build since its own, newest first', async () => {
    const builds = await freshBuilds(server().db);
    await builds.releaseAll(
      testBuild('1.0.0'),
      testBuild('1.1.0', { notes: 'One' }),
      testBuild('1.2.0', { notes: 'Two', engines: ['5.7'] }),
      testBuild('1.3.0', { notes: 'Three' }),
    );
    const update = await answer('5.6', '1.0.0');
    expect(update).toMatchObject({ updateAvailable: true, required: false, reason: null, withdrawn: null });
    expect(update.latest).toMatchObject({ version: '1.3.0', downloadUrl: downloadUrl('1.3.0', '5.6') });
    // 1.2.0 does not ship for 5.6: not among its notes.
    expect(notesOf(update)).toEqual([
      ['1.3.0', 'Three', false],
      ['1.1.0', 'One', false],
    ]);
    // A version we never released, older than the newest (a developer's build): the same.
    expect(notesOf(await answer('5.6', '1.0.5'))).toEqual(notesOf(update));
    // One newer than anything released: nothing to do.
    expect(await answer('5.6', '2.0.0-beta')).toMatchObject({ updateAvailable: false, required: false, releaseNotes: [] });
  });

  it('requires the update when a required build is newer than the install, and only then', async () => {
    const builds = await freshBuilds(server().db);
    await builds.releaseAll(testBuild('1.0.0'), testBuild('1.1.0', { required: true, notes: 'Security fix' }), testBuild('1.2.0'));
    const old = await answer('5.5', '1.0.0');
    expect(old).toMatchObject({ updateAvailable: true, required: true, reason: 'required_update' });
    expect(old.latest?.version).toBe('1.2.0');
    expect(notesOf(old)).toEqual([
      ['1.2.0', 'Sage 1.2.0', false],
      ['1.1.0', 'Security fix', true],
    ]);
    // On the required build or later: an update, not a required one.
    expect(await answer('5.5', '1.1.0')).toMatchObject({ updateAvailable: true, required: false, reason: null });
  });

  it('tells an install on a withdrawn build to move, even to an older build, and why', async () => {
    const builds = await freshBuilds(server().db);
    await builds.releaseAll(testBuild('1.0.0', { notes: 'Stable' }), testBuild('1.1.0'));
    await builds.withdraw('1.1.0', 'Crashes on load', null);
    const update = await answer('5.6', '1.1.0');
    expect(update).toMatchObject({
      updateAvailable: true,
      required: true,
      reason: 'withdrawn',
      withdrawn: { version: '1.1.0', reason: 'Crashes on load' },
      latest: { version: '1.0.0', downloadUrl: downloadUrl('1.0.0', '5.6') },
    });
    expect(notesOf(update)).toEqual([['1.0.0', 'Stable', false]]);
    // The withdrawn build is offered to nobody.
    expect(await answer('5.6', '1.0.0')).toMatchObject({ updateAvailable: false, latest: { version: '1.0.0' } });

    // Withdrawn with nothing to move to: said, but no update to offer.
    await builds.withdraw('1.0.0', 'Also broken', null);
    expect(await answer('5.6', '1.0.0')).toMatchObject({
      updateAvailable: false,
      required: false,
      latest: null,
      withdrawn: { version: '1.0.0', reason: 'Also broken' },
    });
  });

  it('answers an engine no build ships for yet with no latest build', async () => {
    const builds = await freshBuilds(server().db);
    await builds.releaseAll(testBuild('1.0.0'));
    expect(await answer('5.4', '0.9.0')).toEqual({
      engineVersion: '5.4',
      pluginVersion: '0.9.0',
      updateAvailable: false,
      required: false,
      reason: null,
      latest: null,
      withdrawn: null,
      releaseNotes: [],
    });
  });

  it('lets a CDN and the plugin cache the answer: Cache-Control, an ETag, and a bodiless 304 on If-None-Match', async () => {
    const builds = await freshBuilds(server().db);
    await builds.releaseAll(testBuild('1.0.0'));
    const query = 'engineVersion=5.6&pluginVersion=1.0.0';
    const first = await check(query);
    expect(first.headers['cache-control']).toBe('public, max-age=300, stale-if-error=86400');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await check(query)).headers.etag).toBe(etag);

    const notModified = async (ifNoneMatch: string) => {
      const response = await check(query, { 'if-none-match': ifNoneMatch });
      expect(response.statusCode, ifNoneMatch).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('public, max-age=300, stale-if-error=86400');
    };
    await notModified(etag);
    await notModified(`W/${etag}`);
    await notModified(`"other", ${etag}`);
    const stale = await check(query, { 'if-none-match': '"other"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json<UpdateCheck>().pluginVersion).toBe('1.0.0');

    // A release changes the answer, so its ETag…
    await builds.releaseAll(testBuild('1.1.0'));
    const afterRelease = await check(query, { 'if-none-match': etag });
    expect(afterRelease.statusCode).toBe(200);
    expect(afterRelease.json<UpdateCheck>().updateAvailable).toBe(true);
    const releasedTag = afterRelease.headers.etag as string;
    expect(releasedTag).not.toBe(etag);
    // …and so does a withdrawal.
    await builds.withdraw('1.1.0', 'Broken', null);
    const afterWithdrawal = await check(query, { 'if-none-match': releasedTag });
    expect(afterWithdrawal.statusCode).toBe(200);
    expect(afterWithdrawal.headers.etag).not.toBe(releasedTag);
  });

  it.each(['5.8', '4.27', 'abc', '5', '5.6.1.2'])('refuses engine version %j: 400 unknown_engine_version', async (engineVersion) => {
    const response = await check(new URLSearchParams({ engineVersion, pluginVersion: '1.0.0' }).toString());
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toEqual({ error: 'unknown_engine_version', message: expect.stringContaining(engineVersion) });
  });

  it.each(['abc', '1.0.0 beta', 'v1.0', '1..0', '1.0.0-'])('refuses plugin version %j: 400 invalid_version', async (pluginVersion) => {
    const response = await check(new URLSearchParams({ engineVersion: '5.6', pluginVersion }).toString());
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toEqual({ error: 'invalid_version', message: expect.stringContaining('numbers separated by dots') });
  });

  it.each([
    ['no engineVersion', 'pluginVersion=1.0.0', 'engineVersion is required, like 5.6'],
    ['no pluginVersion', 'engineVersion=5.6', 'pluginVersion is required, like 1.4.0'],
    ['a pluginVersion over 50 characters', `engineVersion=5.6&pluginVersion=${'1'.repeat(51)}`, 'pluginVersion is too long'],
  ])('refuses %s with the validation error', async (_name, query, message) => {
    const response = await check(query);
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toEqual({ error: 'invalid_request', message: expect.stringContaining(message) });
  });

  it('limits each address: 429 with Retry-After past the limit, another address still answered', async () => {
    const { limit } = PLUGIN_UPDATE_RATE_LIMITS.perIp;
    const from = (remoteAddress: string): Promise<LightMyRequestResponse> =>
      server().app.inject({ method: 'GET', url: '/api/plugin/updates?engineVersion=5.8&pluginVersion=1.0.0', remoteAddress });
    // The cheapest answer (400 before any read) still counts.
    for (let i = 0; i < limit; i++) expect((await from('198.51.100.7')).statusCode).toBe(400);
    const limited = await from('198.51.100.7');
    expect(limited.statusCode).toBe(429);
    expect(errorBody(limited)).toEqual({ error: 'rate_limited', message: 'Too many update checks. Please slow down.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('198.51.100.8')).statusCode).toBe(400);
  });

  it('lists the builds offered, newest first, without withdrawn ones (GET /api/plugin/releases)', async () => {
    const builds = await freshBuilds(server().db);
    await builds.releaseAll(testBuild('1.0.0'), testBuild('1.1.0', { engines: ['5.7'] }), testBuild('1.2.0', { required: true }));
    await builds.withdraw('1.1.0', 'Broken', null);
    const response = await server().client().get('/api/plugin/releases');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    const { releases } = response.json<PublicReleases>();
    expect(releases.map((release) => [release.version, release.required])).toEqual([
      ['1.2.0', true],
      ['1.0.0', false],
    ]);
  });

  it('follows releases and withdrawals made in the admin console', async () => {
    await freshBuilds(server().db);
    const admin = await signedInAdmin(server());
    for (const build of [testBuild('3.0.0'), testBuild('3.1.0', { required: true, notes: 'Must have' })]) {
      const released = await admin.client.post('/api/admin/release-sage-build', build);
      expect(released.statusCode, released.body).toBe(200);
    }
    expect(await answer('5.7', '3.0.0')).toMatchObject({ updateAvailable: true, required: true, reason: 'required_update' });
    const withdrawn = await admin.client.post('/api/admin/builds/3.1.0/withdraw', { reason: 'Bad upload' });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await answer('5.7', '3.0.0')).toMatchObject({ updateAvailable: false, required: false, latest: { version: '3.0.0' } });
    expect(await answer('5.7', '3.1.0')).toMatchObject({
      required: true,
      reason: 'withdrawn',
      withdrawn: { version: '3.1.0', reason: 'Bad upload' },
    });
  });
});
