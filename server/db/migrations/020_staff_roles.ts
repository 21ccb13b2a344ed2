import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A member of staff's role in the console (issue 28, decision 030), read only while is_admin is 1.
  // Null is the role every admin had before roles: `admin`, so no row needs rewriting.
  await db.schema.alterTable('users').addColumn('staff_role', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('staff_role').execute();
}
