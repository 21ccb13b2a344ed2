import {
  ASSIGNABLE_ORG_ROLES,
  memberChangeRefusal,
  orgMay,
  roleGrantRefusal,
  type AssignableOrgRole,
  type OrgMember,
  type OrgRole,
} from '../../../../contract/orgs';
import { formatCount, formatDate } from '../../../ui/format';

interface Person {
  userId: string;
  role: OrgRole;
}

/** What the viewer may do to one member, by the role table (contract/orgs.ts): the controls shown on their row. */
export interface MemberActions {
  /** The roles the member may be given, their own first; empty: the role is not the viewer's to change. */
  roles: AssignableOrgRole[];
  remove: boolean;
  leave: boolean;
  makeOwner: boolean;
}

export function memberActions(viewer: Person, member: Person): MemberActions {
  const self = viewer.userId === member.userId;
  const roleChangeable = !self && memberChangeRefusal(viewer, member, 'role') === null;
  const grantable = ASSIGNABLE_ORG_ROLES.filter((role) => roleGrantRefusal(viewer.role, role) === null);
  return {
    roles: roleChangeable && member.role !== 'owner' ? [member.role, ...grantable.filter((role) => role !== member.role)] : [],
    remove: !self && memberChangeRefusal(viewer, member, 'remove') === null,
    leave: self && memberChangeRefusal(viewer, member, 'remove') === null,
    makeOwner: !self && orgMay(viewer.role, 'transferOwnership'),
  };
}

/** A member's seat and this period's use, as their row says it: "Seat · 120 queries this period (20 shared) · last active Nov 3, 2026". */
export function memberUsageText(
  member: Pick<OrgMember, 'seat' | 'usage' | 'poolUsage' | 'monthlyLimit' | 'lastActiveAt' | 'suspended'>,
): string {
  const parts = [member.seat ? 'Seat' : 'No seat'];
  if (member.suspended) parts.push('suspended');
  const shared =
    member.monthlyLimit !== null
      ? ` (${formatCount(member.poolUsage)} of ${formatCount(member.monthlyLimit)} shared credits)`
      : member.poolUsage > 0
        ? ` (${formatCount(member.poolUsage)} shared)`
        : '';
  parts.push(`${formatCount(member.usage)} ${member.usage === 1 ? 'query' : 'queries'} this period${shared}`);
  if (member.lastActiveAt) parts.push(`last active ${formatDate(member.lastActiveAt)}`);
  return parts.join(' · ');
}
