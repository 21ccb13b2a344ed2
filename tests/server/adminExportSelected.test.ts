import { describe, expect, it } from 'vitest';
import { SELECTED_EXPORT_MAX } from '../../contract/userExport';
import { auditLog, insertUsers, signedInAdmin, userRow } from './adminFlow';
import { databases, errorBody, useTestServer } from './harness';

/** The CSV's records (none of these tests' fields holds a line break). */
const recordsOf = (csv: string): string[] => {
  expect(csv.endsWith('\r\n')).toBe(true);
  return csv.slice(0, -2).split('\r\n');
};

describe.each(databases)('the export of selected users on $label (issue 28)', (database) => {
  const server = useTestServer(database);

  it('answers the users named as the same CSV lines as the export of every user, oldest first', async () => {
    const admin = await signedInAdmin(server());
    const now = Date.now();
    const [older, newer, left] = await insertUsers(server().db, [
      userRow({ username: 'Older, "quoted"', created_at: now - 2000, epic_display_name: '=cmd' }),
      userRow({ username: 'newer', email: null, status: 'Suspended', created_at: now - 1000 }),
      userRow({ username: 'not-selected', created_at: now - 500 }),
    ]);

    const response = await admin.client.post('/api/admin/users/export', { ids: [newer!.id, older!.id, newer!.id, 'no-such-user'] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="users-selected.csv"');
    expect(response.headers['cache-control']).toBe('no-store');

    const everyone = recordsOf((await admin.client.get('/api/admin/users/export')).body);
    const lineOf = (id: string) => everyone.find((line) => line.startsWith(`${id},`));
    expect(recordsOf(response.body)).toEqual([everyone[0], lineOf(older!.id), lineOf(newer!.id)]);
    expect(response.body).not.toContain(left!.id);
  });

  it('keeps one audit entry naming the admin and every user exported', async () => {
    const admin = await signedInAdmin(server());
    const [one, two] = await insertUsers(server().db, [userRow(), userRow()]);
    expect((await admin.client.post('/api/admin/users/export', { ids: [one!.id, two!.id, 'no-such-user'] })).statusCode).toBe(200);

    const [entry] = (await auditLog(admin.client, 1)).entries;
    expect(entry).toMatchObject({ actorId: admin.id, actorEmail: admin.email, action: 'users.export_selected', targetType: 'user' });
    expect(entry?.targetId).toBeNull();
    expect(entry?.after).toEqual({ count: 2, ids: expect.arrayContaining([one!.id, two!.id]) as unknown });
  });

  it.each([
    ['no body field', {}],
    ['no ids', { ids: [] }],
    ['an id that is not text', { ids: [42] }],
    ['an empty id', { ids: ['  '] }],
    ['an id with a control character', { ids: ['a\u0007b'] }],
    ['an id too long', { ids: ['x'.repeat(101)] }],
    [`more than ${SELECTED_EXPORT_MAX} ids`, { ids: Array.from({ length: SELECTED_EXPORT_MAX + 1 }, (_, i) => `id-${i}`) }],
    ['another field', { ids: ['a'], all: true }],
  ])('refuses %s with 400 and exports nothing', async (_case, body) => {
    const admin = await signedInAdmin(server());
    const before = (await auditLog(admin.client, 1)).total;
    const response = await admin.client.post('/api/admin/users/export', body);
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).error).toBe('invalid_request');
    expect((await auditLog(admin.client, 1)).total).toBe(before);
  });

  it(`takes ${SELECTED_EXPORT_MAX} ids at once`, async () => {
    const admin = await signedInAdmin(server());
    const rows = await insertUsers(
      server().db,
      Array.from({ length: 3 }, () => userRow()),
    );
    const ids = [...rows.map((row) => row.id), ...Array.from({ length: SELECTED_EXPORT_MAX - rows.length }, (_, i) => `missing-${i}`)];
    const response = await admin.client.post('/api/admin/users/export', { ids });
    expect(response.statusCode, response.body).toBe(200);
    expect(recordsOf(response.body)).toHaveLength(1 + rows.length);
  });
});
