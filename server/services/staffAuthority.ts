import { sql } from 'kysely';
import { ERROR_CODES } from '../../contract/errors';
import {
  LAST_ADMIN_REFUSAL,
  ROLE_REFUSAL,
  STAFF_TARGET_REFUSAL,
  staffMay,
  staffMayActOn,
  type StaffAction,
  type StaffRole,
} from '../../contract/staffRoles';
import { isSuspended } from '../../contract/suspension';
import { isPostgres, type Db } from '../db';
import type { UsersTable } from '../db/schema';
import { conflict, forbidden } from '../errors';
import { findUser } from './adminUsers';
import type { Actor } from './audit';
import { staffRoleOfUser } from './users';

/**
 * What a write does to its target's standing as an admin: nothing, a suspension, a deletion, or a
 * new `isAdmin` and role (the edit form).
 */
export type TargetChange = 'none' | 'suspended' | 'removed' | { isAdmin: boolean; role: StaffRole | null };

export interface StaffWrite {
  /** Who acts; null when nobody acts as staff (the account's own deletion). */
  actor: Actor | null;
  action: StaffAction;
  targetId: string;
  /** What the write does to the target, or how to tell from the target as read under the lock. */
  change?: TargetChange | ((target: UsersTable) => TargetChange);
  /** The 409's message where the flow words it itself (the account's own deletion). */
  lastAdminMessage?: string;
}

/**
 * Every user may take these on their own account (Account page): on oneself they need no staff
 * role, and no hierarchy applies. Nothing that changes a role is among them.
 */
const OWN_ACCOUNT_ACTIONS: readonly StaffAction[] = ['reissueLicense', 'signOutEverywhere'];

/** The advisory lock every staff write takes first on PostgreSQL, so role changes and the writes they race run one at a time. */
const STAFF_WRITES_LOCK = 362026;

/** An admin who can still do everything: Is Admin, the admin role (or none stored: decision 030), not suspended. */
export const isActiveAdmin = (row: Pick<UsersTable, 'is_admin' | 'staff_role' | 'status'>): boolean =>
  staffRoleOfUser(row) === 'admin' && !isSuspended(row.status);

function removesActiveAdmin(target: UsersTable, change: TargetChange): boolean {
  if (!isActiveAdmin(target) || change === 'none') return false;
  if (change === 'suspended' || change === 'removed') return true;
  return !change.isAdmin || change.role !== 'admin';
}

async function activeAdminsBesides(trx: Db, userId: string): Promise<number> {
  const { n } = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('is_admin', '=', 1)
    .where((eb) => eb.or([eb('staff_role', 'is', null), eb('staff_role', '=', 'admin')]))
    .where('status', '<>', 'Suspended')
    .where('id', '<>', userId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Whether `user` is the product's only active admin (what the Delete account dialog tells them before they try). */
export async function isLastActiveAdmin(db: Db, user: UsersTable): Promise<boolean> {
  return isActiveAdmin(user) && (await activeAdminsBesides(db, user.id)) === 0;
}

async function lockStaffWrites(trx: Db): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${sql.lit(STAFF_WRITES_LOCK)})`.execute(trx);
}

/** The actor's role, read again: 403 `forbidden` if they are no longer staff, `role_forbidden` if it may not take `action`. */
async function roleAllowed(trx: Db, actor: Actor, action: StaffAction): Promise<StaffRole> {
  const row = await trx.selectFrom('users').select(['is_admin', 'staff_role', 'status']).where('id', '=', actor.id).executeTakeFirst();
  const role = row && !isSuspended(row.status) ? staffRoleOfUser(row) : null;
  if (role === null) throw forbidden(ERROR_CODES.forbidden, 'Admins only');
  if (!staffMay(role, action)) throw forbidden(ROLE_REFUSAL.error, ROLE_REFUSAL.message);
  return role;
}

/**
 * The rule of issue 36, checked first thing in every staff write's transaction (the route guard,
 * plugins/auth.ts, is only the early check): the actor's row read again, so a request already in
 * flight from someone just demoted fails (403); the hierarchy (support acts on customers only);
 * and no write leaves the product without an active admin (409 `last_admin`). On PostgreSQL a
 * transaction-wide advisory lock comes first, so two admins demoting each other run one after the
 * other and the second sees the first; SQLite runs one transaction at a time on its connection.
 * Answers the target as it is now; 404 for an unknown target.
 */
export async function checkStaffAuthority(trx: Db, write: StaffWrite): Promise<UsersTable> {
  await lockStaffWrites(trx);
  const { actor, action, targetId } = write;
  const onOwnAccount = actor?.id === targetId && OWN_ACCOUNT_ACTIONS.includes(action);
  const actorRole = actor && !onOwnAccount ? await roleAllowed(trx, actor, action) : null;
  const target = await findUser(trx, targetId);
  if (actor && !onOwnAccount && !staffMayActOn(actorRole, staffRoleOfUser(target)))
    throw forbidden(STAFF_TARGET_REFUSAL.error, STAFF_TARGET_REFUSAL.message);
  const change = typeof write.change === 'function' ? write.change(target) : (write.change ?? 'none');
  if (removesActiveAdmin(target, change) && (await activeAdminsBesides(trx, targetId)) === 0)
    throw conflict(LAST_ADMIN_REFUSAL.error, write.lastAdminMessage ?? LAST_ADMIN_REFUSAL.message);
  return target;
}

/**
 * The same check for a staff write about something other than a user (an organisation's pool):
 * first thing in the write's transaction, under the same lock, the actor's role read again, so a
 * request in flight from someone just demoted fails (403). No hierarchy applies: the target is no
 * one's account. Answers the actor's role.
 */
export async function checkStaffActor(trx: Db, actor: Actor, action: StaffAction): Promise<StaffRole> {
  await lockStaffWrites(trx);
  return roleAllowed(trx, actor, action);
}
