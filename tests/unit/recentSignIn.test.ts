import { describe, expect, it } from 'vitest';
import {
  RECENT_SIGN_IN_MS,
  recentSignInRefusal,
  recentSignInUntil,
  type RecentSignInRefusal,
  type SigningInAccount,
} from '../../contract/recentSignIn';

/** The one "recent sign-in" rule (issue 36, decision 034): deletion and e-mail change both ask it. */
const NOW = Date.UTC(2026, 10, 28, 12);
const MINUTE = 60_000;

const password = (minutesAgo: number | null): SigningInAccount => ({
  hasPassword: true,
  sessionStartedAt: minutesAgo === null ? null : NOW - minutesAgo * MINUTE,
});
const epic = (minutesAgo: number | null): SigningInAccount => ({ ...password(minutesAgo), hasPassword: false });
const none = { passwordGiven: false, passwordMatches: false };
const right = { passwordGiven: true, passwordMatches: true };
const wrong = { passwordGiven: true, passwordMatches: false };

describe("until when this browser's sign-in stands for the password", () => {
  it.each<[string, number | null, number | null]>([
    ['signed in just now', NOW, NOW + RECENT_SIGN_IN_MS],
    ['signed in a minute short of the window', NOW - RECENT_SIGN_IN_MS + MINUTE, NOW + MINUTE],
    ['signed in exactly the window ago', NOW - RECENT_SIGN_IN_MS, null],
    ['signed in days ago', NOW - 3 * 24 * 60 * MINUTE, null],
    ['no session row for this browser', null, null],
  ])('%s', (_case, startedAt, until) => {
    expect(recentSignInUntil(startedAt, NOW)).toBe(until);
  });
});

describe('whether an irreversible or account-moving action may go ahead', () => {
  it.each<[string, SigningInAccount, typeof none, RecentSignInRefusal | null]>([
    ['a password account, the right password, signed in long ago', password(600), right, null],
    ['a password account, a wrong password, signed in long ago', password(600), wrong, 'wrong_password'],
    ['a password account, a wrong password, signed in here just now (someone is guessing)', password(0), wrong, 'wrong_password'],
    ['a password account, no password, signed in here 9 minutes ago', password(9), none, null],
    ['a password account, no password, signed in here 10 minutes ago', password(10), none, 'password_required'],
    ['a password account, no password, no session row', password(null), none, 'password_required'],
    ['an Epic account signed in here 2 minutes ago', epic(2), none, null],
    ['an Epic account signed in here 11 minutes ago', epic(11), none, 'sign_in_again'],
    ['an Epic account sending some password, long after its sign-in', epic(30), wrong, 'sign_in_again'],
    ['an Epic account sending some password, just signed in here', epic(0), wrong, null],
  ])('%s → %s', (_case, account, attempt, refusal) => {
    expect(recentSignInRefusal(account, attempt, NOW)).toBe(refusal);
  });
});
