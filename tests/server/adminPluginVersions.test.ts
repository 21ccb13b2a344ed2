import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PluginAdoption } from '../../contract/pluginAdoption';
import { insertUsers, listUsers, signedInAdmin, uniqueTag, userRow } from './adminFlow';
import { databases, useTestServer, type TestServer } from './harness';

const DAY_MS = 86_400_000;
const URLS = { ue55Url: 'https://cdn.test/55.zip', ue56Url: 'https://cdn.test/56.zip', ue57Url: 'https://cdn.test/57.zip' };

/** Versions newer than any the suite released before, and apart from every other test's. */
let counter = 0;
const freshVersions = () => {
  // A version's numbers have at most 9 digits: the time in two of them, and a count for the same millisecond.
  const now = Date.now();
  const stamp = `${Math.floor(now / 1e6)}.${(now % 1e6) * 10 + (counter++ % 10)}`;
  return { older: `${stamp}.1`, newer: `${stamp}.2` };
};

async function install(server: TestServer, userId: string, pluginVersion: string | null, lastUsedAt: number) {
  await server.db
    .insertInto('plugin_installs')
    .values({
      id: randomUUID(),
      user_id: userId,
      engine_version: '5.6',
      plugin_version: pluginVersion,
      created_at: lastUsedAt,
      last_used_at: lastUsedAt,
    })
    .execute();
}

async function use(server: TestServer, userId: string, pluginVersion: string | null, units: number, occurredAt: number, hold = false) {
  await server.db
    .insertInto('usage_events')
    .values({
      id: randomUUID(),
      user_id: userId,
      request_id: `req-${randomUUID()}`,
      fingerprint: 'f'.repeat(64),
      units,
      from_allowance: units,
      from_credits: 0,
      period_start: occurredAt,
      occurred_at: occurredAt,
      recorded_at: occurredAt,
      project_id: null,
      engine_version: '5.6',
      plugin_version: pluginVersion,
      model: 'sage-1',
      feature: 'chat',
      answer: '{}',
      hold_expires_at: hold ? occurredAt + DAY_MS : null,
    })
    .execute();
}

describe.each(databases)('plugin versions in the console (issue 41) on $label', (database) => {
  const server = useTestServer(database);

  it('counts installs and queries per plugin version over 30 days, newest first, withdrawn ones marked', async () => {
    const admin = await signedInAdmin(server());
    const { older, newer } = freshVersions();
    const tag = uniqueTag('adopt');
    const [a, b] = await insertUsers(server().db, [userRow({ username: `${tag}-a` }), userRow({ username: `${tag}-b` })]);
    const now = Date.now();
    await install(server(), a!.id, older, now - DAY_MS);
    await install(server(), b!.id, older, now - 2 * DAY_MS);
    await install(server(), b!.id, newer, now);
    await install(server(), a!.id, newer, now - 31 * DAY_MS); // called in too long ago
    await use(server(), a!.id, older, 3, now - DAY_MS);
    await use(server(), b!.id, older, 2, now - 5 * DAY_MS);
    await use(server(), b!.id, newer, 1, now);
    await use(server(), b!.id, newer, 9, now - 40 * DAY_MS); // too long ago
    await use(server(), b!.id, newer, 4, now, true); // a hold still open

    expect((await admin.client.post('/api/admin/release-sage-build', { version: older, ...URLS })).statusCode).toBe(200);
    expect((await admin.client.post('/api/admin/release-sage-build', { version: newer, ...URLS })).statusCode).toBe(200);
    const withdrawn = await admin.client.post(`/api/admin/builds/${older}/withdraw`, { reason: 'Crashes on start' });
    expect(withdrawn.statusCode).toBe(200);

    const response = await admin.client.get('/api/admin/plugin-versions');
    expect(response.statusCode).toBe(200);
    const adoption = response.json<PluginAdoption>();
    expect(adoption.days).toBe(30);
    const mine = adoption.versions.filter((entry) => entry.version === older || entry.version === newer);
    expect(mine).toEqual([
      { version: newer, withdrawn: false, installs: 1, uses: 1, units: 1 },
      { version: older, withdrawn: true, installs: 2, uses: 2, units: 5 },
    ]);
    // The release channel's order, not the text's: newest first; the unknown version, if any, last.
    const known = adoption.versions.filter((entry) => entry.version !== null).map((entry) => entry.version);
    expect(known.indexOf(newer)).toBeLessThan(known.indexOf(older));
    const unknown = adoption.versions.findIndex((entry) => entry.version === null);
    if (unknown !== -1) expect(unknown).toBe(adoption.versions.length - 1);
  });

  it('shows installs and queries that said no version as one unknown version', async () => {
    const admin = await signedInAdmin(server());
    const before = (await admin.client.get('/api/admin/plugin-versions')).json<PluginAdoption>();
    const unknownOf = (adoption: PluginAdoption) => adoption.versions.find((entry) => entry.version === null);
    const [user] = await insertUsers(server().db, [userRow({ username: uniqueTag('unknown') })]);
    await install(server(), user!.id, null, Date.now());
    await install(server(), user!.id, '', Date.now());
    await use(server(), user!.id, null, 2, Date.now());
    const after = (await admin.client.get('/api/admin/plugin-versions')).json<PluginAdoption>();
    expect(unknownOf(after)).toMatchObject({
      withdrawn: false,
      installs: (unknownOf(before)?.installs ?? 0) + 2,
      uses: (unknownOf(before)?.uses ?? 0) + 1,
      units: (unknownOf(before)?.units ?? 0) + 2,
    });
    expect(after.versions.at(-1)?.version).toBeNull();
  });

  it('filters the User List to the users with an install on a withdrawn build, with a search or without', async () => {
    const admin = await signedInAdmin(server());
    const { older, newer } = freshVersions();
    const tag = uniqueTag('moving');
    const [left, moved, never] = await insertUsers(server().db, [
      userRow({ username: `${tag}-left` }),
      userRow({ username: `${tag}-moved` }),
      userRow({ username: `${tag}-never` }),
    ]);
    await install(server(), left!.id, older, Date.now());
    await install(server(), left!.id, older, Date.now()); // two installs, listed once
    await install(server(), moved!.id, newer, Date.now());
    await install(server(), never!.id, 'not-a-release', Date.now());
    expect((await admin.client.post('/api/admin/release-sage-build', { version: older, ...URLS })).statusCode).toBe(200);
    expect((await admin.client.post('/api/admin/release-sage-build', { version: newer, ...URLS })).statusCode).toBe(200);

    const searched = async () => (await listUsers(admin.client, { filter: { q: tag, onWithdrawn: true } })).users.map((u) => u.username);
    expect(await searched()).toEqual([]);

    expect((await admin.client.post(`/api/admin/builds/${older}/withdraw`, { reason: 'Loses chats' })).statusCode).toBe(200);
    expect(await searched()).toEqual([`${tag}-left`]);

    const all = await listUsers(admin.client, { filter: { onWithdrawn: true }, range: [0, 999] });
    expect(all.users.map((u) => u.id)).toContain(left!.id);
    expect(all.users.map((u) => u.id)).not.toContain(moved!.id);
    expect(all.users.map((u) => u.id)).not.toContain(never!.id);
    expect(all.total).toBe(all.users.length);
    // With "No Epic link" too: both must hold.
    const both = await listUsers(admin.client, { filter: { q: tag, onWithdrawn: true, noEpic: true } });
    expect(both.users.map((u) => u.username)).toEqual([`${tag}-left`]);
  });

  it('refuses a filter onWithdrawn that is not true or false', async () => {
    const admin = await signedInAdmin(server());
    const response = await admin.client.get(`/api/admin/users?filter=${encodeURIComponent('{"onWithdrawn":"yes"}')}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.stringContaining('onWithdrawn must be true or false') });
  });
});
