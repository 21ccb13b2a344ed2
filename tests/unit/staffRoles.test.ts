import { describe, expect, it } from 'vitest';
import { STAFF_ACTIONS, staffMay, staffRoleOf, type StaffAction, type StaffRole } from '../../contract/staffRoles';

describe('staffRoleOf', () => {
  it.each<[boolean, string | null | undefined, StaffRole | null]>([
    [false, null, null],
    [false, 'admin', null],
    [false, 'support', null],
    [true, null, 'admin'],
    [true, undefined, 'admin'],
    [true, 'admin', 'admin'],
    [true, 'support', 'support'],
    [true, 'owner', 'support'],
    [true, '', 'support'],
  ])('isAdmin %s, stored %j: %s', (isAdmin, stored, expected) => {
    expect(staffRoleOf(isAdmin, stored)).toBe(expected);
  });
});

describe('staffMay', () => {
  const SUPPORT_MAY: StaffAction[] = ['read', 'signOutEverywhere', 'reissueLicense', 'suspend', 'writeNotes', 'exportSelectedUsers'];
  it.each(STAFF_ACTIONS)('%s: admin may, support as the issue says, nobody else', (action) => {
    expect(staffMay('admin', action)).toBe(true);
    expect(staffMay('support', action)).toBe(SUPPORT_MAY.includes(action));
    expect(staffMay(null, action)).toBe(false);
    expect(staffMay(undefined, action)).toBe(false);
  });

  it('leaves support the actions a support team must not take', () => {
    const refused = STAFF_ACTIONS.filter((action) => !staffMay('support', action));
    expect(refused.sort()).toEqual(['adjustCredits', 'deleteUsers', 'editUsers', 'exportAllUsers', 'refundCredits', 'releaseBuilds']);
  });
});
