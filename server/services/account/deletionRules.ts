/**
 * The rules of an account's deletion (docs/account-data.md), free of I/O: tested by tables of cases.
 * Who may delete is the one "recent sign-in" rule (contract/recentSignIn.ts, decision 034).
 */

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
