import { describe, expect, it } from 'vitest';
import { confirmsUsername } from '../../contract/accountData';
import { ERASED, eraseIdentity } from '../../server/services/account/deletionRules';

describe('the username typed to confirm', () => {
  it.each([
    ['ada', 'ada', true],
    ['  ada ', 'ada', true],
    ['Ada', 'ada', false],
    ['ad', 'ada', false],
    ['', 'ada', false],
  ])('%j for %j: %s', (typed, username, ok) => {
    expect(confirmsUsername(typed, username)).toBe(ok);
  });
});

describe('an audit record about a deleted user, without what identifies them', () => {
  const who = ['ada', 'ada@example.com', 'Ada Lovelace'];
  it.each([
    [
      'names and e-mails by key',
      { username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false },
      { username: ERASED, email: ERASED, status: 'Active', isAdmin: false },
    ],
    [
      'any spelling of the keys',
      { epicDisplayName: 'Someone', actorEmail: 'x@y.z', name: 'n', newEmail: 'b@c.de' },
      { epicDisplayName: ERASED, actorEmail: ERASED, name: ERASED, newEmail: ERASED },
    ],
    ['their identifiers under any key, in any case', { note: 'ADA LOVELACE', reason: 'ada' }, { note: ERASED, reason: ERASED }],
    ['an e-mail address inside text', { comment: 'asked by ada@example.com by phone' }, { comment: `asked by ${ERASED} by phone` }],
    [
      'nested records and lists',
      { changes: [{ email: 'old@example.com' }, { email: null }] },
      { changes: [{ email: ERASED }, { email: null }] },
    ],
    [
      'what says what was done',
      { ended: 3, credits: -50, reason: 'refund', productName: 'Sage Pro' },
      { ended: 3, credits: -50, reason: 'refund', productName: 'Sage Pro' },
    ],
    ["a staff note's words about them", { noteId: 'n1', text: 'Refunded on 3 Nov, lives in Lyon' }, { noteId: 'n1', text: ERASED }],
    ['nothing', null, null],
  ])('%s', (_name, record, erased) => {
    expect(eraseIdentity(record, who)).toEqual(erased);
  });

  it('ignores empty identifiers', () => {
    expect(eraseIdentity({ note: '' }, ['', ' '])).toEqual({ note: '' });
  });
});
