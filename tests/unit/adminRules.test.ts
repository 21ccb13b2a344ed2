import { describe, expect, it } from 'vitest';
import type { ReleaseRequest, StoredMessage } from '../../contract/admin';
import { formatDateTime } from '../../src/admin/format';
import { messagesFileName, messagesText, parseRecentLimit, prettyJson } from '../../src/admin/messages/messageRules';
import { canRelease, missesRequiredFields, releaseRequest } from '../../src/admin/release/releaseRules';
import { validateUser } from '../../src/admin/users/userRules';

const filled: ReleaseRequest = { version: '2026-01-01a', ue55Url: 'https://x/5.5', ue56Url: 'https://x/5.6', ue57Url: 'https://x/5.7' };

describe('release form (§5)', () => {
  it.each<[string, Partial<ReleaseRequest>, boolean, boolean]>([
    ['all four filled', {}, true, false],
    ['no version', { version: '' }, false, true],
    ['no UE 5.5 URL', { ue55Url: '' }, false, true],
    ['no UE 5.6 URL', { ue56Url: '' }, false, true],
    ['no UE 5.7 URL', { ue57Url: '' }, false, false],
    ['a blank version', { version: '  ' }, true, true],
    ['a blank UE 5.6 URL', { ue56Url: ' ' }, true, true],
    ['a blank UE 5.7 URL (the server refuses it)', { ue57Url: ' ' }, true, false],
  ])('%s: Release enabled %s, required message %s', (_name, change, enabled, message) => {
    const form = { ...filled, ...change };
    expect(canRelease(form)).toBe(enabled);
    expect(missesRequiredFields(form)).toBe(message);
  });

  it('sends the fields without surrounding blanks', () => {
    expect(releaseRequest({ version: ' v1 ', ue55Url: ' a ', ue56Url: 'b ', ue57Url: ' c' })).toEqual({ version: 'v1', ue55Url: 'a', ue56Url: 'b', ue57Url: 'c' });
  });
});

describe('recent messages limit (§5, §9)', () => {
  it.each<[string, number | null]>([
    ['20', 20],
    ['1', 1],
    ['1000', 1000],
    [' 42 ', 42],
    ['0', null],
    ['1001', null],
    ['-5', null],
    ['2.5', null],
    ['1e2', null],
    ['abc', null],
    ['', null],
  ])('%j → %j', (text, limit) => {
    expect(parseRecentLimit(text)).toBe(limit);
  });
});

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

describe('user edit (§5)', () => {
  it.each<[string, { username?: string; email?: string | null }, Record<string, string>]>([
    ['both present', { username: 'ada', email: 'ada@example.com' }, {}],
    ['no username', { username: '', email: 'ada@example.com' }, { username: 'admin.users.fieldsRequired' }],
    ['a blank e-mail', { username: 'ada', email: '  ' }, { email: 'admin.users.fieldsRequired' }],
    ['no e-mail at all', { username: 'ada', email: null }, { email: 'admin.users.fieldsRequired' }],
    ['neither', {}, { username: 'admin.users.fieldsRequired', email: 'admin.users.fieldsRequired' }],
  ])('%s', (_name, values, errors) => {
    expect(validateUser(values)).toEqual(errors);
  });
});

describe('formatDateTime', () => {
  it('shows an ISO time as a date and time, and anything else as it came', () => {
    expect(formatDateTime(new Date(2026, 2, 5, 14, 3).toISOString())).toBe('Mar 05, 2026 14:03');
    expect(formatDateTime('yesterday')).toBe('yesterday');
  });
});
