import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { hashToken } from '../../server/services/tokens';
import { del, put, signedInAdmin, signedInUser, uniqueTag } from './adminFlow';
import { databases, useTestServer } from './harness';

// Issue 16: a write that belongs together lands whole or not at all. Each test makes the database
// itself refuse the last write of an operation (a trigger, as a full disk or a lost connection
// would refuse it) and shows that nothing of the earlier writes remains.

type Kind = 'sqlite' | 'postgres';

/**
 * From now on the database refuses `event` (insert or delete) on `table` for rows whose `column`
 * is `value`; answers how to stop it.
 */
async function refuse(db: Db, kind: Kind, event: 'insert' | 'delete', table: 'audit_log' | 'sessions', column: 'target_id' | 'user_id', value: string): Promise<() => Promise<void>> {
  const name = sql.raw(`refuse_${uniqueTag()}`);
  const row = sql.raw(`${event === 'insert' ? 'new' : 'old'}.${column}`);
  const on = sql.raw(`before ${event} on ${table}`);
  if (kind === 'sqlite') {
    await sql`create trigger ${name} ${on} when ${row} = ${sql.lit(value)} begin select raise(abort, 'injected failure'); end`.execute(db);
    return async () => void (await sql`drop trigger ${name}`.execute(db));
  }
  const result = sql.raw(event === 'insert' ? 'new' : 'old');
  await sql`create function ${name}() returns trigger language plpgsql as $$ begin if ${row} = ${sql.lit(value)} then raise exception 'injected failure'; end if; return ${result}; end $$`.execute(db);
  await sql`create trigger ${name} ${on} for each row execute function ${name}()`.execute(db);
  return async () => {
    await sql`drop trigger ${name} on ${sql.raw(table)}`.execute(db);
    await sql`drop function ${name}()`.execute(db);
  };
}

/** The database refuses audit entries about `targetId`: the last write of an admin's operation. */
const refuseAuditOf = (db: Db, kind: Kind, targetId: string) => refuse(db, kind, 'insert', 'audit_log', 'target_id', targetId);

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

  it('resets a password, ending every session of the user, or not at all', async () => {
    const member = await signedInUser(server());
    const db = server().db;
    const token = `reset-${uniqueTag()}-${randomUUID()}`;
    const now = Date.now();
    await db.insertInto('password_reset_tokens').values({ token_hash: hashToken(token), user_id: member.id, created_at: now, expires_at: now + 3_600_000, used_at: null }).execute();
    const before = await db.selectFrom('users').select('password_hash').where('id', '=', member.id).executeTakeFirstOrThrow();
    const stop = await refuse(db, database.kind, 'delete', 'sessions', 'user_id', member.id);

    const refused = await server().client().post('/api/reset-password', { token, newPassword: 'a new password 1' });
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('users').select('password_hash').where('id', '=', member.id).executeTakeFirstOrThrow()).toEqual(before);
    expect((await db.selectFrom('password_reset_tokens').select('used_at').where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow()).used_at).toBeNull();
    expect((await member.client.get('/api/user')).statusCode).toBe(200);

    await stop();
    expect((await server().client().post('/api/reset-password', { token, newPassword: 'a new password 1' })).statusCode).toBe(200);
    expect((await member.client.get('/api/user')).statusCode).toBe(401);
    expect((await db.selectFrom('users').select('password_hash').where('id', '=', member.id).executeTakeFirstOrThrow()).password_hash).not.toBe(before.password_hash);
  });
});
