import { RECENT_SIGN_IN_MS, type EmailChangeProof } from '../../../contract/accountEmail';

/**
 * What an account must show, besides its session, to move its e-mail (issue 27).
 *
 * A password, when the account has one: the e-mail is where reset links go (and a legacy
 * account's sign-in name), so a session alone — a cookie lifted from a shared computer — could
 * move the account to another mailbox, reset the password from there and keep the account for good.
 * An account without a password (Epic) has nothing to type: its proof is a sign-in of this very
 * browser recent enough that the person at it is the one who signed in with Epic.
 */
export function emailChangeProof(account: { hasPassword: boolean; sessionStartedAt: number | null; now: number }): EmailChangeProof {
  if (account.hasPassword) return 'current_password';
  if (account.sessionStartedAt !== null && account.now - account.sessionStartedAt < RECENT_SIGN_IN_MS) return 'recent_sign_in';
  return 'sign_in_again';
}

/** What a change link's row allows: the change, or which refusal. */
export type ChangeLinkState = 'usable' | 'invalid_token' | 'expired_token';

export function changeLinkState(row: { used_at: number | null; expires_at: number }, now: number): ChangeLinkState {
  if (row.used_at !== null) return 'invalid_token';
  if (row.expires_at <= now) return 'expired_token';
  return 'usable';
}
