import { describe, expect, it } from 'vitest';
import { USER_FIELDS_REQUIRED, userUpdateSchema, type StoredMessage } from '../../contract/admin';
import { formatDateTime } from '../../src/ui/format';
import { messagesFileName, messagesText, prettyJson } from '../../src/admin/messages/messageRules';

describe('message export (§2)', () => {
  const message: StoredMessage = { id: 'm1', sessionId: 's-1', message: { a: [1] }, createdAt: '2026-11-22T10:00:00.000Z', messageSize: 9 };

  it('is named by the date', () => {
    expect(messagesFileName(new Date(2026, 10, 22, 23, 59))).toBe('messages-2026-11-22.txt');
  });

  it('holds each message with its session, time, size and JSON', () => {
    expect(messagesText([message, { ...message, sessionId: 's-2' }])).toBe(
      [
        'Session ID: s-1\nCreated: 2026-11-22T10:00:00.000Z\nSize: 9 characters\n{\n  "a": [\n    1\n  ]\n}',
        'Session ID: s-2\nCreated: 2026-11-22T10:00:00.000Z\nSize: 9 characters\n{\n  "a": [\n    1\n  ]\n}',
      ].join('\n\n---\n\n') + '\n',
    );
    expect(messagesText([])).toBe('');
  });

  it.each<[unknown, string]>([
    [{ a: 1 }, '{\n  "a": 1\n}'],
    ['{"a":1}', '{\n  "a": 1\n}'],
    ['plain words', 'plain words'],
    [null, 'null'],
    [undefined, 'undefined'],
  ])('prettyJson(%j)', (value, text) => {
    expect(prettyJson(value)).toBe(text);
  });
});

describe('user edit (§5): the contract rule the form validates with', () => {
  const required = USER_FIELDS_REQUIRED;
  it.each<[string, { username?: string; email?: string | null }, Record<string, string>]>([
    ['both present', { username: 'ada', email: 'ada@example.com' }, {}],
    ['no username', { username: '', email: 'ada@example.com' }, { username: required }],
    ['a blank e-mail', { username: 'ada', email: '  ' }, { email: required }],
    ['no e-mail at all', { username: 'ada', email: null }, { email: required }],
    ['neither', {}, { username: required, email: required }],
  ])('%s', (_name, values, errors) => {
    const result = userUpdateSchema.safeParse(values);
    const found = result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
    expect(found).toEqual(errors);
  });
});

describe('formatDateTime', () => {
  it('shows an ISO time as a date and time, and anything else as it came', () => {
    expect(formatDateTime(new Date(2026, 2, 5, 14, 3).toISOString())).toBe('Mar 05, 2026 14:03');
    expect(formatDateTime('yesterday')).toBe('yesterday');
  });
});
