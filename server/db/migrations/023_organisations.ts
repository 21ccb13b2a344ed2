import { sql, type Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Studios (issue 38, decision 038): an organisation and its members, one role each.
  await db.schema
    .createTable('orgs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // A membership goes with its organisation; a user's account cannot be deleted while it owns one
  // (the deletion is refused first), and otherwise takes its memberships with it.
  await db.schema
    .createTable('org_members')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_members_pkey', ['org_id', 'user_id'])
    .execute();
  // A user's organisations, and the deletion of a user's memberships.
  await db.schema.createIndex('org_members_user_id_idx').on('org_members').column('user_id').execute();
  // Exactly one owner per organisation: a second owner row cannot be written, whatever races.
  await sql`create unique index org_members_one_owner on org_members (org_id) where role = 'owner'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('org_members').execute();
  await db.schema.dropTable('orgs').execute();
}
