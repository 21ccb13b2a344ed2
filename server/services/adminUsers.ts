import { Readable } from 'node:stream';
import { PostgresAdapter, sql, type Expression, type RawBuilder, type ExpressionBuilder, type SqlBool } from 'kysely';
import {
  ADMIN_MESSAGES,
  SEARCH_LIST_LIMIT,
  type AdminUser,
  type UserListRequest,
  type UserSortField,
  type UserUpdate,
} from '../../contract/admin';
import type { StaffRole } from '../../contract/staffRoles';
import type { Database, Db } from '../db';
import type { UsersTable } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import type { AccountDeletionService } from './account/deletion';
import type { Actor, AuditService } from './audit';
import type { CustomerEmails } from './billing/customerEmail';
import { toCsvRow } from './csv';
import type { SessionService } from './sessions';
import { checkStaffAuthority } from './staffAuthority';
import { isUniqueViolation, normalizeEmail, staffRoleOfUser } from './users';

/** Rows a search answers; a search is for finding someone, not for paging. */
export const SEARCH_LIMIT = 50;
/** Rows read per query while streaming the CSV export. */
const EXPORT_BATCH = 1000;

/** Terms of this many characters (code points) or more match anywhere; shorter ones match a start. */
export const SUBSTRING_MIN_LENGTH = 3;

/** True when `term` is long enough to be looked up by trigrams. */
export const matchesAnywhere = (term: string): boolean => [...term].length >= SUBSTRING_MIN_LENGTH;

/** A LIKE pattern (ESCAPE '\') for `part` anywhere, its own `%`, `_` and `\` taken literally. */
export const likeContaining = (part: string): string => `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An FTS5 query for `part` as one literal phrase: quoted, its own quotes doubled. */
export const ftsPhrase = (part: string): string => `"${part.replaceAll('"', '""')}"`;

const iso = (ms: number) => new Date(ms).toISOString();

/** Whether the list is narrowed by one of its yes/no filters. */
const narrowed = (query: UserListRequest): boolean => query.noEpic === true || query.onWithdrawn === true;

/**
 * The list's yes/no filters as one condition on `users`: no Epic link (issue 40); an install on a
 * withdrawn build (issue 41), whose users the console asks to move.
 */
function listFilter(query: UserListRequest) {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    if (query.noEpic) conditions.push(eb('users.epic_account_id', 'is', null));
    if (query.onWithdrawn) {
      const withdrawnVersions = eb
        .selectFrom('sage_builds')
        .select('sage_builds.version')
        .where('sage_builds.withdrawn_at', 'is not', null);
      const onWithdrawn = eb
        .selectFrom('plugin_installs')
        .select('plugin_installs.user_id')
        .where('plugin_installs.plugin_version', 'in', withdrawnVersions);
      conditions.push(eb('users.id', 'in', onWithdrawn));
    }
    return eb.and(conditions);
  };
}

export function toAdminUser(row: UsersTable): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    status: row.status,
    isAdmin: row.is_admin === 1,
    role: staffRoleOfUser(row),
    epicDisplayName: row.epic_display_name,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The user an admin acts on, read with `db` (or the caller's transaction); 404 `User not found`. */
export async function findUser(db: Db, id: string): Promise<UsersTable> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(ADMIN_MESSAGES.userNotFound);
  return row;
}

/** Is Admin and the role after an edit: left out, they stay; a new admin is `admin` unless the edit says otherwise. */
function roleAfter(before: UsersTable, changes: UserUpdate): { isAdmin: boolean; role: StaffRole | null } {
  const isAdmin = changes.isAdmin ?? before.is_admin === 1;
  return { isAdmin, role: isAdmin ? (changes.role ?? staffRoleOfUser(before) ?? 'admin') : null };
}

/** What the audit log keeps of a user: no password hash, no license token. */
const auditView = (row: UsersTable) => ({
  username: row.username,
  email: row.email,
  status: row.status,
  isAdmin: row.is_admin === 1,
  role: staffRoleOfUser(row),
});

const CSV_COLUMNS = ['id', 'username', 'email', 'status', 'isAdmin', 'epicDisplayName', 'createdAt'] as const;
/** One user's line of users.csv. */
const csvRecord = (row: UsersTable): string => {
  const user = toAdminUser(row);
  return toCsvRow(CSV_COLUMNS.map((column) => String(user[column] ?? '')));
};

/** Users as admins search, page, edit, delete and export them (product §2 Admin dashboard). */
export function createAdminUserService(deps: {
  db: Db;
  sessions: SessionService;
  audit: AuditService;
  deletion: AccountDeletionService;
  /** Stripe's copy of the address, where receipts and invoices go: an edit of it is sent on (issue 27). */
  customerEmails: Pick<CustomerEmails, 'markOutdated' | 'sendSoon'>;
}) {
  const { db, audit } = deps;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // The indexed expressions of migration 006, compared in byte order so a prefix is a range.
  const usernameKey = postgres ? sql<string>`lower(username) collate "C"` : sql<string>`lower(username)`;
  const emailKey = postgres ? sql<string>`coalesce(email, '') collate "C"` : sql<string>`coalesce(email, '')`;
  const sortKeys: Record<UserSortField, RawBuilder<string | number>> = {
    username: usernameKey,
    email: emailKey,
    createdAt: sql<number>`created_at`,
  };

  /** Starts with `prefix`: `prefix <= key < prefix + U+10FFFF`, which an index answers as a range. */
  function startsWith(eb: ExpressionBuilder<Database, 'users'>, key: Expression<string>, prefix: string): Expression<SqlBool> {
    return eb.and([eb(key, '>=', prefix), eb(key, '<', `${prefix}\u{10FFFF}`)]);
  }

  /** Has `part` anywhere (PostgreSQL), spelled as migration 007's trigram indexes index it. */
  function contains(column: 'username' | 'email', part: string): RawBuilder<SqlBool> {
    const indexed = column === 'username' ? sql`lower(username)` : sql`coalesce(email, '')`;
    return sql<SqlBool>`${indexed} like ${likeContaining(part)} escape '\\'`;
  }

  /**
   * The ids of users with `part` anywhere in their username or e-mail (SQLite): migration 007's FTS5
   * trigram table; `limit` of them, the most recently indexed.
   */
  function idsContaining(part: string, limit: number): RawBuilder<string> {
    return sql<string>`(select user_id from user_search_ids where search_id in (select rowid from users_search where users_search match ${ftsPhrase(part)} order by rowid desc limit ${limit}))`;
  }

  /**
   * The username or e-mail (case-insensitive) has the term anywhere, or, for a term too short for
   * trigrams, starts with it; or the id is the term. SQLite's trigram table gives only `limit` of
   * them (the caller limits the whole answer too; PostgreSQL stops as it finds them).
   */
  function matches(term: string, limit: number) {
    const lowered = term.toLowerCase();
    return (eb: ExpressionBuilder<Database, 'users'>) => {
      const byId = eb('id', '=', term);
      if (!matchesAnywhere(term)) return eb.or([startsWith(eb, usernameKey, lowered), startsWith(eb, emailKey, lowered), byId]);
      if (postgres) return eb.or([contains('username', lowered), contains('email', lowered), byId]);
      return eb.or([sql<SqlBool>`id in ${idsContaining(lowered, limit)}`, byId]);
    };
  }

  /** How many users there are: the count triggers keep in the same transaction as every insert and delete (migration 005). */
  async function countAll(): Promise<number> {
    const { row_count } = await db.selectFrom('row_counts').select('row_count').where('table_name', '=', 'users').executeTakeFirstOrThrow();
    return Number(row_count);
  }

  return {
    totalUsers: countAll,

    /** Active subscribers (active or trialing) whose account has no Epic link yet: the console Home's count (issue 40). */
    async subscribersWithoutEpic(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('epic_account_id', 'is', null)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('billing_subscriptions')
              .select('billing_subscriptions.id')
              .whereRef('billing_subscriptions.user_id', '=', 'users.id')
              .where('billing_subscriptions.status', 'in', ['active', 'trialing']),
          ),
        )
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * One page of users and how many match in all. The whole list seeks (decision 011): the page's
     * first row is found on the sort key's index alone, then the page is read from it as a range,
     * so page 200 costs about what page 1 does. A search takes at most SEARCH_LIST_LIMIT matches
     * and pages them by offset.
     */
    async list(query: UserListRequest): Promise<{ users: AdminUser[]; total: number }> {
      const descending = query.order === 'DESC';
      const direction = descending ? 'desc' : 'asc';
      const sortKey = sortKeys[query.sort];
      const { offset } = query;
      const page = () => db.selectFrom('users').selectAll().orderBy(sortKey, direction).orderBy('id', direction).limit(query.limit);

      if (query.q) {
        // A search lists at most SEARCH_LIST_LIMIT matches (decision 020): found, then sorted. Its
        // cost is bounded by the limit, however many users match or wherever they sort.
        const found = db
          .selectFrom('users')
          .select(['id', sortKey.as('sort_key')])
          .where(matches(query.q, SEARCH_LIST_LIMIT))
          .$if(narrowed(query), (qb) => qb.where(listFilter(query)))
          .limit(SEARCH_LIST_LIMIT);
        const rows = await db
          .with(
            (cte) => cte('found').materialized(),
            () => found,
          )
          .with('page', (qb) =>
            qb
              .selectFrom('found')
              .select(['id', 'sort_key'])
              .orderBy('sort_key', direction)
              .orderBy('id', direction)
              .limit(query.limit)
              .offset(offset),
          )
          .selectFrom('page')
          .innerJoin('users', 'users.id', 'page.id')
          .selectAll('users')
          .select((eb) => eb.selectFrom('found').select(eb.fn.countAll<number | string>().as('n')).as('found_total'))
          .orderBy('page.sort_key', direction)
          .orderBy('page.id', direction)
          .execute();
        const total = rows[0]
          ? Number(rows[0].found_total)
          : Number(
              (
                await db
                  .with(
                    (cte) => cte('found').materialized(),
                    () => found,
                  )
                  .selectFrom('found')
                  .select((eb) => eb.fn.countAll<number | string>().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            );
        return { users: rows.map(toAdminUser), total };
      }
      if (narrowed(query)) {
        // "No Epic link" (issue 40), "On a withdrawn build" (issue 41): fewer every day as accounts
        // link and installs move; paged by offset, counted as it goes.
        const [rows, counted] = await Promise.all([
          page().where(listFilter(query)).offset(offset).execute(),
          db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where(listFilter(query))
            .executeTakeFirstOrThrow(),
        ]);
        return { users: rows.map(toAdminUser), total: Number(counted.n) };
      }
      if (offset === 0) {
        const [rows, total] = await Promise.all([page().execute(), countAll()]);
        return { users: rows.map(toAdminUser), total };
      }
      const first = await db
        .selectFrom('users')
        .select([sortKey.as('sort_key'), 'id'])
        .orderBy(sortKey, direction)
        .orderBy('id', direction)
        .limit(1)
        .offset(offset)
        .executeTakeFirst();
      const total = await countAll();
      if (!first) return { users: [], total };
      // (key, id) at or past the first row's, spelled out: both databases range-scan `key >= k` on the index.
      const [atOrPast, past] = descending ? (['<=', '<'] as const) : (['>=', '>'] as const);
      const rows = await page()
        .where((eb) =>
          eb.and([eb(sortKey, atOrPast, first.sort_key), eb.or([eb(sortKey, past, first.sort_key), eb('id', atOrPast, first.id)])]),
        )
        .execute();
      return { users: rows.map(toAdminUser), total };
    },

    /** The users with these ids (those that exist), in the order asked: react-admin's getMany. */
    async withIds(ids: readonly string[]): Promise<AdminUser[]> {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0) return [];
      const rows = await db.selectFrom('users').selectAll().where('id', 'in', wanted).execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      return wanted.flatMap((id) => {
        const row = byId.get(id);
        return row ? [toAdminUser(row)] : [];
      });
    },

    /**
     * Up to SEARCH_LIMIT users by id, by the start of their username or e-mail, then, for a term of
     * SUBSTRING_MIN_LENGTH or more, by the term anywhere; those that start with it come first, and
     * the answer is in username order. The reads are separate, merged here: as one OR query,
     * PostgreSQL may walk the whole username index in order. The "anywhere" read takes any
     * SEARCH_LIMIT matches without sorting them, so a term half the users have costs what a rare
     * one does (sorting every match of a common term was most of a search's time).
     */
    async search(raw: string): Promise<AdminUser[]> {
      const term = raw.trim();
      const lowered = term.toLowerCase();
      const [byId, byUsername, byEmail] = await Promise.all([
        db.selectFrom('users').selectAll().where('id', '=', term).execute(),
        db
          .selectFrom('users')
          .selectAll()
          .where((eb) => startsWith(eb, usernameKey, lowered))
          .orderBy(usernameKey)
          .orderBy('id')
          .limit(SEARCH_LIMIT)
          .execute(),
        db
          .selectFrom('users')
          .selectAll()
          .where((eb) => startsWith(eb, emailKey, lowered))
          .orderBy(emailKey)
          .orderBy('id')
          .limit(SEARCH_LIMIT)
          .execute(),
      ]);
      const found = new Map([...byId, ...byUsername, ...byEmail].map((row) => [row.id, row]));
      if (found.size < SEARCH_LIMIT && matchesAnywhere(term)) {
        const anywhere = postgres
          ? db
              .selectFrom('users')
              .selectAll()
              .where((eb) => eb.or([contains('username', lowered), contains('email', lowered)]))
          : db
              .selectFrom('users')
              .selectAll()
              .where(sql<SqlBool>`id in ${idsContaining(lowered, SEARCH_LIMIT)}`);
        for (const row of await anywhere.limit(SEARCH_LIMIT).execute()) if (!found.has(row.id)) found.set(row.id, row);
      }
      const key = (row: UsersTable) => row.username.toLowerCase();
      return [...found.values()]
        .slice(0, SEARCH_LIMIT)
        .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : 1))
        .map(toAdminUser);
    },

    async get(id: string): Promise<AdminUser> {
      return toAdminUser(await findUser(db, id));
    },

    /**
     * Edits the user; the change, its audit entry, a demoted admin's ended sessions and, for a new
     * address, the mark on their Stripe customer are one transaction. The address is sent to Stripe
     * after the commit, as a confirmed change of the user's own is (billing/customerEmail.ts).
     */
    async update(actor: Actor, id: string, changes: UserUpdate): Promise<AdminUser> {
      const edited = await db.transaction().execute(async (trx) => {
        // The editor still an admin, and an active admin left after the change, read under the lock.
        const before = await checkStaffAuthority(trx, {
          actor,
          action: 'editUsers',
          targetId: id,
          change: (user) => roleAfter(user, changes),
        });
        const { isAdmin, role } = roleAfter(before, changes);
        // Only an admin edits users, so anything less for their own account is a demotion.
        if (id === actor.id && role !== 'admin') throw badRequest('self_demotion', ADMIN_MESSAGES.selfDemotion);
        const email = normalizeEmail(changes.email);
        const values = {
          username: changes.username,
          email,
          // A changed address is no longer the one that was verified.
          email_verified_at: email === before.email ? before.email_verified_at : null,
          is_admin: isAdmin ? 1 : 0,
          staff_role: role,
          updated_at: Date.now(),
        };
        try {
          await trx.updateTable('users').set(values).where('id', '=', id).execute();
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict('email_taken', ADMIN_MESSAGES.emailTaken);
          throw err;
        }
        const after = await findUser(trx, id);
        // Marked with the edit, so a send to Stripe that fails or never starts is retried, not lost.
        const tellStripe = after.email !== before.email && (await deps.customerEmails.markOutdated(trx, id, values.updated_at));
        await audit.record(
          actor,
          { action: 'user.update', targetType: 'user', targetId: id, before: auditView(before), after: auditView(after) },
          trx,
        );
        // A demoted admin keeps no admin session.
        if (before.is_admin === 1 && !isAdmin) await deps.sessions.endAllForUser(id, trx);
        return { user: toAdminUser(after), tellStripe };
      });
      if (edited.tellStripe) deps.customerEmails.sendSoon(id);
      return edited.user;
    },

    /**
     * Deletes the user as an account's own deletion does (services/account/deletion.ts: Stripe's
     * subscriptions cancelled, data deleted, accounting kept without the person), audited as
     * `user.delete`; answers them as they were.
     */
    async remove(actor: Actor, id: string): Promise<AdminUser> {
      if (id === actor.id) throw badRequest('self_deletion', ADMIN_MESSAGES.selfDeletion);
      return toAdminUser(await deps.deletion.remove(id, { by: 'staff', actor }));
    },

    /** users.csv, read in keyset batches so memory stays flat however many users there are. */
    exportCsv(): Readable {
      async function* rows() {
        yield toCsvRow([...CSV_COLUMNS]);
        let after: { created_at: number; id: string } | null = null;
        for (;;) {
          let page = db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').limit(EXPORT_BATCH);
          if (after) {
            const { created_at: at, id } = after;
            page = page.where((eb) => eb.or([eb('created_at', '>', at), eb.and([eb('created_at', '=', at), eb('id', '>', id)])]));
          }
          const batch = await page.execute();
          for (const row of batch) yield csvRecord(row);
          if (batch.length < EXPORT_BATCH) return;
          const last = batch[batch.length - 1]!;
          after = { created_at: last.created_at, id: last.id };
        }
      }
      return Readable.from(rows());
    },

    /**
     * The users with these ids (those that exist) as users.csv, oldest first like the whole export,
     * audited as one `users.export_selected` entry that names them: who took whose data out.
     */
    async exportSelectedCsv(actor: Actor, ids: readonly string[]): Promise<string> {
      const wanted = [...new Set(ids)];
      const rows = await db.selectFrom('users').selectAll().where('id', 'in', wanted).orderBy('created_at').orderBy('id').execute();
      await audit.record(actor, {
        action: 'users.export_selected',
        targetType: 'user',
        targetId: null,
        after: { count: rows.length, ids: rows.map((row) => row.id) },
      });
      return [toCsvRow([...CSV_COLUMNS]), ...rows.map(csvRecord)].join('');
    },
  };
}

export type AdminUserService = ReturnType<typeof createAdminUserService>;
