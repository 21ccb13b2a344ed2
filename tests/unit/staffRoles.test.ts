import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../contract/errors';
import {
  ROLE_REFUSAL,
  STAFF_ACTIONS,
  STAFF_ROLES,
  staffMay,
  staffMayActOn,
  staffRefusal,
  staffRoleOf,
  STAFF_TARGET_REFUSAL,
  type StaffAction,
  type StaffRole,
} from '../../contract/staffRoles';

const root = path.resolve(import.meta.dirname, '../..');

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
  const SUPPORT_MAY: StaffAction[] = [
    'read',
    'signOutEverywhere',
    'reissueLicense',
    'suspend',
    'writeNotes',
    'exportSelectedUsers',
    // Issue 40: the support path of a user locked out of two-step sign-in (decision 046).
    'resetSecondFactor',
  ];
  it.each(STAFF_ACTIONS)('%s: admin may, support as the issue says, nobody else', (action) => {
    expect(staffMay('admin', action)).toBe(true);
    expect(staffMay('support', action)).toBe(SUPPORT_MAY.includes(action));
    expect(staffMay(null, action)).toBe(false);
    expect(staffMay(undefined, action)).toBe(false);
  });

  it('leaves support the actions a support team must not take', () => {
    const refused = STAFF_ACTIONS.filter((action) => !staffMay('support', action));
    expect(refused.sort()).toEqual([
      'adjustCredits',
      'deleteUsers',
      'downloadLicense',
      'editUsers',
      'exportAllUsers',
      'grantOrgCredits',
      'refundCredits',
      'releaseBuilds',
    ]);
  });
});

describe('staffRefusal: what the console says beside a control it switches off (issue 37)', () => {
  const customer = { role: null };
  const staff = { role: 'support' as const };
  it.each<[StaffRole | null, StaffAction, { role: StaffRole | null } | undefined, string | null]>([
    ['support', 'editUsers', customer, 'Only admins can edit users'],
    ['support', 'deleteUsers', staff, 'Only admins can delete users'],
    ['support', 'downloadLicense', customer, 'Only admins can download licenses'],
    ['support', 'releaseBuilds', undefined, 'Only admins can release builds'],
    ['support', 'exportAllUsers', undefined, 'Only admins can export every user'],
    ['support', 'adjustCredits', customer, 'Only admins can grant or deduct credits'],
    ['support', 'refundCredits', customer, 'Only admins can refund credit packs'],
    ['support', 'grantOrgCredits', undefined, "Only admins can grant credits to an organisation's pool"],
    ['admin', 'grantOrgCredits', undefined, null],
    ['support', 'suspend', customer, null],
    ['support', 'suspend', staff, STAFF_TARGET_REFUSAL.message],
    ['support', 'reissueLicense', { role: 'admin' }, STAFF_TARGET_REFUSAL.message],
    ['support', 'exportSelectedUsers', undefined, null],
    ['admin', 'deleteUsers', { role: 'admin' }, null],
    ['admin', 'releaseBuilds', undefined, null],
    [null, 'suspend', customer, 'Only admins and support can suspend users'],
  ])('%s, %s on %j: %s', (role, action, target, expected) => {
    expect(staffRefusal(role, action, target)).toBe(expected);
  });

  it.each(STAFF_ACTIONS)('%s: refused exactly when staffMay refuses it', (action) => {
    for (const role of [...STAFF_ROLES, null]) expect(staffRefusal(role, action) === null).toBe(staffMay(role, action));
  });
});

describe('staffMayActOn (issue 36: who may act on whom)', () => {
  it.each<[StaffRole | null | undefined, StaffRole | null, boolean]>([
    ['admin', null, true],
    ['admin', 'support', true],
    ['admin', 'admin', true],
    ['support', null, true],
    ['support', 'support', false],
    ['support', 'admin', false],
    [null, null, false],
    [undefined, null, false],
    [null, 'admin', false],
  ])('%s on %s: %s', (actor, target, expected) => {
    expect(staffMayActOn(actor, target)).toBe(expected);
  });
});

describe('ROLE_REFUSAL', () => {
  it('is the contract’s role_forbidden code with its message, as the server has always sent it', () => {
    expect(ROLE_REFUSAL.error).toBe(ERROR_CODES.roleForbidden);
    expect(ROLE_REFUSAL).toEqual({ error: 'role_forbidden', message: 'Your role does not allow this' });
  });

  it('its code is written once, in contract/errors.ts: nothing else spells it out', () => {
    /** The files of the product's code (not its tests) whose strings or templates hold `role_forbidden`. */
    const spelled: string[] = [];
    for (const dir of ['contract', 'server', 'src', 'scripts']) {
      for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
        const visit = (node: ts.Node): void => {
          // Strings and template parts only: comments may name the code.
          if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && node.text.includes('role_forbidden'))
            spelled.push(path.relative(root, file));
          ts.forEachChild(node, visit);
        };
        visit(source);
      }
    }
    expect(spelled).toEqual(['contract/errors.ts']);
  });
});
