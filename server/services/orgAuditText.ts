import type { AuditAction } from '../../contract/admin';
import { ORG_ROLE_WORDS, orgRoleSchema } from '../../contract/orgs';

/** Who a user id stands for in the log's sentences: their e-mail or name, or "a deleted account". */
export type NameOf = (userId: unknown) => string;

/** `value[key]` of an entry's before/after, whatever it holds. */
export const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const role = (value: unknown): string => {
  const parsed = orgRoleSchema.safeParse(value);
  return parsed.success ? ORG_ROLE_WORDS[parsed.data] : 'a member';
};

/** Who an entry by a member of staff is by, as the organisation's members read it: no staff member's address. */
export const STAFF_ACTOR = 'Sage staff';

/**
 * An organisation's audit entry as a sentence for its owners and admins (issue 38): what happened,
 * to whom, without the actor (shown beside it). Pure, from the entry's before/after.
 */
export function orgAuditText(action: AuditAction, before: unknown, after: unknown, nameOf: NameOf): string {
  switch (action) {
    case 'org.create':
      return `Created the organisation as ${text(field(after, 'name'))}`;
    case 'org.rename':
      return `Renamed the organisation from ${text(field(before, 'name'))} to ${text(field(after, 'name'))}`;
    case 'org.transfer':
      return `Made ${nameOf(field(after, 'owner'))} the owner`;
    case 'org.member.role':
      return `Made ${nameOf(field(after, 'userId'))} ${role(field(after, 'role'))} (was ${role(field(before, 'role'))})`;
    case 'org.member.remove':
      return `Removed ${nameOf(field(before, 'userId'))}`;
    case 'org.member.leave':
      return 'Left the organisation';
    case 'org.invitation.create':
      return `Invited ${text(field(after, 'email'))} as ${role(field(after, 'role'))}`;
    case 'org.invitation.resend':
      return `Sent the invitation to ${text(field(after, 'email'))} again`;
    case 'org.invitation.revoke':
      return `Withdrew the invitation to ${text(field(before, 'email'))}`;
    case 'org.invitation.accept':
      return `Joined as ${role(field(after, 'role'))}, by invitation`;
    case 'org.seat.assign':
      return `Gave ${nameOf(field(after, 'userId'))} a seat`;
    case 'org.seat.release':
      return `Took back ${nameOf(field(before, 'userId'))}'s seat`;
    case 'org.member.limit': {
      const limit = field(after, 'limit');
      return typeof limit === 'number'
        ? `Limited ${nameOf(field(after, 'userId'))} to ${limit} shared credits a month`
        : `Removed ${nameOf(field(after, 'userId'))}'s monthly limit`;
    }
    case 'org.billing.details':
      return `Changed the billing details to ${text(field(after, 'companyName'))}, ${text(field(after, 'country'))}`;
    case 'org.seats.change':
      return `Changed the plan from ${String(field(before, 'seats'))} to ${String(field(after, 'seats'))} seats`;
    case 'org.credits.grant':
      return `Sage staff added ${String(field(after, 'amount'))} credits to the shared pool: ${text(field(after, 'reason'))}`;
    case 'org.top_up.change':
      return field(after, 'enabled') === true
        ? `Turned on automatic top-up of the shared pool under ${String(field(after, 'threshold'))} credits`
        : 'Turned off automatic top-up of the shared pool';
    case 'org.top_up.pause':
      return `Automatic top-up of the shared pool paused: ${text(field(after, 'reason'))}`;
    case 'org.credits.top_up':
      return `Automatic top-up added ${String(field(after, 'amount'))} credits to the shared pool`;
    default:
      return action;
  }
}
