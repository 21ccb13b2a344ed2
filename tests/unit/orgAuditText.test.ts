/** An organisation's audit entries in words (issue 38), as a table. */
import { describe, expect, it } from 'vitest';
import type { AuditAction } from '../../contract/admin';
import { orgAuditText } from '../../server/services/orgAuditText';

const names: Record<string, string> = { u1: 'ada@studio.example', u2: 'brin@studio.example' };
const nameOf = (id: unknown) => (typeof id === 'string' && names[id]) || 'a deleted account';

describe('orgAuditText', () => {
  it.each([
    ['org.create', null, { name: 'Grove Studio' }, 'Created the organisation as Grove Studio'],
    ['org.rename', { name: 'Grove' }, { name: 'Grove Studio' }, 'Renamed the organisation from Grove to Grove Studio'],
    ['org.transfer', { owner: 'u1', role: 'admin' }, { owner: 'u2' }, 'Made brin@studio.example the owner'],
    [
      'org.member.role',
      { userId: 'u2', role: 'member' },
      { userId: 'u2', role: 'billing' },
      'Made brin@studio.example a billing manager (was a member)',
    ],
    ['org.member.remove', { userId: 'u9', role: 'member' }, null, 'Removed a deleted account'],
    ['org.member.leave', { userId: 'u2', role: 'admin' }, null, 'Left the organisation'],
    [
      'org.invitation.create',
      null,
      { invitationId: 'i1', email: 'eve@studio.example', role: 'admin' },
      'Invited eve@studio.example as an admin',
    ],
    ['org.invitation.resend', null, { invitationId: 'i1', email: 'eve@studio.example' }, 'Sent the invitation to eve@studio.example again'],
    ['org.invitation.revoke', { invitationId: 'i1', email: 'eve@studio.example' }, null, 'Withdrew the invitation to eve@studio.example'],
    ['org.invitation.accept', null, { invitationId: 'i1', userId: 'u2', role: 'member' }, 'Joined as a member, by invitation'],
    ['org.seat.assign', null, { userId: 'u2' }, 'Gave brin@studio.example a seat'],
    ['org.seat.release', { userId: 'u2' }, null, "Took back brin@studio.example's seat"],
    [
      'org.member.limit',
      { userId: 'u2', limit: null },
      { userId: 'u2', limit: 300 },
      'Limited brin@studio.example to 300 shared credits a month',
    ],
    ['org.member.limit', { userId: 'u2', limit: 300 }, { userId: 'u2', limit: null }, "Removed brin@studio.example's monthly limit"],
    [
      'org.billing.details',
      null,
      { companyName: 'Grove GmbH', country: 'DE', taxId: null },
      'Changed the billing details to Grove GmbH, DE',
    ],
    ['org.seats.change', { seats: 3 }, { seats: 5 }, 'Changed the plan from 3 to 5 seats'],
    ['org.credits.grant', null, { amount: 200, reason: 'Outage' }, 'Sage staff added 200 credits to the shared pool: Outage'],
    // A role that is not one reads as the least.
    [
      'org.member.role',
      { userId: 'u2', role: 'boss' },
      { userId: 'u2', role: 'admin' },
      'Made brin@studio.example an admin (was a member)',
    ],
  ] as const)('%s', (action, before, after, expected) => {
    expect(orgAuditText(action as AuditAction, before, after, nameOf)).toBe(expected);
  });
});
