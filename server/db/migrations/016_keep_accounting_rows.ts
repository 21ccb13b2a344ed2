import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * An account's deletion (issue 27, docs/account-data.md) keeps what accounting needs: the credit
 * ledger's entries survive their user, with `user_id` cleared (ON DELETE SET NULL instead of
 * CASCADE). `reason` and `source` stay: they name a Stripe payment or a staff change, not a person.
 * The balance trigger of migration 012 is keyed by user: it now skips an entry of no user. The audit
 * log gets indexes on who did and whom it was about, which a deletion and an export look up.
 */

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const CASCADING_USER = '"user_id" text not null references "users" ("id") on delete cascade';
const KEPT_USER = '"user_id" text references "users" ("id") on delete set null';
const BALANCE_FOR_ALL = 'after insert on credit_ledger begin';
const BALANCE_FOR_USERS = 'after insert on credit_ledger when new.user_id is not null begin';

/** Migration 012's balance function, with or without the skip of entries of no user. */
const balanceFunction = (skipNoUser: boolean) =>
  `create or replace function credit_ledger_balance() returns trigger language plpgsql as $$ begin
     insert into credit_balances (user_id, credits)
       select user_id, sum(amount) from new_rows ${skipNoUser ? 'where user_id is not null ' : ''}group by user_id
       on conflict (user_id) do update set credits = credit_balances.credits + excluded.credits;
     return null;
   end $$`;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A deletion finds the audit entries about its user, or by them, to erase their name and e-mail.
  await db.schema.createIndex('audit_log_target_id_idx').on('audit_log').column('target_id').execute();
  await db.schema.createIndex('audit_log_actor_id_idx').on('audit_log').column('actor_id').execute();
  if (isPostgres(db)) {
    await setPostgresUserKey(db, 'set null');
    await sql.raw(balanceFunction(true)).execute(db);
  } else {
    await rebuildSqliteLedger(db, { column: [CASCADING_USER, KEPT_USER], trigger: [BALANCE_FOR_ALL, BALANCE_FOR_USERS] });
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // Entries whose user was deleted cannot be NOT NULL again: they go, as CASCADE would have taken them.
  await db.deleteFrom('credit_ledger').where('user_id', 'is', null).execute();
  await db.schema.dropIndex('audit_log_actor_id_idx').execute();
  await db.schema.dropIndex('audit_log_target_id_idx').execute();
  if (isPostgres(db)) {
    await setPostgresUserKey(db, 'cascade');
    await sql.raw(balanceFunction(false)).execute(db);
  } else {
    await rebuildSqliteLedger(db, { column: [KEPT_USER, CASCADING_USER], trigger: [BALANCE_FOR_USERS, BALANCE_FOR_ALL] });
  }
}

/** The ledger's foreign key to users, made again with `onDelete` (its name as PostgreSQL gave it). */
async function setPostgresUserKey(db: AnyDb, onDelete: 'set null' | 'cascade'): Promise<void> {
  const keys = await sql<{ name: string }>`
    select conname as name from pg_constraint
    where conrelid = 'credit_ledger'::regclass and contype = 'f' and confrelid = 'users'::regclass`.execute(db);
  for (const { name } of keys.rows) await sql`alter table credit_ledger drop constraint ${sql.id(name)}`.execute(db);
  await sql.raw(`alter table credit_ledger alter column user_id ${onDelete === 'set null' ? 'drop' : 'set'} not null`).execute(db);
  await sql
    .raw(
      `alter table credit_ledger add constraint credit_ledger_user_id_fkey foreign key (user_id) references users (id) on delete ${onDelete}`,
    )
    .execute(db);
}

/**
 * SQLite cannot change a column's constraints: the table is rebuilt (sqlite.org/lang_altertable.html,
 * "making other kinds of table schema changes") in one transaction, its user column's text replaced
 * (`column`: from, to) and the balance trigger's (`trigger`). Its indexes and triggers, and any
 * trigger or view elsewhere that names it, are read from the schema first and made again after, so
 * what other migrations add to the ledger survives this one.
 */
async function rebuildSqliteLedger(db: AnyDb, swap: { column: [string, string]; trigger: [string, string] }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'credit_ledger'`.execute(trx);
    const created = table.rows[0]?.sql ?? '';
    if (!created.includes(swap.column[0])) throw new Error(`credit_ledger's user_id is not ${swap.column[0]}: ${created}`);
    const dependents = await sql<{ type: string; name: string; sql: string }>`
      select type, name, sql from sqlite_master
      where sql is not null and type in ('index', 'trigger', 'view')
        and (tbl_name = 'credit_ledger' or (type <> 'index' and sql like '%credit_ledger%'))
      order by case type when 'index' then 0 when 'view' then 1 else 2 end, name`.execute(trx);
    // Indexes go with the table; triggers and views elsewhere must not name a table that is briefly missing.
    for (const d of dependents.rows) if (d.type !== 'index') await sql.raw(`drop ${d.type} ${quoted(d.name)}`).execute(trx);

    const columns = await sql<{ name: string }>`select name from pragma_table_info('credit_ledger') order by cid`.execute(trx);
    const list = columns.rows.map((c) => quoted(c.name)).join(', ');
    const rebuilt = created.replace(/^CREATE TABLE "credit_ledger"/, 'CREATE TABLE "credit_ledger_rebuilt"').replace(...swap.column);
    await sql.raw(rebuilt).execute(trx);
    await sql.raw(`insert into "credit_ledger_rebuilt" (${list}) select ${list} from "credit_ledger"`).execute(trx);
    await sql`drop table credit_ledger`.execute(trx);
    await sql`alter table credit_ledger_rebuilt rename to credit_ledger`.execute(trx);

    for (const d of dependents.rows) {
      let text = d.sql;
      if (d.type === 'trigger' && d.name === 'credit_ledger_balance') {
        if (!text.includes(swap.trigger[0])) throw new Error(`credit_ledger_balance is not as expected: ${text}`);
        text = text.replace(...swap.trigger);
      }
      await sql.raw(text).execute(trx);
    }
  });
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
