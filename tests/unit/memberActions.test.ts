/** Which controls a member's row shows to a viewer (issue 38): the role table's rules, as a table. */
import { describe, expect, it } from 'vitest';
import type { OrgRole } from '../../contract/orgs';
import { memberActions, type MemberActions } from '../../src/portal/dashboard/orgs/memberActions';

const none: MemberActions = { roles: [], remove: false, leave: false, makeOwner: false };

describe('memberActions', () => {
  const cases: [OrgRole, 'self' | OrgRole, MemberActions][] = [
    ['owner', 'self', none],
    ['owner', 'admin', { roles: ['admin', 'billing', 'member'], remove: true, leave: false, makeOwner: true }],
    ['owner', 'member', { roles: ['member', 'admin', 'billing'], remove: true, leave: false, makeOwner: true }],
    ['admin', 'self', { ...none, leave: true }],
    ['admin', 'owner', none],
    ['admin', 'admin', none],
    ['admin', 'billing', { roles: ['billing', 'member'], remove: true, leave: false, makeOwner: false }],
    ['admin', 'member', { roles: ['member', 'billing'], remove: true, leave: false, makeOwner: false }],
    ['billing', 'self', { ...none, leave: true }],
    ['billing', 'member', none],
    ['member', 'self', { ...none, leave: true }],
    ['member', 'billing', none],
  ];
  it.each(cases)('%s viewing %s', (viewerRole, target, expected) => {
    const viewer = { userId: 'me', role: viewerRole };
    const member = target === 'self' ? viewer : { userId: 'them', role: target };
    expect(memberActions(viewer, member)).toEqual(expected);
  });
});
