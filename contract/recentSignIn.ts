/**
 * The one "recent sign-in" rule (issue 36, docs/decisions/034-one-recent-sign-in-rule.md): what an
 * account shows, besides its session, before an action that cannot be undone or that moves the
 * account (deleting it, changing its e-mail; second-factor changes later). Either this browser's
 * own sign-in is recent, or the password is typed now. Another device's sign-in never counts: a
 * session stolen or left open long ago stays as weak as it was when the owner signs in elsewhere.
 */

/** How long a sign-in in this browser stands for the password. */
export const RECENT_SIGN_IN_MINUTES = 10;
export const RECENT_SIGN_IN_MS = RECENT_SIGN_IN_MINUTES * 60_000;

/** What the rule reads of an account: whether it has a password, and when this browser's session started (null: none). */
export interface SigningInAccount {
  hasPassword: boolean;
  sessionStartedAt: number | null;
}

/** When this browser's sign-in stops standing for the password (epoch ms); null when it does not now. */
export function recentSignInUntil(sessionStartedAt: number | null, now: number): number | null {
  if (sessionStartedAt === null) return null;
  const until = sessionStartedAt + RECENT_SIGN_IN_MS;
  return until > now ? until : null;
}

/**
 * Why the action is refused:
 * - `wrong_password`: a password was given and it is not the account's (even after a recent
 *   sign-in: someone is guessing);
 * - `password_required`: the sign-in is not recent, and the account has a password to type;
 * - `sign_in_again`: the sign-in is not recent, and the account has none (Epic): sign in again.
 */
export type RecentSignInRefusal = 'wrong_password' | 'password_required' | 'sign_in_again';

/** The rule: null when the action may go ahead. `passwordMatches`: the given password against the account's hash. */
export function recentSignInRefusal(
  account: SigningInAccount,
  attempt: { passwordGiven: boolean; passwordMatches: boolean },
  now: number,
): RecentSignInRefusal | null {
  if (attempt.passwordGiven && account.hasPassword) return attempt.passwordMatches ? null : 'wrong_password';
  if (recentSignInUntil(account.sessionStartedAt, now) !== null) return null;
  return account.hasPassword ? 'password_required' : 'sign_in_again';
}
