// The admin lists speak react-admin's ra-data-simple-rest dialect (contract/restList.ts, decision
// 013): `sort`, `range` and `filter` as JSON in the query string, a JSON array back and the total in
// `Content-Range: <resource> <first>-<last>/<total>`, or `<resource> */<total>` for an empty page.
import { describe, expect, it } from 'vitest';
import { adminUserSchema, ADMIN_MESSAGES, type AdminUser, type AuditEntry } from '../../contract/admin';
import { del, insertUsers, listed, listUrl, listUsers, put, signedInAdmin, tick, uniqueTag, userRow, type ListParams } from './adminFlow';
import { databases, errorBody, useTestServer, type TestClient } from './harness';

const HOUR = 3_600_000;

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

/** The answer to one list request, its Content-Range header as sent. */
async function page(admin: TestClient, resource: 'users' | 'audit', params: ListParams) {
  const response = await admin.get(listUrl(resource, params));
  const { rows, total } = listed<{ id: string }>(response, resource);
  return { ids: ids(rows), total, contentRange: response.headers['content-range'], response };
}

/** `?name=value`, the value sent as it is (URL-encoded): for what the dialect refuses. */
const raw = (resource: 'users' | 'audit', name: string, value: string) => `/api/admin/${resource}?${name}=${encodeURIComponent(value)}`;

describe.each(databases)('the admin lists’ wire on $label', (database) => {
  const server = useTestServer(database);

  it('answers the rows of any range, even one no page size lines up with, with Content-Range and no X-Total-Count', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const base = Date.now() - 10 * HOUR;
    const rows = await insertUsers(
      server().db,
      Array.from({ length: 20 }, (_, i) => userRow({ username: `${tag}-${i}`, created_at: base + i * 1000 })),
    );
    const oldestFirst = ids(rows);
    const ask = (range: [number, number]) => page(admin.client, 'users', { sort: ['createdAt', 'ASC'], range, filter: { q: tag } });

    const first = await ask([0, 24]);
    expect(first).toMatchObject({ ids: oldestFirst, total: 20, contentRange: 'users 0-19/20' });
    expect(first.response.headers['x-total-count']).toBeUndefined();
    expect(first.response.headers['content-type']).toMatch(/^application\/json/);

    expect(await ask([5, 14])).toMatchObject({ ids: oldestFirst.slice(5, 15), contentRange: 'users 5-14/20' });
    // The last rows: the header says which came, not which were asked for.
    expect(await ask([15, 24])).toMatchObject({ ids: oldestFirst.slice(15), contentRange: 'users 15-19/20' });
    expect(await ask([19, 19])).toMatchObject({ ids: [oldestFirst[19]], contentRange: 'users 19-19/20' });
    // Past the end: no rows, `*` for them, the total still.
    for (const range of [
      [20, 29],
      [500, 999],
    ] as [number, number][]) {
      expect(await ask(range)).toMatchObject({ ids: [], total: 20, contentRange: 'users */20' });
    }
    expect(await page(admin.client, 'users', { filter: { q: `${tag}-none` } })).toMatchObject({ ids: [], contentRange: 'users */0' });

    // The whole list, unfiltered: a slice of it, counted in full.
    const { n } = await server()
      .db.selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const newest = await server()
      .db.selectFrom('users')
      .select('id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(8)
      .execute();
    const slice = await page(admin.client, 'users', { sort: ['createdAt', 'DESC'], range: [3, 7] });
    expect(slice).toMatchObject({ ids: ids(newest).slice(3, 8), contentRange: `users 3-7/${Number(n)}` });
  });

  it('answers the 25 newest users, newest first, without parameters', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    // Newer than anyone else, two sharing a time (the id orders them).
    const future = Date.now() + HOUR;
    await insertUsers(
      server().db,
      Array.from({ length: 30 }, (_, i) => userRow({ username: `${tag}-${i}`, created_at: future + Math.min(i, 28) * 1000 })),
    );
    const db = server().db;
    const expected = await db.selectFrom('users').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(25).execute();
    const { n } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();

    const plain = await page(admin.client, 'users', {});
    expect(plain).toMatchObject({ ids: ids(expected), contentRange: `users 0-24/${Number(n)}` });
    expect(plain.response.json<AdminUser[]>().every((u) => u.username.startsWith(`${tag}-`))).toBe(true);
    // What react-admin sends for its first page says the same.
    const asked = await page(admin.client, 'users', { sort: ['createdAt', 'DESC'], range: [0, 24], filter: {} });
    expect(asked.ids).toEqual(plain.ids);
    expect(asked.contentRange).toBe(plain.contentRange);
  });

  it('answers the users of filter.id (getMany) that exist, once each, in the order asked, whatever the range', async () => {
    const admin = await signedInAdmin(server());
    const [a, b, c] = await insertUsers(server().db, [userRow(), userRow(), userRow()]);
    const shown = async (id: string) => (await admin.client.get(`/api/admin/users/${id}`)).json<AdminUser>();

    const many = await page(admin.client, 'users', { filter: { id: [c!.id, 'no-such-user', a!.id, c!.id, b!.id] }, range: [0, 0] });
    expect(many).toMatchObject({ ids: [c!.id, a!.id, b!.id], contentRange: 'users 0-2/3' });
    expect(many.response.json()).toEqual([await shown(c!.id), await shown(a!.id), await shown(b!.id)]);

    expect(await page(admin.client, 'users', { filter: { id: [b!.id] }, range: [50, 74], sort: ['username', 'DESC'] })).toMatchObject({
      ids: [b!.id],
      contentRange: 'users 0-0/1',
    });
    expect(await page(admin.client, 'users', { filter: { id: ['no-such-user'] } })).toMatchObject({ ids: [], contentRange: 'users */0' });
    expect(await page(admin.client, 'users', { filter: { id: [] } })).toMatchObject({ ids: [], contentRange: 'users */0' });
    // As many as a page may have.
    const thousand = [a!.id, ...Array.from({ length: 999 }, (_, i) => `missing-${i}`)];
    expect(await page(admin.client, 'users', { filter: { id: thousand } })).toMatchObject({ ids: [a!.id], contentRange: 'users 0-0/1' });
  });

  it('carries a search term through the query string intact, and takes an empty one or {} as no filter', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const [odd] = await insertUsers(server().db, [userRow({ username: `${tag}+a&b=c#d?e` }), userRow({ username: `${tag} a b c d e` })]);
    expect((await page(admin.client, 'users', { filter: { q: `${tag}+a&b=c#d?e` } })).ids).toEqual([odd!.id]);

    const whole = await listUsers(admin.client, { range: [0, 9] });
    for (const filter of [{}, { q: '' }, { q: '   ' }]) {
      expect(await listUsers(admin.client, { range: [0, 9], filter }), JSON.stringify(filter)).toEqual(whole);
    }
  });

  it('refuses a malformed sort, range or filter of the user list, saying what is wrong', async () => {
    const admin = await signedInAdmin(server());
    const cases: [string, string, string][] = [
      ['sort', 'createdAt', 'sort must be JSON, like ["createdAt","ASC"]'],
      ['sort', '["createdAt","ASC"', 'sort must be JSON, like ["createdAt","ASC"]'],
      ['sort', '"createdAt"', 'sort must be a field and an order, like ["createdAt","ASC"]'],
      ['sort', '{"field":"createdAt","order":"ASC"}', 'sort must be a field and an order, like ["createdAt","ASC"]'],
      ['sort', '["createdAt","ASC","id"]', 'sort must be a field and an order, like ["createdAt","ASC"]'],
      ['sort', '["status","ASC"]', 'sort field must be one of createdAt, username, email'],
      ['sort', '["id","ASC"]', 'sort field must be one of createdAt, username, email'],
      ['sort', '["username","asc"]', 'sort order must be ASC or DESC'],
      ['sort', '["username"]', 'sort must be a field and an order, like ["createdAt","ASC"]'],
      ['range', '0-24', 'range must be JSON, like [0,24]'],
      ['range', '', 'range must be JSON, like [0,24]'],
      ['range', '{"start":0,"end":24}', 'range must be two row numbers, like [0,24]'],
      ['range', '[0]', 'range must be two row numbers, like [0,24]'],
      ['range', '["0","24"]', 'range must be two row numbers, like [0,24]'],
      ['range', '[0,24,49]', 'range must be two row numbers, like [0,24]'],
      ['range', '[0.5,24]', 'range must be whole row numbers'],
      ['range', '[-1,24]', 'range must not be negative'],
      ['range', '[24,0]', 'range must not end before it starts'],
      ['range', '[0,1000]', 'range must cover at most 1000 rows'],
      ['range', '[5000,10000]', 'range must cover at most 1000 rows'],
      ['filter', 'q=smith', 'filter must be JSON, like {}'],
      ['filter', '[]', 'filter must be an object, like {"q":"smith"}'],
      ['filter', 'null', 'filter must be an object, like {"q":"smith"}'],
      ['filter', '"smith"', 'filter must be an object, like {"q":"smith"}'],
      ['filter', '{"username":"smith"}', 'filter may only have q, id, noEpic and onWithdrawn'],
      ['filter', '{"q":"smith","status":"Active"}', 'filter may only have q, id, noEpic and onWithdrawn'],
      ['filter', '{"q":5}', 'filter q must be text'],
      ['filter', `{"q":"${'x'.repeat(201)}"}`, 'filter q must be at most 200 characters'],
      ['filter', '{"id":"abc"}', 'filter id must be a list of ids'],
      ['filter', '{"id":[1,2]}', 'filter id must be a list of ids'],
      ['filter', JSON.stringify({ id: Array.from({ length: 1001 }, (_, i) => `u${i}`) }), 'filter id must list at most 1000 ids'],
    ];
    for (const [name, value, message] of cases) {
      const response = await admin.client.get(raw('users', name, value));
      const what = `${name}=${value.slice(0, 60)}`;
      expect(response.statusCode, what).toBe(400);
      expect(errorBody(response), what).toEqual({ error: 'invalid_request', message });
    }
    // A parameter given twice.
    const twice = await admin.client.get(
      `/api/admin/users?sort=${encodeURIComponent('["username","ASC"]')}&sort=${encodeURIComponent('["email","ASC"]')}`,
    );
    expect(twice.statusCode).toBe(400);
    expect(errorBody(twice)).toEqual({ error: 'invalid_request', message: 'sort must be given once, as JSON like ["createdAt","ASC"]' });
    // The largest range there is.
    expect((await page(admin.client, 'users', { range: [0, 999] })).response.statusCode).toBe(200);
  });

  it('lists the audit log by time both ways, with Content-Range', async () => {
    const admin = await signedInAdmin(server());
    const [row] = await insertUsers(server().db, [userRow()]);
    for (const username of ['first', 'second', 'third']) {
      await tick();
      const edit = await put(admin.client, `/api/admin/users/${row!.id}`, { username, email: row!.email });
      expect(edit.statusCode, edit.body).toBe(200);
    }
    const newest = await page(admin.client, 'audit', { sort: ['createdAt', 'DESC'], range: [0, 2], filter: {} });
    const total = newest.total;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(newest.contentRange).toBe(`audit 0-2/${total}`);
    const names = (response: typeof newest.response) =>
      response.json<AuditEntry[]>().map((e) => (e.after as { username: string }).username);
    expect(names(newest.response)).toEqual(['third', 'second', 'first']);

    const oldestFirst = await page(admin.client, 'audit', { sort: ['createdAt', 'ASC'], range: [total - 3, total - 1] });
    expect(oldestFirst.contentRange).toBe(`audit ${total - 3}-${total - 1}/${total}`);
    expect(names(oldestFirst.response)).toEqual(['first', 'second', 'third']);

    // One order is the other reversed; every entry once; newest first by default.
    const asc = await page(admin.client, 'audit', { sort: ['createdAt', 'ASC'], range: [0, 999] });
    const desc = await page(admin.client, 'audit', { sort: ['createdAt', 'DESC'], range: [0, 999] });
    expect(asc.ids).toHaveLength(total);
    expect(new Set(asc.ids).size).toBe(total);
    expect(desc.ids).toEqual([...asc.ids].reverse());
    const times = asc.response.json<AuditEntry[]>().map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect((await page(admin.client, 'audit', {})).ids).toEqual(desc.ids.slice(0, 25));
    expect((await page(admin.client, 'audit', {})).contentRange).toBe(`audit 0-${Math.min(total, 25) - 1}/${total}`);
    expect(await page(admin.client, 'audit', { range: [total, total + 9] })).toMatchObject({ ids: [], contentRange: `audit */${total}` });
  });

  it('refuses a malformed sort, range or filter of the audit log, saying what is wrong', async () => {
    const admin = await signedInAdmin(server());
    const cases: [string, string, string][] = [
      ['sort', '["action","ASC"]', 'sort field must be one of createdAt'],
      ['sort', '["createdAt","UP"]', 'sort order must be ASC or DESC'],
      ['sort', 'createdAt', 'sort must be JSON, like ["createdAt","ASC"]'],
      ['range', '[10,0]', 'range must not end before it starts'],
      ['range', '[0,1000]', 'range must cover at most 1000 rows'],
      ['range', '[0', 'range must be JSON, like [0,24]'],
      ['filter', '{"q":"x"}', 'the audit log filters by actor, action, target, from and to'],
      ['filter', '[]', 'filter must be an object, like {}'],
      ['filter', '{', 'filter must be JSON, like {}'],
    ];
    for (const [name, value, message] of cases) {
      const response = await admin.client.get(raw('audit', name, value));
      expect(response.statusCode, `${name}=${value}`).toBe(400);
      expect(errorBody(response), `${name}=${value}`).toEqual({ error: 'invalid_request', message });
    }
  });

  it('answers a deletion with the user as they were, who is then gone from every list', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const [row] = await insertUsers(server().db, [
      userRow({ username: `${tag}-gone`, status: 'Suspended', epic_display_name: 'Gone Soon' }),
    ]);
    const shown = await admin.client.get(`/api/admin/users/${row!.id}`);
    const before = await listUsers(admin.client, { range: [0, 0] });

    const response = await del(admin.client, `/api/admin/users/${row!.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(shown.json());
    expect(Object.keys(response.json<AdminUser>()).sort()).toEqual(Object.keys(adminUserSchema.shape).sort());
    expect(response.json()).toMatchObject({
      id: row!.id,
      username: `${tag}-gone`,
      status: 'Suspended',
      epicDisplayName: 'Gone Soon',
    });
    // Staff never receive a license token (issue 36).
    expect(response.body).not.toContain(row!.license_token);

    expect((await admin.client.get(`/api/admin/users/${row!.id}`)).statusCode).toBe(404);
    expect(await page(admin.client, 'users', { filter: { id: [row!.id] } })).toMatchObject({ ids: [], contentRange: 'users */0' });
    expect(await page(admin.client, 'users', { filter: { q: tag } })).toMatchObject({ ids: [], contentRange: 'users */0' });
    expect((await listUsers(admin.client, { range: [0, 0] })).total).toBe(before.total - 1);
    const again = await del(admin.client, `/api/admin/users/${row!.id}`);
    expect(again.statusCode).toBe(404);
    expect(errorBody(again)).toEqual({ error: 'not_found', message: ADMIN_MESSAGES.userNotFound });
  });
});
