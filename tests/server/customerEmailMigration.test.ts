import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../server/db';
import { up } from '../../server/db/migrations/021_customer_email_outdated';

/** Migration 021 on the columns it reads: customers of accounts that changed their e-mail are marked. */
describe('migration 021: Stripe customers behind an e-mail change', () => {
  it('marks the customers of accounts with an e-mail change in the audit log, and only those', async () => {
    const db = openSqlite(':memory:');
    await sql`create table billing_customers (user_id text primary key, customer_id text not null)`.execute(db);
    await sql`create table audit_log (id text primary key, action text not null, target_id text)`.execute(db);
    await sql`insert into billing_customers (user_id, customer_id) values ('moved', 'cus_moved'), ('stayed', 'cus_stayed')`.execute(db);
    await sql`insert into audit_log (id, action, target_id) values ('a1', 'account.email.change', 'moved'), ('a2', 'user.update', 'stayed')`.execute(
      db,
    );

    const before = Date.now();
    await up(db);

    const rows = await db.selectFrom('billing_customers').select(['user_id', 'email_outdated_since']).orderBy('user_id').execute();
    expect(rows.map((r) => [r.user_id, r.email_outdated_since === null])).toEqual([
      ['moved', false],
      ['stayed', true],
    ]);
    expect(Number(rows[0]?.email_outdated_since)).toBeGreaterThanOrEqual(before);
    await db.destroy();
  });
});
