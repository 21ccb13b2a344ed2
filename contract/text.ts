import * as z from 'zod/mini';

/**
 * What text may hold (issue 24). Two rules, both checked before anything reaches a database:
 *
 * - Anywhere: no U+0000 and no unpaired UTF-16 surrogate. PostgreSQL cannot store either in text
 *   (it refused the first with a 500; the second it would quietly change), SQLite's full-text
 *   index trips on U+0000, and neither is a character anybody types. The server applies this to
 *   every string of every request's body, query and path (`findUnstorableText`), so no route can
 *   forget it.
 * - In a field that is not free text (an address, a name, an id, a token, a URL, a search term):
 *   no C0 control character and no DEL either (`singleLine`). Free text (a chat message, a
 *   password) may hold tabs and line breaks.
 */

const NUL = '\u0000';
/** A high surrogate without a low one after it, or a low one without a high one before it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- matching control characters is this rule's purpose
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether a string can be stored as text by every database we run on. */
export const isStorableText = (value: string): boolean => !value.includes(NUL) && !LONE_SURROGATE.test(value);

/** Whether a string is one line of plain characters: storable, and no control characters. */
export const isSingleLine = (value: string): boolean => isStorableText(value) && !CONTROL.test(value);

/** A check for string schemas (zod and zod/mini alike): `label` holds no control characters. */
export const singleLine = (label: string) => z.refine<string>(isSingleLine, `${label} must not contain control characters`);

/** Where a request part holds text no database can store, as a readable field path, or null. */
export function findUnstorableText(value: unknown): string | null {
  // Iterative, with the path kept per item: bodies are bounded in depth before this runs, but a
  // walk that cannot overflow the stack needs no such promise.
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [item, at] = stack.pop() as [unknown, string];
    if (typeof item === 'string') {
      if (!isStorableText(item)) return at || 'the value';
    } else if (Array.isArray(item)) {
      item.forEach((entry, i) => stack.push([entry, `${at}[${i}]`]));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, entry] of Object.entries(item)) {
        const path = at ? `${at}.${key}` : key;
        if (!isStorableText(key)) return at || 'a field name';
        stack.push([entry, path]);
      }
    }
  }
  return null;
}
