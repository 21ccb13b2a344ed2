import { ROLE_REFUSAL } from '../../contract/staffRoles';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, RELEASE_FIELDS_REQUIRED, SEARCH_TERM_REQUIRED, USER_FIELDS_REQUIRED, type AdminUser } from '../../contract/admin';
import {
  auditLog,
  contentRangeOf,
  del,
  insertUsers,
  listUsers as list,
  pageRange,
  put,
  signedInAdmin,
  signedInUser,
  tick,
  uniqueTag,
  userRow,
} from './adminFlow';
import { ERASED } from '../../server/services/account/deletionRules';
import { databases, errorBody, useTestServer, type TestClient } from './harness';

const HOUR = 3_600_000;

const usernames = (users: AdminUser[]) => users.map((u) => u.username);

async function search(admin: TestClient, term: string): Promise<AdminUser[]> {
  const response = await admin.get(`/api/admin/users/search?query=${encodeURIComponent(term)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AdminUser[]>();
}

describe.each(databases)('admin users on $label', (database) => {
  const server = useTestServer(database);

  it('pages through the matching users with their total, without overlap or gaps', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const base = Date.now() - 10 * HOUR;
    // Three share a creation time: the id breaks the tie, so no page repeats or skips one.
    const rows = await insertUsers(
      server().db,
      [0, 1, 2, 3, 3, 3, 4].map((n, i) => userRow({ username: `${tag}-${i}`, created_at: base + n * HOUR })),
    );

    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const { users, total } = await list(admin.client, { filter: { q: tag }, range: pageRange(page, 3) });
      expect(total).toBe(7);
      expect(users).toHaveLength(page < 3 ? 3 : 1);
      seen.push(...users.map((u) => u.id));
    }
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort()).toEqual(rows.map((r) => r.id).sort());
    // Newest first by default.
    expect(seen[0]).toBe(rows[6]!.id);
    expect(seen[6]).toBe(rows[0]!.id);
    expect(await list(admin.client, { filter: { q: tag }, range: pageRange(4, 3) })).toEqual({ users: [], total: 7 });
  });

  it('still answers a plain list of users, without any license token (issue 36), when given no parameters', async () => {
    const admin = await signedInAdmin(server());
    const response = await admin.client.get('/api/admin/users');
    expect(response.statusCode).toBe(200);
    const users = response.json<AdminUser[]>();
    expect(Array.isArray(users) && users.length <= 25 && users.length > 0).toBe(true);
    const row = await server().db.selectFrom('users').selectAll().where('id', '=', admin.id).executeTakeFirstOrThrow();
    const total = await server()
      .db.selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(contentRangeOf(response)).toEqual({ resource: 'users', first: 0, last: users.length - 1, total: Number(total.n) });
    // The admin registered last, so is on the first page.
    const [createdAt, updatedAt] = [row.created_at, row.updated_at].map((ms) => new Date(ms).toISOString());
    expect(users.find((u) => u.id === admin.id)).toEqual({
      ...{ id: admin.id, username: row.username, email: admin.email, status: 'Active', isAdmin: true, role: 'admin' },
      ...{ epicDisplayName: null, createdAt, updatedAt },
    });
  });

  it('sorts by username case-insensitively, by e-mail and by creation time, both ways', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const base = Date.now() - 5 * HOUR;
    await insertUsers(server().db, [
      userRow({ username: `${tag}-charlie`, email: `${tag}.b@example.com`, created_at: base + 1 }),
      userRow({ username: `${tag}-Bravo`, email: `${tag}.d@example.com`, created_at: base + 3 }),
      userRow({ username: `${tag}-DELTA`, email: `${tag}.a@example.com`, created_at: base + 2 }),
      userRow({ username: `${tag}-alpha`, email: `${tag}.c@example.com`, created_at: base + 4 }),
    ]);
    const byName = [`${tag}-alpha`, `${tag}-Bravo`, `${tag}-charlie`, `${tag}-DELTA`];
    expect(usernames((await list(admin.client, { filter: { q: tag }, sort: ['username', 'ASC'] })).users)).toEqual(byName);
    expect(usernames((await list(admin.client, { filter: { q: tag }, sort: ['username', 'DESC'] })).users)).toEqual([...byName].reverse());

    const byEmail = [`${tag}-DELTA`, `${tag}-charlie`, `${tag}-alpha`, `${tag}-Bravo`];
    expect(usernames((await list(admin.client, { filter: { q: tag }, sort: ['email', 'ASC'] })).users)).toEqual(byEmail);
    expect(usernames((await list(admin.client, { filter: { q: tag }, sort: ['email', 'DESC'] })).users)).toEqual([...byEmail].reverse());

    const byCreation = [`${tag}-charlie`, `${tag}-DELTA`, `${tag}-Bravo`, `${tag}-alpha`];
    expect(usernames((await list(admin.client, { filter: { q: tag }, sort: ['createdAt', 'ASC'] })).users)).toEqual(byCreation);
    expect(usernames((await list(admin.client, { filter: { q: tag }, sort: ['createdAt', 'DESC'] })).users)).toEqual(
      [...byCreation].reverse(),
    );
  });

  it('reads every page of the whole list as the same slice of one long page, by each sort both ways, across ties', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const at = Date.now() - 7 * HOUR;
    // Twelve users tie on every sort key (same name but for case, same creation time, no e-mail):
    // only the id orders them, and page boundaries fall among them.
    await insertUsers(
      server().db,
      Array.from({ length: 12 }, (_, i) => userRow({ username: i % 2 ? `${tag}-twin` : `${tag}-TWIN`, email: null, created_at: at })),
    );
    for (const field of ['username', 'email', 'createdAt']) {
      for (const order of ['ASC', 'DESC'] as const) {
        const sort = [field, order] as const;
        const whole = await list(admin.client, { sort, range: [0, 999] });
        expect(whole.users.length).toBe(whole.total);
        const paged: string[] = [];
        for (let page = 1; ; page += 1) {
          const { users, total } = await list(admin.client, { sort, range: pageRange(page, 5) });
          expect(total).toBe(whole.total);
          if (users.length === 0) break;
          paged.push(...users.map((u) => u.id));
        }
        expect(paged, `${field} ${order}`).toEqual(whole.users.map((u) => u.id));
      }
    }
  });

  it('finds users by the start or any part of the username or e-mail, in any case, or by their exact id', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const mailTag = uniqueTag('m');
    const [named, mailed, other] = await insertUsers(server().db, [
      userRow({ username: `${tag}-Named`, email: `x-${tag}@example.com` }),
      userRow({ username: 'Mailed', email: `${mailTag}.mailed@example.com` }),
      userRow({ username: `x-${uniqueTag()}`, email: `y-${uniqueTag()}@example.com` }),
    ]);

    for (const q of [tag, tag.toUpperCase(), `${tag}-nAM`, tag.slice(2)]) {
      expect((await list(admin.client, { filter: { q } })).users.map((u) => u.id)).toEqual([named!.id]);
      expect((await search(admin.client, q)).map((u) => u.id)).toEqual([named!.id]);
    }
    for (const q of [mailTag, `${mailTag.toUpperCase()}.MAILED@`, `${mailTag.slice(3)}.mai`]) {
      expect((await list(admin.client, { filter: { q } })).users.map((u) => u.id)).toEqual([mailed!.id]);
      expect((await search(admin.client, q)).map((u) => u.id)).toEqual([mailed!.id]);
    }
    expect((await list(admin.client, { filter: { q: other!.id } })).users.map((u) => u.id)).toEqual([other!.id]);
    expect((await search(admin.client, other!.id)).map((u) => u.id)).toEqual([other!.id]);
    // An id matches whole: its start finds nothing.
    expect(await search(admin.client, other!.id.slice(0, 8))).toEqual([]);
  });

  it('takes punctuation in a search literally: . _ % are no wildcards', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    await insertUsers(
      server().db,
      ['john.doe', 'johnXdoe', 'john doe', 'a_b', 'axb', 'a%b', 'aXYb'].map((name) => userRow({ username: `${tag}${name}` })),
    );
    const expectations: [string, string[]][] = [
      ['john.d', ['john.doe']],
      ['a_', ['a_b']],
      ['a%', ['a%b']],
      ['a%b', ['a%b']],
    ];
    for (const [prefix, names] of expectations) {
      const expected = names.map((n) => `${tag}${n}`);
      expect(usernames((await list(admin.client, { filter: { q: `${tag}${prefix}` } })).users), prefix).toEqual(expected);
      expect(usernames(await search(admin.client, `${tag}${prefix}`)), prefix).toEqual(expected);
    }
  });

  it('finds a name that starts with a non-ASCII capital, in any case', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const [elodie] = await insertUsers(server().db, [userRow({ username: `${tag}-Élodie` }), userRow({ username: `${tag}-Zoe` })]);
    for (const q of [`${tag}-Élo`, `${tag}-élo`]) {
      expect(
        (await search(admin.client, q)).map((u) => u.id),
        q,
      ).toEqual([elodie!.id]);
    }
  });

  it('refuses paging and sorting it does not offer, saying what is wrong', async () => {
    const admin = await signedInAdmin(server());
    // More of the list dialect's refusals (filter, audit): adminListWire.test.ts.
    const cases: [string, string, string][] = [
      ['range', '[0,-1]', 'range must not be negative'],
      ['range', '[5,4]', 'range must not end before it starts'],
      ['range', '[0,1000]', 'range must cover at most 1000 rows'],
      ['range', '[-25,-1]', 'range must not be negative'],
      ['range', '["a","b"]', 'range must be two row numbers, like [0,24]'],
      ['sort', '["unknown","ASC"]', 'sort field must be one of createdAt, username, email'],
      ['sort', '["username","x"]', 'sort order must be ASC or DESC'],
    ];
    for (const [name, value, message] of cases) {
      const query = `${name}=${encodeURIComponent(value)}`;
      const response = await admin.client.get(`/api/admin/users?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(errorBody(response), query).toEqual({ error: 'invalid_request', message });
    }
  });

  it('asks for a search term and answers at most 50 users', async () => {
    const admin = await signedInAdmin(server());
    for (const term of ['', '   ']) {
      const response = await admin.client.get(`/api/admin/users/search?query=${encodeURIComponent(term)}`);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_request', message: SEARCH_TERM_REQUIRED });
    }
    const tag = uniqueTag();
    await insertUsers(
      server().db,
      Array.from({ length: 60 }, (_, i) => userRow({ username: `${tag}-${String(i).padStart(2, '0')}` })),
    );
    const found = await search(admin.client, tag);
    expect(found).toHaveLength(50);
    expect(usernames(found)).toEqual(Array.from({ length: 50 }, (_, i) => `${tag}-${String(i).padStart(2, '0')}`));
  });

  it('shows one user, and answers 404 for an unknown id', async () => {
    const admin = await signedInAdmin(server());
    const [row] = await insertUsers(server().db, [userRow({ epic_display_name: 'Epic Name', status: 'Suspended' })]);
    const response = await admin.client.get(`/api/admin/users/${row!.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: row!.id,
      username: row!.username,
      epicDisplayName: 'Epic Name',
      status: 'Suspended',
      isAdmin: false,
    });

    for (const path of ['/api/admin/users/no-such-user', '/api/admin/users/no-such-user/ai-history']) {
      const missing = await admin.client.get(path);
      expect(missing.statusCode).toBe(404);
      expect(errorBody(missing)).toEqual({ error: 'not_found', message: ADMIN_MESSAGES.userNotFound });
    }
    const update = await put(admin.client, '/api/admin/users/no-such-user', { username: 'x', email: 'x@example.com' });
    expect(update.statusCode).toBe(404);
    expect((await del(admin.client, '/api/admin/users/no-such-user')).statusCode).toBe(404);
  });

  it('refuses an edit without username or e-mail, with a bad e-mail, or with another user’s e-mail', async () => {
    const admin = await signedInAdmin(server());
    const [row, other] = await insertUsers(server().db, [userRow(), userRow()]);
    const url = `/api/admin/users/${row!.id}`;
    const required = [
      { email: 'a@example.com' },
      { username: 'a' },
      { username: '', email: 'a@example.com' },
      { username: '  ', email: 'a@example.com' },
      { username: 'a', email: '' },
    ];
    for (const body of required) {
      const response = await put(admin.client, url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_request', message: USER_FIELDS_REQUIRED });
    }
    const invalid = await put(admin.client, url, { username: 'a', email: 'not-an-email' });
    expect(invalid.statusCode).toBe(400);
    expect(errorBody(invalid)).toEqual({ error: 'invalid_request', message: 'Invalid email address' });

    const taken = await put(admin.client, url, { username: 'a', email: other!.email!.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(errorBody(taken)).toEqual({ error: 'email_taken', message: ADMIN_MESSAGES.emailTaken });

    const unchanged = await server().db.selectFrom('users').selectAll().where('id', '=', row!.id).executeTakeFirstOrThrow();
    expect(unchanged).toMatchObject(row!);
  });

  it('updates username, e-mail and the admin flag, and answers the user; a status sent is ignored (decision 029)', async () => {
    const admin = await signedInAdmin(server());
    const member = await signedInUser(server());
    await server().db.updateTable('users').set({ email_verified_at: Date.now() }).where('id', '=', member.id).execute();
    const email = `Renamed-${uniqueTag()}@Example.com`;

    const response = await put(admin.client, `/api/admin/users/${member.id}`, {
      username: '  Renamed  ',
      email,
      status: 'Suspended',
      isAdmin: true,
    });
    expect(response.statusCode).toBe(200);
    const updated = response.json<AdminUser>();
    expect(updated).toMatchObject({ id: member.id, username: 'Renamed', email: email.toLowerCase(), status: 'Active', isAdmin: true });
    expect((await admin.client.get(`/api/admin/users/${member.id}`)).json()).toEqual(updated);
    // A changed address is no longer the verified one.
    const row = await server().db.selectFrom('users').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBeNull();
    expect(JSON.stringify(updated)).not.toContain(row.license_token);
    // Promoted: the member's own session now opens the console.
    expect((await member.client.get('/api/admin/grove-metrics')).statusCode).toBe(200);
  });

  it('sets a member of staff’s role: support can then read but not release; a demotion clears it; the audit says both', async () => {
    const admin = await signedInAdmin(server());
    const member = await signedInUser(server());
    const edit = (changes: object) =>
      put(admin.client, `/api/admin/users/${member.id}`, { username: 'helper', email: member.email, ...changes });

    const promoted = await edit({ isAdmin: true, role: 'support' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json<AdminUser>()).toMatchObject({ isAdmin: true, role: 'support' });
    expect((await member.client.get('/api/user')).json()).toMatchObject({ isAdmin: true, staffRole: 'support' });
    expect((await member.client.get('/api/admin/grove-metrics')).statusCode).toBe(200);
    expect(errorBody(await member.client.post('/api/admin/release-sage-build', {}))).toEqual(ROLE_REFUSAL);

    // Left out, the role stays as it is.
    expect((await edit({ username: 'helper-2' })).json<AdminUser>().role).toBe('support');
    expect((await edit({ role: 'admin' })).json<AdminUser>().role).toBe('admin');
    const demoted = await edit({ isAdmin: false, role: 'support' });
    expect(demoted.json<AdminUser>()).toMatchObject({ isAdmin: false, role: null });
    const row = await server().db.selectFrom('users').select('staff_role').where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row.staff_role).toBeNull();

    const entries = await server()
      .db.selectFrom('audit_log')
      .select(['before_json', 'after_json'])
      .where('action', '=', 'user.update')
      .where('target_id', '=', member.id)
      .execute();
    const roles = entries.map((e) => [JSON.parse(e.before_json!).role, JSON.parse(e.after_json!).role]);
    expect(roles).toHaveLength(4);
    expect(roles).toEqual(
      expect.arrayContaining([
        [null, 'support'],
        ['support', 'support'],
        ['support', 'admin'],
        ['admin', null],
      ]),
    );

    const invalid = await edit({ isAdmin: true, role: 'owner' });
    expect(invalid.statusCode).toBe(400);
  });

  it('refuses to let an admin make themselves support', async () => {
    const admin = await signedInAdmin(server());
    const own = await put(admin.client, `/api/admin/users/${admin.id}`, {
      username: 'me',
      email: admin.email,
      isAdmin: true,
      role: 'support',
    });
    expect(own.statusCode).toBe(400);
    expect(errorBody(own)).toEqual({ error: 'self_demotion', message: ADMIN_MESSAGES.selfDemotion });
    expect((await admin.client.get('/api/user')).json()).toMatchObject({ staffRole: 'admin' });
  });

  it('refuses to let an admin remove their own admin flag, but lets them demote another admin, whose sessions end', async () => {
    const admin = await signedInAdmin(server());
    const own = await put(admin.client, `/api/admin/users/${admin.id}`, { username: 'me', email: admin.email, isAdmin: false });
    expect(own.statusCode).toBe(400);
    expect(errorBody(own)).toEqual({ error: 'self_demotion', message: ADMIN_MESSAGES.selfDemotion });
    expect((await admin.client.get('/api/admin/grove-metrics')).statusCode).toBe(200);
    // Editing oneself without touching the flag is fine.
    const rename = await put(admin.client, `/api/admin/users/${admin.id}`, { username: 'me', email: admin.email });
    expect(rename.statusCode).toBe(200);
    expect(rename.json<AdminUser>().isAdmin).toBe(true);

    const colleague = await signedInAdmin(server());
    const demoted = await put(admin.client, `/api/admin/users/${colleague.id}`, {
      username: 'colleague',
      email: colleague.email,
      isAdmin: false,
    });
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json<AdminUser>().isAdmin).toBe(false);
    expect((await colleague.client.get('/api/user')).statusCode).toBe(401);
    expect((await colleague.client.get('/api/admin/grove-metrics')).statusCode).toBe(401);
  });

  it('refuses self-deletion; deleting a user ends their sessions and removes them with their data', async () => {
    const admin = await signedInAdmin(server());
    const self = await del(admin.client, `/api/admin/users/${admin.id}`);
    expect(self.statusCode).toBe(400);
    expect(errorBody(self)).toEqual({ error: 'self_deletion', message: ADMIN_MESSAGES.selfDeletion });
    expect((await admin.client.get('/api/user')).statusCode).toBe(200);

    const member = await signedInUser(server());
    const db = server().db;
    await db
      .insertInto('ai_threads')
      .values({ id: `thread-${uniqueTag()}`, user_id: member.id, created_at: Date.now(), updated_at: Date.now() })
      .execute();
    const messageId = uniqueTag();
    await db
      .insertInto('stored_messages')
      .values({ id: messageId, session_id: 's', user_id: member.id, message: '{}', message_size: 2, created_at: Date.now() })
      .execute();
    expect((await member.client.get('/api/user')).statusCode).toBe(200);

    const shown = (await admin.client.get(`/api/admin/users/${member.id}`)).json<AdminUser>();
    const response = await del(admin.client, `/api/admin/users/${member.id}`);
    expect(response.statusCode).toBe(200);
    // The user as they were, as GET showed them (react-admin's delete reads it).
    expect(response.json()).toEqual(shown);
    expect((await member.client.get('/api/user')).statusCode).toBe(401);
    expect((await admin.client.get(`/api/admin/users/${member.id}`)).statusCode).toBe(404);
    expect(await db.selectFrom('sessions').select('token_hash').where('user_id', '=', member.id).execute()).toEqual([]);
    expect(await db.selectFrom('ai_threads').select('id').where('user_id', '=', member.id).execute()).toEqual([]);
    // Their stored messages go with them (services/account/deletion.ts, docs/account-data.md).
    expect(await db.selectFrom('stored_messages').select('user_id').where('id', '=', messageId).executeTakeFirst()).toBeUndefined();
  });

  it('records every admin write in the audit log, newest first, without secrets', async () => {
    const admin = await signedInAdmin(server());
    const { total: before } = await auditLog(admin.client);
    const [row] = await insertUsers(server().db, [userRow({ username: 'before-name', password_hash: 'scrypt$secret-hash' })]);

    await put(admin.client, `/api/admin/users/${row!.id}`, { username: 'after-name', email: row!.email });
    await tick();
    expect((await del(admin.client, `/api/admin/users/${row!.id}`)).statusCode).toBe(200);
    await tick();
    const release = {
      // Older than the build the next test releases: a release must be newer than every earlier one.
      version: '2025-12-31',
      ue55Url: 'https://cdn.example.com/a55.zip',
      ue56Url: 'https://cdn.example.com/a56.zip',
      ue57Url: 'https://cdn.example.com/a57.zip',
    };
    expect((await admin.client.post('/api/admin/release-sage-build', release)).statusCode).toBe(200);
    // Refused writes change nothing, so they are not recorded.
    await put(admin.client, `/api/admin/users/${admin.id}`, { username: 'me', email: admin.email, isAdmin: false });
    await del(admin.client, `/api/admin/users/${admin.id}`);

    const { entries, total } = await auditLog(admin.client, 3);
    expect(total).toBe(before + 3);
    expect(entries.map((e) => e.action)).toEqual(['build.release', 'user.delete', 'user.update']);
    const [released, deleted, updated] = entries;
    const who = { actorId: admin.id, actorEmail: admin.email };
    expect(updated).toMatchObject({
      ...who,
      targetType: 'user',
      targetId: row!.id,
      // The user was deleted since: the entry keeps what was done, not who it was (docs/account-data.md).
      before: { username: ERASED, email: ERASED, status: 'Active', isAdmin: false },
      after: { username: ERASED, email: ERASED, status: 'Active', isAdmin: false },
    });
    expect(deleted).toMatchObject({
      ...who,
      targetType: 'user',
      targetId: row!.id,
      before: { status: 'Active', isAdmin: false },
      after: null,
    });
    expect(released).toMatchObject({
      ...who,
      targetType: 'build',
      targetId: release.version,
      before: null,
      after: { ...release, ue54Url: '' },
    });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(row!.license_token);
    expect(text).not.toContain('secret-hash');
    expect(text).not.toMatch(/password|token/i);
    expect(Date.parse(released!.createdAt)).toBeGreaterThan(Date.parse(deleted!.createdAt));
    expect(Date.parse(deleted!.createdAt)).toBeGreaterThan(Date.parse(updated!.createdAt));
  });

  it('validates a release, then offers the released build on the download page at once', async () => {
    const admin = await signedInAdmin(server());
    const valid = {
      version: '2026-01-01a',
      ue55Url: 'https://cdn.example.com/55.zip',
      ue56Url: 'https://cdn.example.com/56.zip',
      ue57Url: 'https://cdn.example.com/57.zip',
    };
    const refused: [object, string][] = [
      [{ ...valid, version: '' }, RELEASE_FIELDS_REQUIRED],
      [{ ...valid, version: '   ' }, RELEASE_FIELDS_REQUIRED],
      [{ ...valid, ue56Url: undefined }, RELEASE_FIELDS_REQUIRED],
      [{ ...valid, ue57Url: '' }, RELEASE_FIELDS_REQUIRED],
      [{ ...valid, ue56Url: 'not a url' }, 'The UE 5.6 URL must be an http(s) address'],
      [{ ...valid, ue55Url: 'javascript:alert(1)' }, 'The UE 5.5 URL must be an http(s) address'],
    ];
    for (const [body, message] of refused) {
      const response = await admin.client.post('/api/admin/release-sage-build', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_request', message });
    }
    const response = await admin.client.post('/api/admin/release-sage-build', { ...valid, version: ' 2026-01-01a ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...valid, ue54Url: '' });
    const current = await server().client().get('/api/current-sage-build');
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject(valid);
  });

  it('answers the product’s sentence once when several required fields are empty', async () => {
    const admin = await signedInAdmin(server());
    const [row] = await insertUsers(server().db, [userRow()]);
    const edit = await put(admin.client, `/api/admin/users/${row!.id}`, {});
    expect(errorBody(edit)).toEqual({ error: 'invalid_request', message: USER_FIELDS_REQUIRED });
    const release = await admin.client.post('/api/admin/release-sage-build', {});
    expect(errorBody(release)).toEqual({ error: 'invalid_request', message: RELEASE_FIELDS_REQUIRED });
  });

  it('counts every user in the grove metrics', async () => {
    const admin = await signedInAdmin(server());
    const metrics = async () =>
      (await admin.client.get('/api/admin/grove-metrics')).json<{ userStats: { totalUsers: number } }>().userStats.totalUsers;
    const { n } = await server()
      .db.selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(await metrics()).toBe(Number(n));
    await insertUsers(server().db, [userRow(), userRow(), userRow()]);
    expect(await metrics()).toBe(Number(n) + 3);
  });
});
