import {
  ASSIGNABLE_ORG_ROLES,
  memberChangeRefusal,
  orgMay,
  roleGrantRefusal,
  type AssignableOrgRole,
  type OrgRole,
} from '../../../../contract/orgs';

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
