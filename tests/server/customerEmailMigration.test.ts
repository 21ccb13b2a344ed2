import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../server/db';
import { up } from '../../server/db/migrations/021_customer_email_outdated';
import { up as up022 } from '../../server/db/migrations/022_staff_email_edits_outdated';
import { insertUsers, put, signedInAdmin, userRow } from './adminFlow';
import { databases, useTestServer } from './harness';

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

/**
 * Migration 022 on the audit entries the console writes: customers of users whose e-mail staff
 * changed before such edits were sent to Stripe are marked; edits that kept it mark nothing.
 */
describe.each(databases)('migration 022: Stripe customers behind a staff edit of the e-mail, on $label', (database) => {
  const server = useTestServer(database);

  it('marks the customers of users whose e-mail staff changed, and only those', async () => {
    const { db } = server();
    const admin = await signedInAdmin(server());
    const [moved, renamed, recased, uncustomed] = await insertUsers(db, [userRow(), userRow(), userRow(), userRow()]);
    const customers = [moved!, renamed!, recased!].map((u, i) => ({
      user_id: u.id,
      customer_id: `cus_022_${i}_${u.id}`,
      default_payment_method: null,
      created_at: Date.now(),
    }));
    await db.insertInto('billing_customers').values(customers).execute();

    const edit = async (user: { id: string; username: string }, email: string, username = user.username) => {
      const edited = await put(admin.client, `/api/admin/users/${user.id}`, { username, email });
      expect(edited.statusCode, edited.body).toBe(200);
    };
    await edit(moved!, 'moved-by-staff@example.com');
    await edit(renamed!, renamed!.email!, `${renamed!.username}-renamed`);
    await edit(recased!, recased!.email!.toUpperCase());
    await edit(uncustomed!, 'uncustomed-by-staff@example.com');
    // As before staff edits were sent on: the edits marked nothing.
    await db.updateTable('billing_customers').set({ email_outdated_since: null }).execute();

    const before = Date.now();
    await up022(db);

    const marked = async (userId: string) =>
      (await db.selectFrom('billing_customers').select('email_outdated_since').where('user_id', '=', userId).executeTakeFirst())
        ?.email_outdated_since;
    expect(Number(await marked(moved!.id))).toBeGreaterThanOrEqual(before);
    expect(await marked(renamed!.id)).toBeNull();
    expect(await marked(recased!.id)).toBeNull();
    expect(await marked(uncustomed!.id)).toBeUndefined();
    expect(await db.selectFrom('billing_customers').select('user_id').where('email_outdated_since', 'is not', null).execute()).toEqual([
      { user_id: moved!.id },
    ]);
  });
});
