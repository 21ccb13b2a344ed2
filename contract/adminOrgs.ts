import { z } from 'zod';
import { MAX_PAGE_SIZE } from './admin';
import { orgBillingSchema, seatMeterSchema } from './orgBilling';
import { orgAuditEntrySchema, orgMemberSchema } from './orgs';
import { filterParam, rangeParam, sortParam } from './restList';
import { singleLine } from './text';
import { creditAdjustmentSchema } from './usage';

/**
 * Organisations as staff see them (issue 38): the console's `orgs` records, listed and searched in
 * simple-rest's dialect (contract/restList.ts) and read one by one, and credits granted to an
 * organisation's shared pool. Every role reads them; only admins grant. Times are ISO 8601.
 */

export const ORG_SORT_FIELDS = ['name', 'createdAt'] as const;
export type OrgSortField = (typeof ORG_SORT_FIELDS)[number];

/** The `filter` of `GET /api/admin/orgs`: a search. */
export const orgListFilterSchema = z.strictObject(
  {
    /** Case-insensitively, anywhere in the organisation's name or a member's e-mail; or an exact id. */
    q: z
      .string({ error: 'filter q must be text' })
      .check(singleLine('filter q'))
      .trim()
      .max(200, 'filter q must be at most 200 characters')
      .optional(),
  },
  {
    error: (issue) => (issue.code === 'unrecognized_keys' ? 'filter may only have q' : 'filter must be an object, like {"q":"studio"}'),
  },
);

/**
 * `GET /api/admin/orgs?sort=&range=&filter=`: one page as a JSON array, the total matching in
 * `Content-Range`. Without parameters: the first DEFAULT_PAGE_SIZE organisations by name.
 */
export const orgListQuerySchema = z.object({
  sort: sortParam(ORG_SORT_FIELDS).optional(),
  range: rangeParam(MAX_PAGE_SIZE).optional(),
  filter: filterParam(orgListFilterSchema).optional(),
});

/** A page of organisations as the service reads it. */
export interface OrgListRequest {
  sort: OrgSortField;
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
  q?: string;
}

/** One organisation in the console's list. */
export const adminOrgRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The owner's account, and its e-mail (null for an account without one). */
  ownerId: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  memberCount: z.number().int(),
  /** Seats bought (the live plan's quantity) and given to members. */
  seats: seatMeterSchema,
  /** The live plan: its product and Stripe status; null without one. */
  plan: z.object({ name: z.string(), status: z.string() }).nullable(),
  /** Credits in the shared pool. */
  pool: z.number().int(),
  createdAt: z.string(),
});
export type AdminOrgRow = z.infer<typeof adminOrgRowSchema>;

/**
 * `GET /api/admin/orgs/{id}`: the row, with the company details on its invoices, its live plan, its
 * members with this period's usage, the period's totals (queries paid from seats and from the
 * pool) and its audit log in words (the newest ORG_AUDIT_PAGE entries, newest first).
 */
export const adminOrgSchema = adminOrgRowSchema.extend({
  details: orgBillingSchema.shape.details,
  /** Its Stripe customer, once it has bought anything. */
  customerId: z.string().nullable(),
  subscription: orgBillingSchema.shape.subscription,
  /** The billing period the usage is counted in: the live plan's, else the UTC month. */
  period: z.object({ start: z.string(), end: z.string() }),
  usage: z.object({ seat: z.number().int(), pool: z.number().int() }),
  members: z.array(orgMemberSchema),
  audit: z.array(orgAuditEntrySchema),
});
export type AdminOrg = z.infer<typeof adminOrgSchema>;

/** The most credits one grant adds to a pool. */
export const MAX_ORG_CREDIT_GRANT = 1_000_000;

/** `POST /api/admin/orgs/{id}/credits` (admins): credits added to the shared pool, with why (audited). */
export const orgCreditGrantSchema = z.object({
  amount: z
    .number({ error: 'amount must be a whole number' })
    .int('amount must be a whole number')
    .min(1, 'amount must be at least 1')
    .max(MAX_ORG_CREDIT_GRANT, 'amount must be at most 1,000,000'),
  reason: creditAdjustmentSchema.shape.reason,
});
export type OrgCreditGrant = z.infer<typeof orgCreditGrantSchema>;

/** The answer to a grant: the pool's credits after it. */
export const orgPoolSchema = z.object({ pool: z.number().int() });
