import { describe, expect, it } from 'vitest';
import { settlement, unitsAvailable, type Paid } from '../../server/services/metering/rules';

const paid = (seat: number, pool: number, allowance: number, credits: number): Paid => ({ seat, pool, allowance, credits });

describe('how many units a hold can take (decision 043)', () => {
  it.each([
    // units, from the organisation, allowance left (null: Unlimited), credits → held
    [5, 0, 10, 0, 5],
    [5, 0, 2, 0, 2],
    [5, 0, 2, 1, 3],
    [5, 2, 1, 1, 4],
    [5, 5, 0, 0, 5],
    [5, 0, 0, 0, 0],
    [5, 0, null, 0, 5],
    [5, 0, -3, 2, 2],
    [1, 0, 0, 1, 1],
  ])('%i asked, %i from the studio, %j allowance, %i credits: %i', (units, fromOrg, allowanceLeft, credits, held) =>
    expect(unitsAvailable(units, fromOrg, { allowanceLeft, credits })).toBe(held),
  );
});

describe('a hold settled for what the query took', () => {
  it.each([
    // held, settled for → kept, given back
    [paid(0, 0, 5, 0), 2, paid(0, 0, 2, 0), paid(0, 0, 3, 0)],
    [paid(0, 0, 3, 3), 4, paid(0, 0, 3, 1), paid(0, 0, 0, 2)],
    [paid(0, 0, 3, 3), 2, paid(0, 0, 2, 0), paid(0, 0, 1, 3)],
    [paid(2, 3, 1, 1), 4, paid(2, 2, 0, 0), paid(0, 1, 1, 1)],
    [paid(2, 3, 1, 1), 7, paid(2, 3, 1, 1), paid(0, 0, 0, 0)],
    [paid(2, 3, 1, 1), 0, paid(0, 0, 0, 0), paid(2, 3, 1, 1)],
    [paid(0, 0, 0, 0), 0, paid(0, 0, 0, 0), paid(0, 0, 0, 0)],
  ])('%j for %i keeps %j and gives back %j', (held, units, kept, returned) => expect(settlement(held, units)).toEqual({ kept, returned }));

  it('keeps exactly what a use of the settled units would have been charged, and nothing is made or lost', () => {
    for (let units = 0; units <= 7; units += 1) {
      const { kept, returned } = settlement(paid(2, 3, 1, 1), units);
      const sum = (p: Paid) => p.seat + p.pool + p.allowance + p.credits;
      expect(sum(kept)).toBe(units);
      expect(sum(kept) + sum(returned)).toBe(7);
    }
  });

  it('cannot settle for more than was held', () => {
    expect(() => settlement(paid(0, 0, 2, 0), 3)).toThrow(RangeError);
  });
});
