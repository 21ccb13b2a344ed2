import { describe, expect, it } from 'vitest';
import {
  ORG_BILLING_ERRORS,
  billingDetailsSchema,
  normalisedTaxId,
  seatAssignRefusal,
  seatCountRefusal,
  taxIdRefusal,
} from '../../contract/orgBilling';
import { exhaustedRefusal } from '../../contract/usage';
import { exhaustion, orgCharge, poolLowDue, type OrgBalance } from '../../server/services/metering/rules';

const balance = (seatLeft: number | null, pool: number, limitLeft: number | null): OrgBalance => ({ seatLeft, pool, limitLeft });

describe("which resource pays for a seat holder's use: the seat, then the pool within their limit (the rest is their own)", () => {
  it.each([
    // units, seat left, pool, limit left → seat, pool
    [1, 5, 0, null, 1, 0],
    [3, 2, 10, null, 2, 1],
    [3, null, 10, 0, 3, 0],
    [5, 0, 10, 2, 0, 2],
    [5, 0, 1, 4, 0, 1],
    [5, 1, 0, null, 1, 0],
    [4, 0, 10, null, 0, 4],
    [2, -3, 10, null, 0, 2],
    [2, 0, 0, null, 0, 0],
  ])('%i units, seat %s, pool %i, limit %s → seat %i, pool %i', (units, seatLeft, pool, limitLeft, seat, fromPool) => {
    expect(orgCharge(units, balance(seatLeft, pool, limitLeft))).toEqual({ seat, pool: fromPool });
  });
});

describe('whose limit a refused use reached', () => {
  it.each([
    [null, 'own', 'quota_exhausted'],
    [balance(0, 10, 0), 'member_limit', 'org_limit_reached'],
    [balance(0, 0, 5), 'organisation', 'org_allowance_exhausted'],
    [balance(0, 0, null), 'organisation', 'org_allowance_exhausted'],
    [balance(0, 3, 3), 'organisation', 'org_allowance_exhausted'],
  ] as const)('%j → %s', (state, kind, code) => {
    expect(exhaustion(state)).toBe(kind);
    const refusal = exhaustedRefusal(kind, 'Grove Studio');
    expect(refusal.error).toBe(code);
    if (kind !== 'own') expect(refusal.message).toContain('Grove Studio');
  });
});

describe('the pool running low', () => {
  it.each([
    [1000, 99, false, true],
    [1000, 100, false, false],
    [1000, 5, true, false],
    [0, 0, false, false],
  ])('most %i, now %i, told %s → tell %s', (highWater, after, notified, due) => {
    expect(poolLowDue({ highWater, after, notified })).toBe(due);
  });
});

describe('the seat count and seats given', () => {
  it.each([
    [3, 2, null],
    [2, 2, null],
    [1, 2, ORG_BILLING_ERRORS.seatsBelowAssigned],
  ])('%i seats with %i given → %j', (seats, assigned, refusal) => {
    expect(seatCountRefusal(seats, assigned)).toEqual(refusal);
  });
  it.each([
    [{ bought: 3, assigned: 2 }, null],
    [{ bought: 3, assigned: 3 }, ORG_BILLING_ERRORS.noFreeSeat],
    [{ bought: 0, assigned: 0 }, ORG_BILLING_ERRORS.noFreeSeat],
    [{ bought: 2, assigned: 3 }, ORG_BILLING_ERRORS.noFreeSeat],
  ])('%j → %j', (meter, refusal) => {
    expect(seatAssignRefusal(meter)).toEqual(refusal);
  });
});

describe('a tax ID on invoices', () => {
  it.each([
    ['DE', 'DE123456789', null],
    ['GR', 'EL123456789', null],
    ['GR', 'GR123456789', 'A VAT number from GR starts with EL'],
    ['FR', 'DE123456789', 'A VAT number from FR starts with FR'],
    ['GB', 'GB123456789', null],
    ['GB', 'GB12345', 'A UK VAT number is GB followed by 9 or 12 digits'],
    ['US', '123456789', null],
    ['AQ', '123456', 'Tax IDs from AQ cannot be put on invoices yet: leave the field empty'],
    ['DE', 'DE', 'A tax ID is 4 to 20 letters and digits'],
  ])('%s %s → %s', (country, taxId, refusal) => {
    expect(taxIdRefusal(country, taxId)).toBe(refusal);
  });
  it('is written without spaces, dots or dashes, in capitals', () => {
    expect(normalisedTaxId(' de 123.456-789 ')).toBe('DE123456789');
    const parsed = billingDetailsSchema.parse({
      companyName: ' Grove ',
      addressLine1: 'Road 1',
      city: 'Köln',
      postalCode: '50667',
      country: 'de',
      taxId: 'de 123 456 789',
    });
    expect(parsed).toEqual({
      companyName: 'Grove',
      addressLine1: 'Road 1',
      addressLine2: null,
      city: 'Köln',
      postalCode: '50667',
      region: null,
      country: 'DE',
      taxId: 'DE123456789',
    });
    expect(
      billingDetailsSchema.safeParse({ companyName: '', addressLine1: 'x', city: 'x', postalCode: 'x', country: 'Germany' }).success,
    ).toBe(false);
  });
});
