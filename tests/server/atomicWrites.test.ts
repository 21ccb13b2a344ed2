import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { del, put, signedInAdmin, signedInUser, uniqueTag } from './adminFlow';
import { databases, useTestServer } from './harness';

// Issue 16: a write that belongs together lands whole or not at all. Each test makes the database
// itself refuse the last write of an operation (a trigger, as a full disk or a lost connection
// would refuse it) and shows that nothing of the earlier writes remains.

/** From now on the database refuses audit entries about `targetId`; answers how to stop it. */
async function refuseAuditOf(db: Db, kind: 'sqlite' | 'postgres', targetId: string): Promise<() => Promise<void>> {
  const name = `refuse_audit_${uniqueTag()}`;
  const target = sql.lit(targetId);
  if (kind === 'sqlite') {
    await sql`create trigger ${sql.raw(name)} before insert on audit_log when new.target_id = ${target} begin select raise(abort, 'injected failure'); end`.execute(db);
    return async () => void (await sql`drop trigger ${sql.raw(name)}`.execute(db));
  }
  await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$ begin if new.target_id = ${target} then raise exception 'injected failure'; end if; return new; end $$`.execute(db);
  await sql`create trigger ${sql.raw(name)} before insert on audit_log for each row execute function ${sql.raw(name)}()`.execute(db);
  return async () => {
    await sql`drop trigger ${sql.raw(name)} on audit_log`.execute(db);
    await sql`drop function ${sql.raw(name)}()`.execute(db);
  };
}

describe.each(databases)('writes that belong together, on $label', (database) => {
  const server = useTestServer(database);

  it('releases a build with its audit entry, or not at all', async () => {
    const admin = await signedInAdmin(server());
    const db = server().db;
    const version = `2031-01-01-${uniqueTag()}`;
    const urls = { ue55Url: 'https://example.com/5.5.zip', ue56Url: 'https://example.com/5.6.zip', ue57Url: 'https://example.com/5.7.zip' };
    const stop = await refuseAuditOf(db, database.kind, version);

    const refused = await admin.client.post('/api/admin/release-sage-build', { version, ...urls });
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('sage_builds').select('id').where('version', '=', version).execute()).toEqual([]);
    expect((await admin.client.get('/api/current-sage-build')).json<{ version?: string }>().version).not.toBe(version);

    await stop();
    expect((await admin.client.post('/api/admin/release-sage-build', { version, ...urls })).statusCode).toBe(200);
    expect((await admin.client.get('/api/current-sage-build')).json<{ version: string }>().version).toBe(version);
    expect(await db.selectFrom('audit_log').select('action').where('target_id', '=', version).execute()).toEqual([{ action: 'build.release' }]);
  });

  it('edits a user, demoting an admin and ending their sessions, with its audit entry, or not at all', async () => {
    const admin = await signedInAdmin(server());
    const colleague = await signedInAdmin(server());
    const db = server().db;
    const before = await db.selectFrom('users').selectAll().where('id', '=', colleague.id).executeTakeFirstOrThrow();
    const stop = await refuseAuditOf(db, database.kind, colleague.id);

    const refused = await put(admin.client, `/api/admin/users/${colleague.id}`, { username: `renamed-${uniqueTag()}`, email: colleague.email, isAdmin: false });
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('users').selectAll().where('id', '=', colleague.id).executeTakeFirstOrThrow()).toEqual(before);
    // Still an admin, still signed in.
    expect((await colleague.client.get('/api/admin/grove-metrics')).statusCode).toBe(200);

    await stop();
    const demoted = await put(admin.client, `/api/admin/users/${colleague.id}`, { username: before.username, email: colleague.email, isAdmin: false });
    expect(demoted.statusCode).toBe(200);
    expect((await colleague.client.get('/api/user')).statusCode).toBe(401);
  });

  it('deletes a user, ending their sessions, with its audit entry, or not at all', async () => {
    const admin = await signedInAdmin(server());
    const member = await signedInUser(server());
    const db = server().db;
    const stop = await refuseAuditOf(db, database.kind, member.id);

    const refused = await del(admin.client, `/api/admin/users/${member.id}`);
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('users').select('id').where('id', '=', member.id).execute()).toEqual([{ id: member.id }]);
    expect((await member.client.get('/api/user')).statusCode).toBe(200);

    await stop();
    expect((await del(admin.client, `/api/admin/users/${member.id}`)).statusCode).toBe(200);
    expect((await member.client.get('/api/user')).statusCode).toBe(401);
  });
});
