import { z } from 'zod';
import { isVersion, VERSION_RULE } from './pluginVersions';
import { RELEASE_NOTES_MAX_LENGTH } from './releaseNotes';
import { filterParam, rangeParam, sortParam } from './restList';
import { staffRoleSchema } from './staffRoles';
import { suspensionSchema } from './suspension';
import { singleLine } from './text';
import { ORG_ROLES } from './orgs';

/**
 * The admin console's API (product §3 User, AI history, Stored message, Grove metrics, Release form;
 * §7 `/api/admin/*`). Every endpoint answers 401 signed out and 403 for a non-admin.
 */

/**
 * §3 User as staff see it. Times are ISO 8601. No license token, for any role (issue 36): an admin
 * downloads a user's license file (`GET /api/{product}/{id}/license`, audited) and nothing else
 * of the console carries it.
 */
export const adminUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  status: z.string(),
  isAdmin: z.boolean(),
  /** Their role in the console while isAdmin (contract/staffRoles.ts); null otherwise. */
  role: staffRoleSchema.nullable(),
  epicDisplayName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const USER_SORT_FIELDS = ['createdAt', 'username', 'email'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** Largest page `GET /api/admin/users` answers. */
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 25;

/**
 * The most users a `q` search of the user list answers, sorted and paged; when more match, the total
 * is this (decision 020). A search is for finding someone: add to the term to narrow it.
 */
export const SEARCH_LIST_LIMIT = 1000;

/** The `filter` of `GET /api/admin/users`: a search, or the users with these ids (react-admin's getMany). */
export const userListFilterSchema = z.strictObject(
  {
    /**
     * Case-insensitively, 3 or more characters anywhere in the username or e-mail, 1 or 2 at its
     * start; or an exact id.
     */
    q: z
      .string({ error: 'filter q must be text' })
      .check(singleLine('filter q'))
      .trim()
      .max(200, 'filter q must be at most 200 characters')
      .optional(),
    id: z
      .array(z.string({ error: 'filter id must be a list of ids' }).check(singleLine('filter id')).min(1).max(100), {
        error: 'filter id must be a list of ids',
      })
      .max(MAX_PAGE_SIZE, `filter id must list at most ${MAX_PAGE_SIZE} ids`)
      .optional(),
    /** Only accounts with no Epic Games account linked (issue 40, decision 048): who the e-mail login's retirement still concerns. */
    noEpic: z.boolean({ error: 'filter noEpic must be true or false' }).optional(),
    /** Only accounts with an install on a withdrawn build (issue 41): who is left to move. */
    onWithdrawn: z.boolean({ error: 'filter onWithdrawn must be true or false' }).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? 'filter may only have q, id, noEpic and onWithdrawn'
        : 'filter must be an object, like {"q":"smith"}',
  },
);

/**
 * `GET /api/admin/users?sort=&range=&filter=` (simple-rest's dialect, contract/restList.ts): one
 * page as a JSON array, the total matching in `Content-Range` (at most SEARCH_LIST_LIMIT with
 * `filter.q`). Without parameters: the newest DEFAULT_PAGE_SIZE users. With `filter.id`: those
 * users, however many the range says.
 */
export const userListQuerySchema = z.object({
  sort: sortParam(USER_SORT_FIELDS).optional(),
  range: rangeParam(MAX_PAGE_SIZE).optional(),
  filter: filterParam(userListFilterSchema).optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** A page of users as the service reads it. */
export interface UserListRequest {
  sort: UserSortField;
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
  q?: string;
  /** Only accounts without an Epic link. */
  noEpic?: boolean;
  /** Only accounts with an install on a withdrawn build. */
  onWithdrawn?: boolean;
}

/** §5 Admin search: an empty term gives `Please enter a search term`. The console's Search tab checks this. */
export const SEARCH_TERM_REQUIRED = 'Please enter a search term';
export const userSearchFormSchema = z.object({
  query: z.string().check(singleLine('The search term')).trim().min(1, SEARCH_TERM_REQUIRED),
});
/** `GET /api/admin/users/search?query=`: the Search tab's rule, and a term of at most 200 characters. */
export const userSearchQuerySchema = z.object({ query: userSearchFormSchema.shape.query.max(200) });

/** §5 User edit: `Username and email are required`. */
export const USER_FIELDS_REQUIRED = 'Username and email are required';
export const userUpdateSchema = z.object({
  username: z
    .string({ error: USER_FIELDS_REQUIRED })
    .check(singleLine('Username'))
    .trim()
    .min(1, USER_FIELDS_REQUIRED)
    .max(100, 'Username must be at most 100 characters'),
  email: z
    .string({ error: USER_FIELDS_REQUIRED })
    .check(singleLine('Email'))
    .trim()
    .min(1, USER_FIELDS_REQUIRED)
    .pipe(z.email('Invalid email address').max(254)),
  isAdmin: z.boolean().optional(),
  /** The role while isAdmin; left out (or null, as a non-admin's record has it) an admin keeps theirs, a new admin is `admin`. */
  role: staffRoleSchema.nullish(),
  // No status: it is Active or Suspended, set only by Suspend (with a reason) and Reinstate (decision 029).
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** Admin refusals, in the console's words. */
export const ADMIN_MESSAGES = {
  selfDemotion: 'You cannot remove your own admin rights',
  selfDeletion: 'You cannot delete your own account',
  userNotFound: 'User not found',
  emailTaken: 'Another user already has this email',
  messageNotFound: 'No message found for session ID',
} as const;

/** §3 Grove metrics. */
export const groveMetricsSchema = z.object({
  userStats: z.object({
    totalUsers: z.number().int(),
    /** Active subscribers whose account has no Epic link yet (issue 40, decision 048). */
    subscribersWithoutEpic: z.number().int().optional(),
  }),
});
export type GroveMetrics = z.infer<typeof groveMetricsSchema>;

/** §3 AI history: at most 10 threads (§9), newest first, each with its messages in order. */
export const AI_HISTORY_LIMIT = 10;
export const aiHistorySchema = z.object({
  threads: z.array(
    z.object({
      id: z.string(),
      created_at: z.string(),
      messages: z.array(z.object({ role: z.string(), content: z.string() })),
    }),
  ),
});
export type AiHistory = z.infer<typeof aiHistorySchema>;

/** §3 Stored message: `message` is the JSON the AI service stored; size in characters of its text. */
export const storedMessageSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  message: z.unknown(),
  createdAt: z.string(),
  messageSize: z.number().int(),
});
export type StoredMessage = z.infer<typeof storedMessageSchema>;

/** §5 Find message: an empty session ID gives `Please enter a session ID`. The console's Find Message tab checks this. */
export const SESSION_ID_REQUIRED = 'Please enter a session ID';
export const messageSearchFormSchema = z.object({ sessionId: z.string().trim().min(1, SESSION_ID_REQUIRED) });
/** `GET /api/admin/messages/search?sessionId=`: the Find Message tab's rule, and an ID of at most 200 characters. */
export const messageSearchQuerySchema = z.object({
  sessionId: messageSearchFormSchema.shape.sessionId.max(200),
  /** Cache buster the console sends (§7); ignored. */
  _t: z.string().optional(),
});

/** §5/§9 Recent messages: integer 1–1000, default 20. */
export const RECENT_LIMIT = { default: 20, min: 1, max: 1000 } as const;
export const RECENT_LIMIT_MESSAGE = 'Limit must be a number between 1 and 1000';
/**
 * The limit as typed in the Recent Messages tab and sent in the query: a whole number from 1 to 1000
 * in digits (blanks around it allowed), read as that number. `2.5`, `1e2`, `-5` and `abc` are not.
 */
const recentLimitSchema = z
  .string({ error: RECENT_LIMIT_MESSAGE })
  .trim()
  .regex(/^\d+$/, RECENT_LIMIT_MESSAGE)
  .pipe(z.coerce.number<string>().min(RECENT_LIMIT.min, RECENT_LIMIT_MESSAGE).max(RECENT_LIMIT.max, RECENT_LIMIT_MESSAGE));
export const recentMessagesFormSchema = z.object({ limit: recentLimitSchema });
/** `GET /api/admin/messages/recent?limit=`: the tab's rule; without a limit, the default. */
export const recentMessagesQuerySchema = z.object({
  limit: recentLimitSchema.default(RECENT_LIMIT.default),
  _t: z.string().optional(),
});
export const recentMessagesSchema = z.object({ messages: z.array(storedMessageSchema) });

/**
 * §3 Release form / §5 Release, the one statement of the rule: the console's form, its Release
 * button and the server all read it from here.
 */
export const RELEASE_FIELDS_REQUIRED = 'Please fill in the version and both URLs';
const releaseText = z.string({ error: RELEASE_FIELDS_REQUIRED }).check(singleLine('A release field')).trim();
const filledReleaseText = releaseText.min(1, RELEASE_FIELDS_REQUIRED);
const httpUrl = (engine: string) => z.url({ protocol: /^https?$/, error: `The UE ${engine} URL must be an http(s) address` });

/**
 * What the Release tab checks before sending (§5): the version and the UE 5.5 and 5.6 URLs must not
 * be blank, else `Please fill in the version and both URLs`. Every field is sent without surrounding
 * blanks.
 */
export const releaseFormSchema = z.object({
  version: filledReleaseText,
  ue55Url: filledReleaseText,
  ue56Url: filledReleaseText,
  ue57Url: releaseText,
});
export type ReleaseForm = z.input<typeof releaseFormSchema>;
/** The form's fields, in the product's order. */
export const RELEASE_FIELDS = releaseFormSchema.keyof().options;

/** §5: the Release button is enabled once every field has been typed in; blank text is refused on submit, above. */
export const releaseFieldsFilled = (form: ReleaseForm): boolean => RELEASE_FIELDS.every((field) => form[field] !== '');

/**
 * `POST /api/admin/release-sage-build`: the form's rule, and beyond it the UE 5.7 URL required too, a
 * version of at most 50 characters and each URL an http(s) address (the form leaves these to the server).
 */
export const releaseRequestSchema = z.object({
  version: releaseFormSchema.shape.version
    .max(50, 'The version must be at most 50 characters')
    // Only a filled version of a fitting length is told what a version looks like: one message at a time.
    .refine((version) => version === '' || version.length > 50 || isVersion(version), VERSION_RULE),
  ue55Url: releaseFormSchema.shape.ue55Url.pipe(httpUrl('5.5')),
  ue56Url: releaseFormSchema.shape.ue56Url.pipe(httpUrl('5.6')),
  ue57Url: filledReleaseText.pipe(httpUrl('5.7')),
  /** Markdown (issue 41), rendered without trusting it (contract/releaseNotes.ts). */
  notes: z
    .string({ error: 'The notes must be text' })
    .max(RELEASE_NOTES_MAX_LENGTH, `The notes must be at most ${RELEASE_NOTES_MAX_LENGTH.toLocaleString('en-US')} characters`)
    .optional(),
  /** "Required update": builds older than this one must update. */
  required: z.boolean({ error: 'required must be true or false' }).optional(),
});
export type ReleaseRequest = z.infer<typeof releaseRequestSchema>;

/** What an audited admin write did: the one list the server records and the console's audit log shows. */
export const AUDIT_ACTIONS = [
  'user.update',
  'user.delete',
  'license.reissue',
  'license.download',
  'user.sessions.revoke',
  'build.release',
  'build.withdraw',
  'user.credits.grant',
  'user.credits.deduct',
  'user.credits.refund',
  // A customer's own changes (issue 27); their own license reissue is 'license.reissue' with them as actor.
  'account.password.change',
  'account.session.end',
  'account.sessions.end_others',
  'account.install.forget',
  'account.email.change',
  'account.delete',
  // Passkeys (issue 40, decision 049): the user's own, added, renamed or removed.
  'account.passkey.add',
  'account.passkey.rename',
  'account.passkey.remove',
  // Automatic top-up (issue 39): the user's settings; its pause (no actor) and its credits (Stripe's webhook).
  'account.top_up.change',
  // Release e-mails (issue 41): the user's own choice, or the one-click unsubscribe of a mail.
  'account.release_emails.change',
  'user.top_up.pause',
  'user.credits.top_up',
  // Suspension (issue 28, decision 029).
  'user.suspend',
  'user.reinstate',
  // Staff's notes on a user (issue 28).
  'user.note.add',
  'user.note.edit',
  // The User List's export of selected users (issue 28): one entry naming every user exported.
  'users.export_selected',
  // Organisations (issue 38): the target is the organisation; a member's id is in before/after.
  'org.create',
  'org.rename',
  'org.delete',
  'org.transfer',
  'org.member.role',
  'org.member.remove',
  'org.member.leave',
  'org.invitation.create',
  'org.invitation.resend',
  'org.invitation.revoke',
  'org.invitation.accept',
  // Seats, limits and the organisation's bill (issue 38, decisions 041 and 042).
  'org.seat.assign',
  'org.seat.release',
  'org.member.limit',
  'org.billing.details',
  'org.seats.change',
  'org.credits.grant',
  // Automatic top-up of the shared pool (issue 39): its settings; its pause (no actor) and its credits (Stripe's webhook).
  'org.top_up.change',
  'org.top_up.pause',
  'org.credits.top_up',
  // An Epic Games account linked to or unlinked from a Sage account (issue 40, decision 047).
  'account.epic.link',
  'account.epic.unlink',
  // Two-step sign-in (issue 40, decision 046): the owner's changes, and staff's reset on the support path.
  'account.second_factor.enable',
  'account.second_factor.disable',
  'account.recovery_codes.regenerate',
  'user.second_factor.reset',
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** One admin write: who, what, when, before/after (JSON of the changed record, null if none). */
export const auditEntrySchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: auditActionSchema,
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** A UTC day, `2026-11-26`, as the console's date inputs give it. */
const auditDay = (name: string) => z.iso.date({ error: `${name} must be a day, like 2026-11-26` });
/**
 * The audit log's filters, each exact: `actor` an admin's e-mail (it has an @) or id, `target` the
 * changed record's id, `from`–`to` UTC days, both included.
 */
export const auditFilterSchema = z
  .strictObject(
    {
      actor: z.string().trim().min(1).max(254).optional(),
      action: auditActionSchema.optional(),
      target: z.string().trim().min(1).max(200).optional(),
      from: auditDay('from').optional(),
      to: auditDay('to').optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'the audit log filters by actor, action, target, from and to'
          : 'filter must be an object, like {}',
    },
  )
  .refine((f) => f.from === undefined || f.to === undefined || f.from <= f.to, 'from must not be after to');
export type AuditFilter = z.infer<typeof auditFilterSchema>;
/** `GET /api/admin/audit?sort=&range=&filter={}` (simple-rest's dialect): by time, newest first unless asked. */
export const auditListQuerySchema = z.object({
  sort: sortParam(['createdAt']).optional(),
  range: rangeParam(MAX_PAGE_SIZE).optional(),
  filter: filterParam(auditFilterSchema).optional(),
});

/** `POST /api/admin/users/{id}/license/reissue` answers the user (their new token is not in it). */
export const licenseReissuedSchema = adminUserSchema;

/** `POST /api/admin/users/{id}/sessions/revoke`: how many sessions were ended. */
export const sessionsRevokedSchema = z.object({ ended: z.number().int().min(0) });
export type SessionsRevoked = z.infer<typeof sessionsRevokedSchema>;

/** How a session was started: Sign in with Epic, the legacy e-mail and password, or a passkey (issue 40). */
export const SIGN_IN_METHODS = ['epic', 'password', 'passkey'] as const;

/** One subscription of the Stripe mirror as admins see it. Amounts in minor units; times ISO 8601. */
export const adminSubscriptionSchema = z.object({
  id: z.string(),
  productName: z.string(),
  status: z.string(),
  unitAmount: z.number().int().nullable(),
  currency: z.string(),
  /** `month`, `year`…; null for a price without one. */
  interval: z.string().nullable(),
  intervalCount: z.number().int().nullable(),
  currentPeriodEnd: z.string().nullable(),
  trialEnd: z.string().nullable(),
  cancelAt: z.string().nullable(),
});
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;

/** `GET /api/admin/users/{id}/details`: the account's state beyond its profile (issue 14). */
export const accountDetailsSchema = z.object({
  /** Sessions that still sign the user in (not ended, expired or idle). */
  activeSessions: z.number().int().min(0),
  /** Null when the user has not signed in since sign-ins were recorded. */
  lastSignInAt: z.string().nullable(),
  lastSignInMethod: z.enum(SIGN_IN_METHODS).nullable(),
  /** Newest first. */
  subscriptions: z.array(adminSubscriptionSchema),
  /** Query credits bought minus spent. */
  creditBalance: z.number().int(),
  storedMessages: z.number().int().min(0),
  /** The organisations the user belongs to and their role in each (issue 38), by name. */
  memberships: z.array(z.object({ orgId: z.string(), name: z.string(), role: z.enum(ORG_ROLES), joinedAt: z.string() })),
  /** Sent only while the account is suspended (decision 029). */
  suspension: suspensionSchema.optional(),
});
export type AccountDetails = z.infer<typeof accountDetailsSchema>;
