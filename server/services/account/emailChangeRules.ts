import type { EmailChangeProof } from '../../../contract/accountEmail';
import { recentSignInUntil, type SigningInAccount } from '../../../contract/recentSignIn';

/**
 * What the E-mail panel asks of the account before its e-mail may move (issue 27): the one "recent
 * sign-in" rule (contract/recentSignIn.ts, decision 034), told as the panel shows it. The e-mail is
 * where reset links go (and a legacy account's sign-in name), so a session alone — a cookie lifted
 * from a shared computer — could move the account to another mailbox and keep it for good.
 */
export function emailChangeProof(account: SigningInAccount & { now: number }): EmailChangeProof {
  if (recentSignInUntil(account.sessionStartedAt, account.now) !== null) return 'recent_sign_in';
  return account.hasPassword ? 'current_password' : 'sign_in_again';
}

/** What a change link's row allows: the change, or which refusal. */
export type ChangeLinkState = 'usable' | 'invalid_token' | 'expired_token';

export function changeLinkState(row: { used_at: number | null; expires_at: number }, now: number): ChangeLinkState {
  if (row.used_at !== null) return 'invalid_token';
  if (row.expires_at <= now) return 'expired_token';
  return 'usable';
}
