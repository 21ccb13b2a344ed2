import { sql, type Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Invitations to an organisation (issue 38, decision 039): the link's token is stored as its
  // SHA-256, like reset tokens. Kept once accepted or revoked, so the link's page can say so.
  await db.schema
    .createTable('org_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'bigint')
    .execute();
  // One open invitation per address and organisation (accepted and revoked ones are history).
  await sql`create unique index org_invitations_open on org_invitations (org_id, email) where accepted_at is null and revoked_at is null`.execute(
    db,
  );
  // A user's deletion clears these references: without indexes it would read the whole table.
  await db.schema.createIndex('org_invitations_invited_by_idx').on('org_invitations').column('invited_by').execute();
  await db.schema.createIndex('org_invitations_accepted_by_idx').on('org_invitations').column('accepted_by').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('org_invitations').execute();
}
