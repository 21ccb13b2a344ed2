import { EPIC_REAUTHENTICATION_MINUTES } from '../../../contract/accountData';
import type { SignInMethod } from '../../db/schema';

/** The rules of an account's deletion (docs/account-data.md), free of I/O: tested by tables of cases. */

export const EPIC_REAUTHENTICATION_MS = EPIC_REAUTHENTICATION_MINUTES * 60_000;

/** What the rules read of a user. */
export interface ReauthenticatingUser {
  hasPassword: boolean;
  lastSignInMethod: SignInMethod | null;
  lastSignInAt: number | null;
}

/**
 * How the user proves it is them: their password when the account has one, else a Sign in with
 * Epic in the last EPIC_REAUTHENTICATION_MINUTES minutes. `epicValidUntil`: when the last sign-in
 * stops counting (epoch ms), null when it does not count now (not Epic, or too old).
 */
export function reauthenticationOf(
  user: ReauthenticatingUser,
  now: number,
): { method: 'password' | 'epic'; epicValidUntil: number | null } {
  const until = user.lastSignInMethod === 'epic' && user.lastSignInAt !== null ? user.lastSignInAt + EPIC_REAUTHENTICATION_MS : null;
  return { method: user.hasPassword ? 'password' : 'epic', epicValidUntil: until !== null && until > now ? until : null };
}

export type ReauthenticationRefusal = 'wrong_password' | 'password_required' | 'epic_sign_in_required';

/**
 * Why the deletion is refused, or null. A password given is checked, and a wrong one refuses even
 * after a recent Epic sign-in (someone is guessing). Without one, a recent Sign in with Epic stands
 * for it, whatever the account. `passwordMatches`: the given password against the account's hash
 * (false when the account has none).
 */
export function reauthenticationRefusal(
  user: ReauthenticatingUser,
  attempt: { passwordGiven: boolean; passwordMatches: boolean },
  now: number,
): ReauthenticationRefusal | null {
  if (attempt.passwordGiven && user.hasPassword) return attempt.passwordMatches ? null : 'wrong_password';
  const { method, epicValidUntil } = reauthenticationOf(user, now);
  if (epicValidUntil !== null) return null;
  return method === 'password' ? 'password_required' : 'epic_sign_in_required';
}

/** What stands in an audit entry for a name or an e-mail address of a deleted user. */
export const ERASED = '(erased)';

/**
 * Keys of an audit record whose values name or reach a person: every spelling the services use,
 * and `text`, a staff note's words about the person (issue 28), which may say anything of them.
 */
const PERSONAL_KEY = /(e-?mail|username|displayname|^name$|fullname|^text$)/i;
const EMAIL_ADDRESS = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;

/**
 * An audit record (`before`/`after`) about a deleted user without what identifies them: the values
 * of name and e-mail keys, any e-mail address, and any text that is one of `identifiers` (their
 * username, e-mail, Epic display name; compared case-insensitively) become ERASED. Everything else
 * (status, flags, amounts, counts) stays, so the entry still says what was done.
 */
export function eraseIdentity(value: unknown, identifiers: readonly string[]): unknown {
  const known = new Set(identifiers.filter((s) => s.trim() !== '').map((s) => s.toLowerCase()));
  const walk = (item: unknown, key: string | null): unknown => {
    if (Array.isArray(item)) return item.map((element) => walk(element, key));
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, walk(v, k)]));
    }
    if (typeof item !== 'string') return item;
    if ((key !== null && PERSONAL_KEY.test(key)) || known.has(item.toLowerCase())) return ERASED;
    return item.replace(EMAIL_ADDRESS, ERASED);
  };
  return walk(value, null);
}
