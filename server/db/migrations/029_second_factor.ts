import type { Kysely } from 'kysely';

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A second factor for passwords (issue 40, decision 046). The authenticator app's secret: the
  // server must compute codes from it, so it is kept as is (never in the export, a log or the API
  // after enrolment). `confirmed_at` null: enrolment started but no code proved the app has it.
  // `last_used_step`: the newest 30-second step a code was accepted for; a code of that step or an
  // older one is refused, so a code seen over a shoulder cannot be used again.
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addColumn('last_used_step', 'bigint')
    .execute();
  // Ten single-use recovery codes per account, shown once. SHA-256 without salt suffices: each code
  // is 80 random bits, far beyond guessing even with the hash in hand (decision 046).
  await db.schema
    .createTable('recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').column('user_id').execute();
  // A password sign-in waiting for its second factor: the browser's cookie holds the token, this its
  // hash; single use, for five minutes. `persistent`: the Remember me of the password step.
  await db.schema
    .createTable('second_factor_sign_ins')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('persistent', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('second_factor_sign_ins_user_idx').on('second_factor_sign_ins').column('user_id').execute();
  // How each session was started ('password', 'epic', …): the staff gate counts an Epic sign-in as a
  // second factor. Sessions from before: null, which reads as 'password'.
  await db.schema.alterTable('sessions').addColumn('method', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('method').execute();
  await db.schema.dropTable('second_factor_sign_ins').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('user_totp').execute();
}
