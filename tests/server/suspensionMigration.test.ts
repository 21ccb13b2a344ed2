import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../server/db';
import { up } from '../../server/db/migrations/017_suspension';

/** Migration 017 on the columns it reads: typed statuses become Active or Suspended (decision 029). */
describe('migration 017: statuses typed by hand', () => {
  it.each([
    ['Active', 'Active', null],
    [' active ', 'Active', null],
    ['Trial', 'Active', null],
    ['', 'Active', null],
    ['Suspended', 'Suspended', 'Status was "Suspended" before suspension was enforced'],
    ['BANNED', 'Suspended', 'Status was "BANNED" before suspension was enforced'],
    ['blocked', 'Suspended', 'Status was "blocked" before suspension was enforced'],
    ['Disabled ', 'Suspended', 'Status was "Disabled " before suspension was enforced'],
    ['locked', 'Suspended', 'Status was "locked" before suspension was enforced'],
  ])('%j becomes %s', async (typed, status, reason) => {
    const db = openSqlite(':memory:');
    await sql`create table users (id text primary key, status text not null, updated_at bigint not null)`.execute(db);
    await sql`create table sessions (token_hash text primary key, user_id text not null)`.execute(db);
    await sql`insert into users (id, status, updated_at) values ('u1', ${typed}, 1700000000000)`.execute(db);
    await sql`insert into sessions (token_hash, user_id) values ('h1', 'u1')`.execute(db);

    await up(db);

    const row = await db.selectFrom('users').select(['status', 'suspended_at', 'suspension_reason']).executeTakeFirstOrThrow();
    expect(row).toEqual({ status, suspension_reason: reason, suspended_at: reason === null ? null : 1700000000000 });
    const sessions = await db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions).toHaveLength(status === 'Suspended' ? 0 : 1);
    await db.destroy();
  });
});
