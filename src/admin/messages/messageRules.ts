import { format } from 'date-fns';
import type { StoredMessage } from '../../../contract/admin';

/** A stored message's JSON, indented; a string holding JSON is shown as that JSON. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** §2: the export is a text file named by the date, e.g. `messages-2026-11-22.txt`. */
export const messagesFileName = (now: Date): string => `messages-${format(now, 'yyyy-MM-dd')}.txt`;

/** The export's text: each message with its session id, time and size, then its JSON. */
export function messagesText(messages: readonly StoredMessage[]): string {
  return messages
    .map((m) =>
      [`Session ID: ${m.sessionId}`, `Created: ${m.createdAt}`, `Size: ${m.messageSize} characters`, prettyJson(m.message)].join('\n'),
    )
    .join('\n\n---\n\n')
    .concat(messages.length ? '\n' : '');
}
