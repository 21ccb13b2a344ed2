import { z } from 'zod';
import { ERROR_CODES } from './errors';

/**
 * The console's roles (issue 28, decision 030). `isAdmin` keeps the spec's meaning, "may open the
 * console"; a member of staff's role decides what they may do there. `support` answers tickets:
 * it reads everything the console shows and takes the actions a ticket needs, but cannot delete
 * users, change roles, release builds, grant or refund credits (a user's or an organisation's), or
 * export every user.
 */
export const STAFF_ROLES = ['admin', 'support'] as const;
export const staffRoleSchema = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof staffRoleSchema>;

/**
 * The role of a user as stored: none unless they may open the console (`isAdmin`); an admin whose
 * role was never set (`stored` null, every admin before roles) is `admin`; a value that is not a
 * role gives the least: `support`.
 */
export function staffRoleOf(isAdmin: boolean, stored: string | null | undefined): StaffRole | null {
  if (!isAdmin) return null;
  if (stored == null) return 'admin';
  return stored === 'admin' ? 'admin' : 'support';
}

/** Every action of the console, with the roles that may take it. The server checks it on every admin route. */
export const STAFF_PERMISSIONS = {
  /** Open the console; read users, messages, AI history, usage, notes, the audit log and the Home. */
  read: ['admin', 'support'],
  signOutEverywhere: ['admin', 'support'],
  reissueLicense: ['admin', 'support'],
  /** Suspend and reinstate. */
  suspend: ['admin', 'support'],
  writeNotes: ['admin', 'support'],
  exportSelectedUsers: ['admin', 'support'],
  /** Edit a user's name, e-mail, Is Admin and role. */
  editUsers: ['admin'],
  deleteUsers: ['admin'],
  exportAllUsers: ['admin'],
  adjustCredits: ['admin'],
  refundCredits: ['admin'],
  releaseBuilds: ['admin'],
  /** Add credits to an organisation's shared pool, with a reason (issue 38). */
  grantOrgCredits: ['admin'],
  /** Download a user's signed license file, which carries their license token: audited (issue 36). */
  downloadLicense: ['admin'],
  /** Turn off a user's two-step sign-in after checking who asks (issue 40, the support path of decision 046). */
  resetSecondFactor: ['admin', 'support'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffAction = keyof typeof STAFF_PERMISSIONS;
export const STAFF_ACTIONS = Object.keys(STAFF_PERMISSIONS) as StaffAction[];

/** Whether a member of staff with `role` (null: not staff) may take `action`. */
export function staffMay(role: StaffRole | null | undefined, action: StaffAction): boolean {
  return role != null && (STAFF_PERMISSIONS[action] as readonly StaffRole[]).includes(role);
}

/** The refusal of an action the caller's role does not allow: 403 `role_forbidden` on every admin route. */
export const ROLE_REFUSAL = { error: ERROR_CODES.roleForbidden, message: 'Your role does not allow this' } as const;

/**
 * Who may act on whom (issue 36): roles are a hierarchy. `support` acts on customers only (a target
 * with no staff role); `admin` acts on anyone, within the rule that an active admin always remains
 * (`LAST_ADMIN_REFUSAL`). Nobody else acts on anyone.
 */
export const STAFF_TARGETS = {
  admin: [null, 'support', 'admin'],
  support: [null],
} as const satisfies Record<StaffRole, readonly (StaffRole | null)[]>;

/** Whether a member of staff with `actorRole` (null: not staff) may write about a user whose role is `targetRole`. */
export function staffMayActOn(actorRole: StaffRole | null | undefined, targetRole: StaffRole | null): boolean {
  return actorRole != null && (STAFF_TARGETS[actorRole] as readonly (StaffRole | null)[]).includes(targetRole);
}

/** The refusal of a write by `support` about a member of staff: 403 `role_forbidden`, whatever the action. */
export const STAFF_TARGET_REFUSAL = { error: ERROR_CODES.roleForbidden, message: 'Support can act on customers only' } as const;

/** 409 `last_admin`: a suspension, demotion or deletion that would leave no active admin. */
export const LAST_ADMIN_REFUSAL = { error: ERROR_CODES.lastAdmin, message: 'The product must keep at least one active admin' } as const;

/** Each action in the words of the console's refusal, "Only admins can …". */
const STAFF_ACTION_WORDS: Record<StaffAction, string> = {
  read: 'open the console',
  signOutEverywhere: 'sign users out everywhere',
  reissueLicense: 'reissue licenses',
  suspend: 'suspend users',
  writeNotes: 'write notes',
  exportSelectedUsers: 'export selected users',
  editUsers: 'edit users',
  deleteUsers: 'delete users',
  exportAllUsers: 'export every user',
  adjustCredits: 'grant or deduct credits',
  refundCredits: 'refund credit packs',
  releaseBuilds: 'release builds',
  grantOrgCredits: "grant credits to an organisation's pool",
  downloadLicense: 'download licenses',
  resetSecondFactor: 'reset two-step sign-in',
};
const ROLES_PLURAL: Record<StaffRole, string> = { admin: 'admins', support: 'support' };

/**
 * Why a member of staff with `role` may not take `action` (on a user whose role is `target.role`,
 * for an action about a user), or null when they may: what the console says beside a control it
 * switches off, the same rules the server holds (`staffMay`, then `staffMayActOn`).
 */
export function staffRefusal(role: StaffRole | null | undefined, action: StaffAction, target?: { role: StaffRole | null }): string | null {
  if (!staffMay(role, action))
    return `Only ${STAFF_PERMISSIONS[action].map((r) => ROLES_PLURAL[r]).join(' and ')} can ${STAFF_ACTION_WORDS[action]}`;
  if (target && !staffMayActOn(role, target.role)) return STAFF_TARGET_REFUSAL.message;
  return null;
}
