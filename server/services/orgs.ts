import { randomUUID } from 'node:crypto';
import type { AuditAction } from '../../contract/admin';
import {
  ORG_ERRORS,
  memberChangeRefusal,
  orgMay,
  orgRoleSchema,
  roleGrantRefusal,
  type AssignableOrgRole,
  type Org,
  ORG_AUDIT_PAGE,
  type OrgAction,
  type OrgAudit,
  type OrgAuditEntry,
  type OrgInput,
  type OrgList,
  type OrgMember,
  type OrgMembers,
  type OrgRole,
} from '../../contract/orgs';
import { isPostgres, type Db } from '../db';
import type { OrgsTable } from '../db/schema';
import { AppError } from '../errors';
import { field, orgAuditText, STAFF_ACTOR } from './orgAuditText';
import { parseAuditJson, type Actor, type AuditService } from './audit';
import { transactionRetriedOnDeadlock } from './userLock';
import { lockPool, lockSeats, orgPlanOf, releaseSeat } from './metering/orgSeat';
import { seatMeter } from './orgSeats';

const iso = (ms: number) => new Date(ms).toISOString();

/** A refusal of the organisations' contracts (ORG_ERRORS, INVITATION_ERRORS) as the HTTP answer it is. */
export const refused = (refusal: { status: number; error: string; message: string }, cause?: unknown): AppError =>
  new AppError(refusal.status, refusal.error, refusal.message, cause === undefined ? undefined : { cause });

/** The organisations `userId` owns: an account that owns one is not deleted (decision 038). */
export async function orgsOwnedBy(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('org_members').select('org_id').where('user_id', '=', userId).where('role', '=', 'owner').execute();
  return rows.map((row) => row.org_id);
}

/** The order members are listed in: the owner, admins, billing, members. */
const ROLE_ORDER: Record<OrgRole, number> = { owner: 0, admin: 1, billing: 2, member: 3 };

/** A stored role; a value that is not one reads as the least, `member`. */
const storedRoleSchema = orgRoleSchema.catch('member');
export const roleOf = (stored: string): OrgRole => storedRoleSchema.parse(stored);

/**
 * The organisation's row, locked for the transaction's writes on PostgreSQL; 404 if none. `for no
 * key update`: changes of one organisation queue here, but a use charged to it, which holds the
 * pool's row and then inserts rows referring to the organisation (a key share), does not wait on
 * a change that waits on the pool: that was a deadlock.
 */
export async function lockOrg(trx: Db, orgId: string): Promise<OrgsTable> {
  const query = trx.selectFrom('orgs').selectAll().where('id', '=', orgId);
  const org = await (isPostgres(trx) ? query.forNoKeyUpdate() : query).executeTakeFirst();
  if (!org) throw refused(ORG_ERRORS.notFound);
  return org;
}

/** A user's role in the organisation as stored, or null if they are not a member. */
export async function storedRole(trx: Db, orgId: string, userId: string): Promise<OrgRole | null> {
  const row = await trx
    .selectFrom('org_members')
    .select('role')
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? roleOf(row.role) : null;
}

/** The caller's role in the organisation: 404 if they are not a member, 403 if it may not take `action`. */
export async function roleFor(trx: Db, orgId: string, userId: string, action: OrgAction): Promise<OrgRole> {
  const role = await storedRole(trx, orgId, userId);
  if (!role) throw refused(ORG_ERRORS.notFound);
  if (!orgMay(role, action)) throw refused(ORG_ERRORS.roleForbidden);
  return role;
}

/**
 * Every member of the organisation with their seat, limit and usage in the period starting at
 * `periodStart`, the owner first, then by role and name: what its members and staff see.
 */
export async function orgMemberList(db: Db, orgId: string, periodStart: number): Promise<OrgMember[]> {
  const rows = await db
    .selectFrom('org_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('org_seats as s', (join) => join.onRef('s.org_id', '=', 'm.org_id').onRef('s.user_id', '=', 'm.user_id'))
    .leftJoin('org_member_periods as p', (join) =>
      join.onRef('p.org_id', '=', 'm.org_id').onRef('p.user_id', '=', 'm.user_id').on('p.period_start', '=', periodStart),
    )
    .select([
      'm.user_id',
      'm.role',
      'm.joined_at',
      'm.monthly_limit',
      'u.username',
      'u.epic_display_name',
      'u.email',
      'u.suspended_at',
      's.id as seat_id',
      'p.seat_used',
      'p.pool_used',
      'p.last_use_at',
    ])
    .where('m.org_id', '=', orgId)
    .execute();
  const list: OrgMember[] = rows.map((row) => ({
    userId: row.user_id,
    name: row.epic_display_name ?? row.username,
    email: row.email,
    role: roleOf(row.role),
    joinedAt: iso(Number(row.joined_at)),
    seat: row.seat_id !== null,
    monthlyLimit: row.monthly_limit === null ? null : Number(row.monthly_limit),
    usage: Number(row.seat_used ?? 0) + Number(row.pool_used ?? 0),
    poolUsage: Number(row.pool_used ?? 0),
    lastActiveAt: row.last_use_at === null ? null : iso(Number(row.last_use_at)),
    suspended: row.suspended_at != null,
  }));
  list.sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.name.localeCompare(b.name, 'en') || a.userId.localeCompare(b.userId));
  return list;
}

/** Entries staff write about an organisation: its members see who did it as Sage staff, not a staff member's address. */
const BY_STAFF: ReadonlySet<string> = new Set<AuditAction>(['org.credits.grant']);

/**
 * The organisation's audit log, the newest ORG_AUDIT_PAGE entries, newest first, in words. Its
 * owners and admins (`member`) see a staff member's entry as by Sage staff (the account's data
 * export withholds staff addresses the same way); staff see who it was.
 */
export async function orgAuditEntries(db: Db, orgId: string, reader: 'member' | 'staff'): Promise<OrgAuditEntry[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select(['id', 'action', 'actor_id', 'actor_email', 'before_json', 'after_json', 'created_at'])
    .where('target_id', '=', orgId)
    .where('target_type', '=', 'org')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(ORG_AUDIT_PAGE)
    .execute();
  const parsed = rows.map((row) => ({ row, before: parseAuditJson(row.before_json), after: parseAuditJson(row.after_json) }));
  // The people the sentences name, by id: members then or now, who may have changed address.
  const ids = new Set<string>();
  for (const { row, before, after } of parsed) {
    if (row.actor_id) ids.add(row.actor_id);
    for (const value of [before, after])
      for (const key of ['userId', 'owner']) {
        const id = field(value, key);
        if (typeof id === 'string') ids.add(id);
      }
  }
  const people = ids.size
    ? await db
        .selectFrom('users')
        .select(['id', 'email', 'username'])
        .where('id', 'in', [...ids])
        .execute()
    : [];
  const names = new Map(people.map((p) => [p.id, p.email ?? p.username]));
  const nameOf = (id: unknown) => (typeof id === 'string' && names.get(id)) || 'a deleted account';
  return parsed.map(({ row, before, after }) => ({
    id: row.id,
    action: row.action,
    actor:
      reader === 'member' && BY_STAFF.has(row.action)
        ? STAFF_ACTOR
        : row.actor_id
          ? (names.get(row.actor_id) ?? row.actor_email)
          : row.actor_email,
    at: iso(Number(row.created_at)),
    text: orgAuditText(row.action as Parameters<typeof orgAuditText>[0], before, after, nameOf),
  }));
}

/**
 * Organisations (issue 38, decision 038): created by any signed-in user, who becomes the owner;
 * read by their members; changed as the role table of contract/orgs.ts allows. To anyone who is
 * not a member an organisation does not exist (404). Each write lands with its audit entry, in
 * one transaction that first locks the organisation's row, so two changes of its members are one
 * after the other on either database.
 */
export function createOrgService(deps: { db: Db; audit: AuditService }) {
  const { db, audit } = deps;

  async function memberRole(trx: Db, orgId: string, userId: string): Promise<OrgRole> {
    const role = await storedRole(trx, orgId, userId);
    if (!role) throw refused(ORG_ERRORS.memberNotFound);
    return role;
  }

  /** The organisations `userId` belongs to, with their role and head count; `orgId` narrows it to one. */
  async function orgsOf(userId: string, orgId?: string): Promise<Org[]> {
    let query = db
      .selectFrom('org_members as mine')
      .innerJoin('orgs', 'orgs.id', 'mine.org_id')
      .select((eb) => [
        'orgs.id',
        'orgs.name',
        'orgs.created_at',
        'mine.role',
        eb
          .selectFrom('org_members as all')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('all.org_id', '=', 'orgs.id')
          .as('members'),
      ])
      .where('mine.user_id', '=', userId);
    if (orgId) query = query.where('orgs.id', '=', orgId);
    const rows = await query.orderBy('orgs.name').orderBy('orgs.id').execute();
    return Promise.all(
      rows.map(async (row) => ({
        id: row.id,
        name: row.name,
        role: roleOf(row.role),
        members: Number(row.members ?? 0),
        seats: await seatMeter(db, row.id),
        createdAt: iso(Number(row.created_at)),
      })),
    );
  }

  async function get(userId: string, orgId: string): Promise<Org> {
    const [org] = await orgsOf(userId, orgId);
    if (!org) throw refused(ORG_ERRORS.notFound);
    return org;
  }

  /** Every member with their seat, limit and this period's usage, the owner first, then by role and name. */
  async function members(userId: string, orgId: string, now = Date.now()): Promise<OrgMembers> {
    await roleFor(db, orgId, userId, 'read');
    const { period } = await orgPlanOf(db, orgId, now);
    return { members: await orgMemberList(db, orgId, period.start) };
  }

  /** One member as the members list shows them. */
  async function member(callerId: string, orgId: string, userId: string): Promise<OrgMember> {
    const found = (await members(callerId, orgId)).members.find((m) => m.userId === userId);
    if (!found) throw refused(ORG_ERRORS.memberNotFound);
    return found;
  }

  return {
    /** The organisation's own audit log, newest first, in words (owner, admin). */
    async audit(userId: string, orgId: string): Promise<OrgAudit> {
      await roleFor(db, orgId, userId, 'readAudit');
      return { entries: await orgAuditEntries(db, orgId, 'member') };
    },

    /** Creates an organisation owned by `actor`, audited as org.create. */
    async create(actor: Actor, { name }: OrgInput, now = Date.now()): Promise<Org> {
      const id = randomUUID();
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('orgs').values({ id, name, created_at: now, updated_at: now }).execute();
        await trx
          .insertInto('org_members')
          .values({ org_id: id, user_id: actor.id, role: 'owner', joined_at: now, monthly_limit: null })
          .execute();
        await trx.insertInto('org_pools').values({ org_id: id, credits: 0, high_water: 0, low_notified_at: null }).execute();
        await audit.record(actor, { action: 'org.create', targetType: 'org', targetId: id, after: { name } }, trx);
      });
      return get(actor.id, id);
    },

    list: async (userId: string): Promise<OrgList> => ({ orgs: await orgsOf(userId) }),

    get,

    /** Renames the organisation (owner, admin), audited as org.rename. */
    async rename(actor: Actor, orgId: string, { name }: OrgInput, now = Date.now()): Promise<Org> {
      await db.transaction().execute(async (trx) => {
        const org = await lockOrg(trx, orgId);
        await roleFor(trx, orgId, actor.id, 'rename');
        if (org.name === name) return;
        await trx.updateTable('orgs').set({ name, updated_at: now }).where('id', '=', orgId).execute();
        await audit.record(
          actor,
          { action: 'org.rename', targetType: 'org', targetId: orgId, before: { name: org.name }, after: { name } },
          trx,
        );
      });
      return get(actor.id, orgId);
    },

    members,

    /** Gives a member another role below owner (owner, admin; only the owner makes or unmakes admins), audited as org.member.role. */
    async changeRole(actor: Actor, orgId: string, userId: string, role: AssignableOrgRole): Promise<OrgMember> {
      await db.transaction().execute(async (trx) => {
        await lockOrg(trx, orgId);
        const actorRole = await roleFor(trx, orgId, actor.id, 'manageMembers');
        const targetRole = await memberRole(trx, orgId, userId);
        const refusal =
          memberChangeRefusal({ userId: actor.id, role: actorRole }, { userId, role: targetRole }, 'role') ??
          roleGrantRefusal(actorRole, role);
        if (refusal) throw refused(refusal);
        if (targetRole === role) return;
        await trx.updateTable('org_members').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
        await audit.record(
          actor,
          { action: 'org.member.role', targetType: 'org', targetId: orgId, before: { userId, role: targetRole }, after: { userId, role } },
          trx,
        );
      });
      return member(actor.id, orgId, userId);
    },

    member,

    /**
     * Removes a member (owner, admin; only the owner removes an admin), or lets the caller leave
     * (any role but owner): audited as org.member.remove or org.member.leave.
     */
    async removeMember(actor: Actor, orgId: string, userId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockOrg(trx, orgId);
        const leaving = userId === actor.id;
        const actorRole = await roleFor(trx, orgId, actor.id, leaving ? 'read' : 'manageMembers');
        const targetRole = await memberRole(trx, orgId, userId);
        const refusal = memberChangeRefusal({ userId: actor.id, role: actorRole }, { userId, role: targetRole }, 'remove');
        if (refusal) throw refused(refusal);
        // The seat's row is what a use charged to the organisation takes: once this answers, none is.
        await releaseSeat(trx, orgId, userId);
        await trx.deleteFrom('org_members').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
        await audit.record(
          actor,
          {
            action: leaving ? 'org.member.leave' : 'org.member.remove',
            targetType: 'org',
            targetId: orgId,
            before: { userId, role: targetRole },
          },
          trx,
        );
      });
    },

    /** Makes a member the owner; the owner becomes an admin. Owner only, audited as org.transfer. */
    async transfer(actor: Actor, orgId: string, userId: string): Promise<Org> {
      await transactionRetriedOnDeadlock(db, async (trx) => {
        await lockOrg(trx, orgId);
        await roleFor(trx, orgId, actor.id, 'transferOwnership');
        if (userId === actor.id) throw refused(ORG_ERRORS.transferToSelf);
        const targetRole = await memberRole(trx, orgId, userId);
        // The new owner's account is share-locked: its deletion, which refuses an owner, waits for this.
        if (isPostgres(trx)) await trx.selectFrom('users').select('id').where('id', '=', userId).forShare().execute();
        // The old owner steps down first: the index allows one owner row at a time.
        await trx.updateTable('org_members').set({ role: 'admin' }).where('org_id', '=', orgId).where('user_id', '=', actor.id).execute();
        await trx.updateTable('org_members').set({ role: 'owner' }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
        await audit.record(
          actor,
          {
            action: 'org.transfer',
            targetType: 'org',
            targetId: orgId,
            before: { owner: actor.id, role: targetRole },
            after: { owner: userId },
          },
          trx,
        );
      });
      return get(actor.id, orgId);
    },

    /**
     * Deletes the organisation and its memberships. Owner only, audited as org.delete. Its plan is
     * cancelled at Stripe first (`cancelPlans`), as an account's deletion does: a failure there deletes nothing.
     */
    async remove(actor: Actor, orgId: string, cancelPlans: () => Promise<void>): Promise<void> {
      await roleFor(db, orgId, actor.id, 'deleteOrg');
      await cancelPlans();
      await db.transaction().execute(async (trx) => {
        const org = await lockOrg(trx, orgId);
        await roleFor(trx, orgId, actor.id, 'deleteOrg');
        // Uses charged to it finish first: they hold a seat (and the pool), then refer to the
        // organisation. Taken in their order: the seats, then the pool.
        await lockSeats(trx, orgId);
        await lockPool(trx, orgId);
        const { n } = await trx
          .selectFrom('org_members')
          .select((c) => c.fn.countAll<number>().as('n'))
          .where('org_id', '=', orgId)
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('orgs').where('id', '=', orgId).execute();
        await audit.record(
          actor,
          { action: 'org.delete', targetType: 'org', targetId: orgId, before: { name: org.name, members: Number(n) } },
          trx,
        );
      });
    },
  };
}

export type OrgService = ReturnType<typeof createOrgService>;
