/** The role table of organisations and who may change whom (issue 38, contract/orgs.ts), as tables. */
import { describe, expect, it } from 'vitest';
import {
  ORG_ERRORS,
  ORG_PERMISSIONS,
  ORG_ROLES,
  memberChangeRefusal,
  orgMay,
  orgRolesRefused,
  roleGrantRefusal,
  type OrgAction,
  type OrgRole,
} from '../../contract/orgs';

describe('the role table', () => {
  const may: [OrgAction, OrgRole[]][] = [
    ['read', ['owner', 'admin', 'billing', 'member']],
    ['rename', ['owner', 'admin']],
    ['manageMembers', ['owner', 'admin']],
    ['manageSeats', ['owner', 'admin']],
    ['manageBilling', ['owner', 'billing']],
    ['readUsage', ['owner', 'admin', 'billing']],
    ['readAudit', ['owner', 'admin']],
    ['transferOwnership', ['owner']],
    ['deleteOrg', ['owner']],
  ];

  it('names every action once', () => {
    expect(may.map(([action]) => action).sort()).toEqual(Object.keys(ORG_PERMISSIONS).sort());
  });

  it.each(may)('%s: %j may, the others may not', (action, roles) => {
    for (const role of ORG_ROLES) expect(orgMay(role, action), `${role} ${action}`).toBe(roles.includes(role));
    expect(orgRolesRefused(action)).toEqual(ORG_ROLES.filter((role) => !roles.includes(role)));
  });
});

describe('removing a member or changing their role', () => {
  const me = 'me';
  const other = 'other';
  const cases: [OrgRole, string, OrgRole, 'remove' | 'role', (typeof ORG_ERRORS)[keyof typeof ORG_ERRORS] | null][] = [
    // Nobody removes the owner or changes their role, the owner included.
    ['owner', me, 'owner', 'remove', ORG_ERRORS.ownerStays],
    ['admin', other, 'owner', 'remove', ORG_ERRORS.ownerStays],
    ['owner', me, 'owner', 'role', ORG_ERRORS.ownerRole],
    ['admin', other, 'owner', 'role', ORG_ERRORS.ownerRole],
    // Anyone else may leave.
    ['admin', me, 'admin', 'remove', null],
    ['billing', me, 'billing', 'remove', null],
    ['member', me, 'member', 'remove', null],
    // The owner removes and changes anyone else.
    ['owner', other, 'admin', 'remove', null],
    ['owner', other, 'member', 'role', null],
    ['owner', other, 'admin', 'role', null],
    // An admin, the members below admin.
    ['admin', other, 'member', 'remove', null],
    ['admin', other, 'billing', 'role', null],
    ['admin', other, 'admin', 'remove', ORG_ERRORS.adminsOnly],
    ['admin', other, 'admin', 'role', ORG_ERRORS.adminsOnly],
    // Billing and members, nobody else.
    ['billing', other, 'member', 'remove', ORG_ERRORS.roleForbidden],
    ['member', other, 'member', 'remove', ORG_ERRORS.roleForbidden],
    ['member', other, 'billing', 'role', ORG_ERRORS.roleForbidden],
  ];

  it.each(cases)('%s acting on %s (%s), %s: %j', (actorRole, targetId, targetRole, change, expected) => {
    expect(memberChangeRefusal({ userId: me, role: actorRole }, { userId: targetId, role: targetRole }, change)).toEqual(expected);
  });
});

describe('giving a role', () => {
  it.each([
    ['owner', 'admin', null],
    ['owner', 'billing', null],
    ['admin', 'member', null],
    ['admin', 'billing', null],
    ['admin', 'admin', ORG_ERRORS.adminsOnly],
    ['billing', 'member', ORG_ERRORS.roleForbidden],
    ['member', 'member', ORG_ERRORS.roleForbidden],
  ] as const)('%s gives %s: %j', (actorRole, role, expected) => {
    expect(roleGrantRefusal(actorRole, role)).toEqual(expected);
  });
});
