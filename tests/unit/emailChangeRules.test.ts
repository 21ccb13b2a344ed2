import { describe, expect, it } from 'vitest';
import type { EmailChangeProof } from '../../contract/accountEmail';
import { RECENT_SIGN_IN_MS } from '../../contract/recentSignIn';
import { changeLinkState, emailChangeProof, type ChangeLinkState } from '../../server/services/account/emailChangeRules';

const NOW = 1_800_000_000_000;

describe('what an account shows to change its e-mail (issue 27, decision 034)', () => {
  it.each<[string, EmailChangeProof, { hasPassword: boolean; sessionStartedAt: number | null }]>([
    ['a password account signed in here just now', 'recent_sign_in', { hasPassword: true, sessionStartedAt: NOW }],
    [
      'a password account signed in here long ago',
      'current_password',
      { hasPassword: true, sessionStartedAt: NOW - 10 * RECENT_SIGN_IN_MS },
    ],
    ['an Epic account signed in here just now', 'recent_sign_in', { hasPassword: false, sessionStartedAt: NOW }],
    [
      'an Epic account signed in a minute short of the window',
      'recent_sign_in',
      { hasPassword: false, sessionStartedAt: NOW - RECENT_SIGN_IN_MS + 60_000 },
    ],
    [
      'an Epic account signed in exactly the window ago',
      'sign_in_again',
      { hasPassword: false, sessionStartedAt: NOW - RECENT_SIGN_IN_MS },
    ],
    ['an Epic account signed in days ago', 'sign_in_again', { hasPassword: false, sessionStartedAt: NOW - 72 * RECENT_SIGN_IN_MS }],
    ['an account without a session row', 'sign_in_again', { hasPassword: false, sessionStartedAt: null }],
  ])('%s: %s', (_case, proof, account) => {
    expect(emailChangeProof({ ...account, now: NOW })).toBe(proof);
  });
});

describe("a change link's state", () => {
  it.each<[string, ChangeLinkState, { used_at: number | null; expires_at: number }]>([
    ['unused, within its hour', 'usable', { used_at: null, expires_at: NOW + 1 }],
    ['unused, expiring this very moment', 'expired_token', { used_at: null, expires_at: NOW }],
    ['unused, expired', 'expired_token', { used_at: null, expires_at: NOW - 1 }],
    ['used, within its hour', 'invalid_token', { used_at: NOW - 5, expires_at: NOW + 1 }],
    ['used and expired: used is what it says', 'invalid_token', { used_at: NOW - 5, expires_at: NOW - 1 }],
  ])('%s: %s', (_case, state, row) => {
    expect(changeLinkState(row, NOW)).toBe(state);
  });
});
