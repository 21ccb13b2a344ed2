import { describe, expect, it } from 'vitest';
import type { AuditFilter } from '../../contract/admin';
import { auditMatch, type AuditMatch } from '../../server/services/auditFilter';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

describe('the columns an audit log filter matches', () => {
  it.each<[string, AuditFilter | undefined, AuditMatch]>([
    ['no filter', undefined, {}],
    ['an empty filter', {}, {}],
    ['an actor with an @: their e-mail', { actor: 'ann@example.com' }, { actorEmail: 'ann@example.com' }],
    ['an actor without one: their id', { actor: '5f0c-ann' }, { actorId: '5f0c-ann' }],
    ['an action', { action: 'user.delete' }, { action: 'user.delete' }],
    ['a target', { target: 'u1' }, { targetId: 'u1' }],
    ['from: that UTC day’s start', { from: '2026-03-02' }, { since: day('2026-03-02') }],
    ['to: the next UTC day’s start, excluded', { to: '2026-03-02' }, { before: day('2026-03-03') }],
    ['to across a month’s end', { to: '2026-02-28' }, { before: day('2026-03-01') }],
    [
      'all of them',
      { actor: 'a@b', action: 'license.reissue', target: 't', from: '2026-01-01', to: '2026-12-31' },
      { actorEmail: 'a@b', action: 'license.reissue', targetId: 't', since: day('2026-01-01'), before: day('2027-01-01') },
    ],
  ])('%s', (_name, filter, match) => {
    expect(auditMatch(filter)).toEqual(match);
  });
});
