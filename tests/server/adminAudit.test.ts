// The audit log's filters (issue 28): by actor (e-mail or id), action, target and UTC days, each
// exact, combined, paged and counted as the unfiltered list is.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditAction, AuditEntry, AuditFilter } from '../../contract/admin';
import type { AuditLogTable } from '../../server/db/schema';
import { listed, listUrl, signedInAdmin, uniqueTag } from './adminFlow';
import { databases, errorBody, useTestServer, type TestClient } from './harness';

function entry(overrides: Partial<AuditLogTable>): AuditLogTable {
  return {
    id: randomUUID(),
    actor_id: null,
    actor_email: null,
    action: 'user.update',
    target_type: 'user',
    target_id: null,
    before_json: null,
    after_json: null,
    created_at: Date.now(),
    ...overrides,
  };
}

async function filtered(admin: TestClient, filter: AuditFilter, range: [number, number] = [0, 99]) {
  const { rows, total } = listed<AuditEntry>(await admin.get(listUrl('audit', { sort: ['createdAt', 'DESC'], range, filter })), 'audit');
  return { ids: rows.map((r) => r.id), total };
}

describe.each(databases)('the audit log’s filters on $label', (database) => {
  const server = useTestServer(database);

  /** Two admins' entries on two targets over three UTC days, with this test's own ids and e-mails. */
  async function seed() {
    const tag = uniqueTag();
    const ann = { id: `${tag}-ann`, email: `${tag}-ann@example.com` };
    const bob = { id: `${tag}-bob`, email: `${tag}-bob@example.com` };
    const [t1, t2] = [`${tag}-target-1`, `${tag}-target-2`];
    const rows = [
      ['2026-03-01T23:59:59.999Z', ann, 'user.update', t1],
      ['2026-03-02T00:00:00.000Z', ann, 'user.delete', t2],
      ['2026-03-02T12:00:00.000Z', bob, 'user.update', t1],
      ['2026-03-02T23:59:59.999Z', bob, 'license.reissue', t2],
      ['2026-03-03T00:00:00.000Z', ann, 'user.update', t2],
    ] as const;
    const inserted = rows.map(([at, actor, action, target]) =>
      entry({ actor_id: actor.id, actor_email: actor.email, action: action as AuditAction, target_id: target, created_at: Date.parse(at) }),
    );
    await server().db.insertInto('audit_log').values(inserted).execute();
    // Newest first, as the list answers.
    const ids = (...which: number[]) => which.map((i) => inserted[i]!.id).reverse();
    return { ann, bob, t1, t2, ids };
  }

  it('filters by actor e-mail or id, action and target, each exactly, and by them together', async () => {
    const admin = await signedInAdmin(server());
    const { ann, bob, t1, t2, ids } = await seed();

    expect(await filtered(admin.client, { actor: ann.email })).toEqual({ ids: ids(0, 1, 4), total: 3 });
    expect(await filtered(admin.client, { actor: bob.id })).toEqual({ ids: ids(2, 3), total: 2 });
    expect(await filtered(admin.client, { target: t1 })).toEqual({ ids: ids(0, 2), total: 2 });
    expect(await filtered(admin.client, { actor: ann.id, action: 'user.update' })).toEqual({ ids: ids(0, 4), total: 2 });
    expect(await filtered(admin.client, { actor: bob.email, target: t2, action: 'license.reissue' })).toEqual({ ids: ids(3), total: 1 });
    // Exact, not a prefix or another case.
    expect(await filtered(admin.client, { actor: ann.email.slice(0, -1) })).toEqual({ ids: [], total: 0 });
    expect(await filtered(admin.client, { target: t1.toUpperCase() })).toEqual({ ids: [], total: 0 });
    expect(await filtered(admin.client, { actor: ` ${ann.id} ` })).toEqual({ ids: ids(0, 1, 4), total: 3 });
  });

  it('filters by UTC days, from and to both included, and pages the filtered entries', async () => {
    const admin = await signedInAdmin(server());
    const { ann, bob, ids } = await seed();

    expect(await filtered(admin.client, { actor: ann.id, from: '2026-03-02' })).toEqual({ ids: ids(1, 4), total: 2 });
    expect(await filtered(admin.client, { actor: ann.id, to: '2026-03-02' })).toEqual({ ids: ids(0, 1), total: 2 });
    const oneDay = { from: '2026-03-02', to: '2026-03-02' };
    expect(await filtered(admin.client, { actor: bob.id, ...oneDay })).toEqual({ ids: ids(2, 3), total: 2 });
    expect(await filtered(admin.client, { actor: ann.id, ...oneDay })).toEqual({ ids: ids(1), total: 1 });

    // A page of the matches, counted in full; oldest first on request.
    expect(await filtered(admin.client, { actor: ann.id }, [1, 1])).toEqual({ ids: ids(1), total: 3 });
    const oldestFirst = listed<AuditEntry>(
      await admin.client.get(listUrl('audit', { sort: ['createdAt', 'ASC'], range: [0, 9], filter: { actor: ann.id } })),
      'audit',
    );
    expect(oldestFirst.rows.map((r) => r.id)).toEqual(ids(0, 1, 4).reverse());
  });

  it('refuses an unknown filter, action or malformed day, saying what is wrong', async () => {
    const admin = await signedInAdmin(server());
    const cases: [string, string][] = [
      ['{"q":"x"}', 'the audit log filters by actor, action, target, from and to'],
      ['{"from":"2026-02-30"}', 'from must be a day, like 2026-11-26'],
      ['{"to":"yesterday"}', 'to must be a day, like 2026-11-26'],
      ['{"from":"2026-03-03","to":"2026-03-02"}', 'from must not be after to'],
    ];
    for (const [value, message] of cases) {
      const response = await admin.client.get(`/api/admin/audit?filter=${encodeURIComponent(value)}`);
      expect(response.statusCode, value).toBe(400);
      expect(errorBody(response), value).toEqual({ error: 'invalid_request', message });
    }
    const unknownAction = await admin.client.get(`/api/admin/audit?filter=${encodeURIComponent('{"action":"user.explode"}')}`);
    expect(unknownAction.statusCode).toBe(400);
    expect(errorBody(unknownAction).error).toBe('invalid_request');
  });
});
