import { z } from 'zod';
import { ERROR_CODES } from './errors';

/**
 * Organisations (issue 38, decision 038): a studio's members, with one role each. `owner` may do
 * everything and is always exactly one member; `admin` runs the members (invitations, seats,
 * limits, roles below owner); `billing` buys and reads the bills; `member` uses a seat. Times are
 * ISO 8601.
 */
export const ORG_ROLES = ['owner', 'admin', 'billing', 'member'] as const;
export const orgRoleSchema = z.enum(ORG_ROLES);
export type OrgRole = z.infer<typeof orgRoleSchema>;

/** The roles a member may be given by a change of role: ownership moves only by a transfer. */
export const ASSIGNABLE_ORG_ROLES = ['admin', 'billing', 'member'] as const satisfies readonly OrgRole[];
export type AssignableOrgRole = (typeof ASSIGNABLE_ORG_ROLES)[number];

/** A role as a label: a column, a picker's choice. */
export const ORG_ROLE_NAMES: Record<OrgRole, string> = { owner: 'Owner', admin: 'Admin', billing: 'Billing', member: 'Member' };

/** A role in a sentence: "as a billing manager". */
export const ORG_ROLE_WORDS: Record<OrgRole, string> = {
  owner: 'the owner',
  admin: 'an admin',
  billing: 'a billing manager',
  member: 'a member',
};

/** Every action on an organisation, with the roles that may take it. The server checks it on every org route. */
export const ORG_PERMISSIONS = {
  /** See the organisation, its members and their usage. */
  read: ['owner', 'admin', 'billing', 'member'],
  rename: ['owner', 'admin'],
  /** Invite, remove members, change their roles (below owner). */
  manageMembers: ['owner', 'admin'],
  /** Give and take back seats; set members' monthly limits. */
  manageSeats: ['owner', 'admin'],
  /** Buy seats and credit packs, change the seat count, edit billing details, read invoices. */
  manageBilling: ['owner', 'billing'],
  /** Read its usage by member, day, project and engine version, and the period's CSV. */
  readUsage: ['owner', 'admin', 'billing'],
  /** Read the organisation's own audit log: who invited, removed, changed a role. */
  readAudit: ['owner', 'admin'],
  transferOwnership: ['owner'],
  deleteOrg: ['owner'],
} as const satisfies Record<string, readonly OrgRole[]>;
export type OrgAction = keyof typeof ORG_PERMISSIONS;

/** Whether a member with `role` may take `action`. */
export function orgMay(role: OrgRole, action: OrgAction): boolean {
  return (ORG_PERMISSIONS[action] as readonly OrgRole[]).includes(role);
}

/** The roles that may not take `action`: what the API document lists as refused. */
export const orgRolesRefused = (action: OrgAction): OrgRole[] => ORG_ROLES.filter((role) => !orgMay(role, action));

export const ORG_ERRORS = {
  /** To anyone who is not a member: an organisation's existence is not told to strangers. */
  notFound: { status: 404, error: ERROR_CODES.notFound, message: 'No such organisation' },
  memberNotFound: { status: 404, error: ERROR_CODES.notFound, message: 'No such member of this organisation' },
  roleForbidden: { status: 403, error: ERROR_CODES.orgForbidden, message: 'Your role in this organisation does not allow this' },
  adminsOnly: { status: 403, error: ERROR_CODES.orgForbidden, message: 'Only the owner makes, changes or removes an admin' },
  ownerStays: { status: 409, error: 'owner_must_transfer', message: 'The owner cannot leave or be removed: transfer ownership first' },
  ownerRole: { status: 409, error: 'owner_role', message: "The owner's role changes only by a transfer of ownership" },
  transferToSelf: { status: 400, error: 'invalid_request', message: 'You already own this organisation' },
  /** 409 on an account's deletion (by its user or by staff) while it owns an organisation. */
  ownsOrg: {
    status: 409,
    error: 'owns_organisation',
    message: 'This account owns an organisation. Transfer its ownership or delete the organisation first.',
  },
} as const;
export type OrgRefusal = (typeof ORG_ERRORS)[keyof typeof ORG_ERRORS];

/**
 * Whether `actor` may remove `target` from the organisation, or change their role: the owner never
 * (ownership is transferred, not taken away); an admin only by the owner, so admins cannot remove
 * one another. Leaving (actor is target) is anyone's but the owner's.
 */
export function memberChangeRefusal(
  actor: { userId: string; role: OrgRole },
  target: { userId: string; role: OrgRole },
  change: 'remove' | 'role',
): OrgRefusal | null {
  if (target.role === 'owner') return change === 'remove' ? ORG_ERRORS.ownerStays : ORG_ERRORS.ownerRole;
  if (change === 'remove' && actor.userId === target.userId) return null;
  if (!orgMay(actor.role, 'manageMembers')) return ORG_ERRORS.roleForbidden;
  if (target.role === 'admin' && actor.role !== 'owner') return ORG_ERRORS.adminsOnly;
  return null;
}

/** Whether `actor` may give a member `role`: only the owner makes admins. */
export function roleGrantRefusal(actorRole: OrgRole, role: AssignableOrgRole): OrgRefusal | null {
  if (!orgMay(actorRole, 'manageMembers')) return ORG_ERRORS.roleForbidden;
  if (role === 'admin' && actorRole !== 'owner') return ORG_ERRORS.adminsOnly;
  return null;
}

export const ORG_NAME_MAX_LENGTH = 100;

const orgName = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, 'An organisation needs a name')
  .max(ORG_NAME_MAX_LENGTH, `A name must be at most ${ORG_NAME_MAX_LENGTH} characters`);

/** `POST /api/orgs` and `PATCH /api/orgs/{id}`. */
export const orgInputSchema = z.object({ name: orgName });
export type OrgInput = z.infer<typeof orgInputSchema>;

export const orgParamsSchema = z.object({ id: z.string().min(1, 'id is required').max(100) });
export const orgMemberParamsSchema = orgParamsSchema.extend({ userId: z.string().min(1, 'userId is required').max(100) });

/** Most a monthly limit may be: far above any studio's month. */
export const MAX_MONTHLY_LIMIT = 100_000_000;

/**
 * `PATCH /api/orgs/{id}/members/{userId}`: a role (owner, admin), a seat given or taken back, a
 * monthly limit on the shared pool (null: none) (owner, admin). At least one of them.
 */
export const memberChangeSchema = z
  .object({
    role: z.enum(ASSIGNABLE_ORG_ROLES, { error: 'role must be admin, billing or member' }).optional(),
    seat: z.boolean({ error: 'seat must be true or false' }).optional(),
    monthlyLimit: z
      .number({ error: 'monthlyLimit must be a whole number or null' })
      .int('monthlyLimit must be a whole number or null')
      .min(0, 'monthlyLimit must not be negative')
      .max(MAX_MONTHLY_LIMIT, `monthlyLimit must be at most ${MAX_MONTHLY_LIMIT}`)
      .nullable()
      .optional(),
  })
  .refine((change) => change.role !== undefined || change.seat !== undefined || change.monthlyLimit !== undefined, {
    message: 'Say what changes: role, seat or monthlyLimit',
  });
export type MemberChange = z.infer<typeof memberChangeSchema>;

/** `POST /api/orgs/{id}/transfer`: the member who becomes the owner; the owner becomes an admin. */
export const ownershipTransferSchema = z.object({ userId: z.string().min(1, 'userId is required').max(100) });

export const orgSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The caller's role in it. */
  role: orgRoleSchema,
  members: z.number().int(),
  /** Seats bought (the plan's quantity) and given to members. */
  seats: z.object({ bought: z.number().int(), assigned: z.number().int() }),
  createdAt: z.string(),
});
export type Org = z.infer<typeof orgSchema>;

/** `GET /api/orgs`: the caller's organisations, by name. */
export const orgListSchema = z.object({ orgs: z.array(orgSchema) });
export type OrgList = z.infer<typeof orgListSchema>;

export const orgMemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  role: orgRoleSchema,
  joinedAt: z.string(),
  /** Whether they hold one of the organisation's seats: their queries are charged to it first. */
  seat: z.boolean(),
  /** Most they may take from the shared pool per period; null: no limit. */
  monthlyLimit: z.number().int().nullable(),
  /** Queries the organisation paid for them this period: from their seat and from the pool. */
  usage: z.number().int(),
  /** Of which from the shared pool (what the limit counts). */
  poolUsage: z.number().int(),
  /** Their last query the organisation paid for; null if none yet. */
  lastActiveAt: z.string().nullable(),
  /** Their account is suspended: their queries are refused, so their seat is not charged. */
  suspended: z.boolean(),
});
export type OrgMember = z.infer<typeof orgMemberSchema>;

/** `GET /api/orgs/{id}/members`: owner first, then by role and name. */
export const orgMembersSchema = z.object({ members: z.array(orgMemberSchema) });
export type OrgMembers = z.infer<typeof orgMembersSchema>;

/** One entry of an organisation's audit log, in words. */
export const orgAuditEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  /** Who did it: their e-mail (or name); null once their account is gone. */
  actor: z.string().nullable(),
  at: z.string(),
  text: z.string(),
});
export type OrgAuditEntry = z.infer<typeof orgAuditEntrySchema>;

/** `GET /api/orgs/{id}/audit`: the newest ORG_AUDIT_PAGE entries, newest first. */
export const orgAuditSchema = z.object({ entries: z.array(orgAuditEntrySchema) });
export type OrgAudit = z.infer<typeof orgAuditSchema>;
export const ORG_AUDIT_PAGE = 100;

export const orgDeletedSchema = z.object({ ok: z.literal(true) });
