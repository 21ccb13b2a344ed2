// The user total the admin console shows comes from a count that triggers keep exact in the same
// transaction as every insert and delete (migration 005, decision 011), on both databases.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { databases, useTestServer } from './harness';
import { del, insertUsers, listUsers, signedInAdmin, userRow } from './adminFlow';

async function counted(db: Db) {
  const kept = await db.selectFrom('row_counts').select('row_count').where('table_name', '=', 'users').executeTakeFirstOrThrow();
  const actual = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { kept: Number(kept.row_count), actual: Number(actual.n) };
}

describe.each(databases)('the kept user count on $label', (database) => {
  const server = useTestServer(database);

  it('follows single and bulk inserts, deletes through the console and cascades, and ignores rolled-back changes', async () => {
    const { db } = server();
    const admin = await signedInAdmin(server());
    const start = await counted(db);
    expect(start.kept).toBe(start.actual);

    const rows = await insertUsers(
      db,
      Array.from({ length: 30 }, () => userRow()),
      7,
    );
    expect(await counted(db)).toEqual({ kept: start.actual + 30, actual: start.actual + 30 });

    // Deleted in the console: one user.
    expect((await del(admin.client, `/api/admin/users/${rows[0]!.id}`)).statusCode).toBe(200);
    // Deleted in bulk: one statement, many rows.
    await db
      .deleteFrom('users')
      .where(
        'id',
        'in',
        rows.slice(1, 11).map((r) => r.id),
      )
      .execute();
    expect(await counted(db)).toEqual({ kept: start.actual + 19, actual: start.actual + 19 });

    // A transaction that fails leaves the count as it was.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values([userRow(), userRow()]).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await counted(db)).toEqual({ kept: start.actual + 19, actual: start.actual + 19 });

    // The console's total is that count.
    const { users, total } = await listUsers(admin.client, { range: [0, 9] });
    expect(users).toHaveLength(10);
    expect(total).toBe(start.actual + 19);
  });
});
