import { describe, expect, it } from 'vitest';
import { confirmsUsername } from '../../contract/accountData';
import {
  EPIC_REAUTHENTICATION_MS,
  ERASED,
  eraseIdentity,
  reauthenticationOf,
  reauthenticationRefusal,
  type ReauthenticatingUser,
} from '../../server/services/account/deletionRules';

const NOW = Date.UTC(2026, 10, 26, 12);
const MINUTE = 60_000;

const legacy: ReauthenticatingUser = { hasPassword: true, lastSignInMethod: 'password', lastSignInAt: NOW - 60 * MINUTE };
const epic = (minutesAgo: number | null): ReauthenticatingUser => ({
  hasPassword: false,
  lastSignInMethod: minutesAgo === null ? null : 'epic',
  lastSignInAt: minutesAgo === null ? null : NOW - minutesAgo * MINUTE,
});

describe('how a user proves it is them before deleting their account', () => {
  it.each([
    ['a password account', legacy, 'password', null],
    ['an Epic account signed in 2 minutes ago', epic(2), 'epic', NOW - 2 * MINUTE + EPIC_REAUTHENTICATION_MS],
    ['an Epic account signed in exactly 10 minutes ago', epic(10), 'epic', null],
    ['an Epic account signed in an hour ago', epic(60), 'epic', null],
    ['an Epic account never signed in', epic(null), 'epic', null],
    [
      'a password account whose last sign-in was Epic, 1 minute ago',
      { ...legacy, lastSignInMethod: 'epic', lastSignInAt: NOW - MINUTE },
      'password',
      NOW - MINUTE + EPIC_REAUTHENTICATION_MS,
    ],
    ['an Epic account whose last sign-in was a password', { ...epic(1), lastSignInMethod: 'password' }, 'epic', null],
  ] as const)('%s: %s, Epic valid until %s', (_name, user, method, until) => {
    expect(reauthenticationOf(user, NOW)).toEqual({ method, epicValidUntil: until });
  });

  it.each([
    ['the right password', legacy, { passwordGiven: true, passwordMatches: true }, null],
    ['a wrong password', legacy, { passwordGiven: true, passwordMatches: false }, 'wrong_password'],
    ['no password for a password account', legacy, { passwordGiven: false, passwordMatches: false }, 'password_required'],
    [
      'a wrong password after a recent Epic sign-in (someone is guessing)',
      { ...legacy, lastSignInMethod: 'epic', lastSignInAt: NOW - MINUTE },
      { passwordGiven: true, passwordMatches: false },
      'wrong_password',
    ],
    [
      'no password after a recent Epic sign-in of a password account',
      { ...legacy, lastSignInMethod: 'epic', lastSignInAt: NOW - MINUTE },
      { passwordGiven: false, passwordMatches: false },
      null,
    ],
    ['an Epic account signed in 9 minutes ago', epic(9), { passwordGiven: false, passwordMatches: false }, null],
    ['an Epic account signed in 11 minutes ago', epic(11), { passwordGiven: false, passwordMatches: false }, 'epic_sign_in_required'],
    [
      'an Epic account sending some password, long after its sign-in',
      epic(30),
      { passwordGiven: true, passwordMatches: false },
      'epic_sign_in_required',
    ],
    ['an Epic account sending some password, just signed in', epic(0), { passwordGiven: true, passwordMatches: false }, null],
  ] as const)('%s → %s', (_name, user, attempt, refusal) => {
    expect(reauthenticationRefusal(user, attempt, NOW)).toBe(refusal);
  });
});

describe('the username typed to confirm', () => {
  it.each([
    ['ada', 'ada', true],
    ['  ada ', 'ada', true],
    ['Ada', 'ada', false],
    ['ad', 'ada', false],
    ['', 'ada', false],
  ])('%j for %j: %s', (typed, username, ok) => {
    expect(confirmsUsername(typed, username)).toBe(ok);
  });
});

describe('an audit record about a deleted user, without what identifies them', () => {
  const who = ['ada', 'ada@example.com', 'Ada Lovelace'];
  it.each([
    [
      'names and e-mails by key',
      { username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false },
      { username: ERASED, email: ERASED, status: 'Active', isAdmin: false },
    ],
    [
      'any spelling of the keys',
      { epicDisplayName: 'Someone', actorEmail: 'x@y.z', name: 'n', newEmail: 'b@c.de' },
      { epicDisplayName: ERASED, actorEmail: ERASED, name: ERASED, newEmail: ERASED },
    ],
    ['their identifiers under any key, in any case', { note: 'ADA LOVELACE', reason: 'ada' }, { note: ERASED, reason: ERASED }],
    ['an e-mail address inside text', { comment: 'asked by ada@example.com by phone' }, { comment: `asked by ${ERASED} by phone` }],
    [
      'nested records and lists',
      { changes: [{ email: 'old@example.com' }, { email: null }] },
      { changes: [{ email: ERASED }, { email: null }] },
    ],
    [
      'what says what was done',
      { ended: 3, credits: -50, reason: 'refund', productName: 'Sage Pro' },
      { ended: 3, credits: -50, reason: 'refund', productName: 'Sage Pro' },
    ],
    ["a staff note's words about them", { noteId: 'n1', text: 'Refunded on 3 Nov, lives in Lyon' }, { noteId: 'n1', text: ERASED }],
    ['nothing', null, null],
  ])('%s', (_name, record, erased) => {
    expect(eraseIdentity(record, who)).toEqual(erased);
  });

  it('ignores empty identifiers', () => {
    expect(eraseIdentity({ note: '' }, ['', ' '])).toEqual({ note: '' });
  });
});
