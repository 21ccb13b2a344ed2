import { describe, expect, it } from 'vitest';
import { capAllows, crossesThreshold, monthOf, pauseReasonOf, saveSetsOff, type TopUpTrigger } from '../../server/services/topUp/rules';

const on = (threshold: number): TopUpTrigger => ({ enabled: true, paused: false, threshold });
const off = (threshold: number): TopUpTrigger => ({ enabled: false, paused: false, threshold });
const paused = (threshold: number): TopUpTrigger => ({ enabled: true, paused: true, threshold });

describe('a use that sets off a top-up', () => {
  it.each([
    ['crosses from above to under', on(100), 150, 90, true],
    ['crosses from exactly the threshold', on(100), 100, 99, true],
    ['crosses to zero', on(100), 101, 0, true],
    ['stays above', on(100), 150, 100, false],
    ['starts under (a later use of the same fall)', on(100), 99, 50, false],
    ['with top-up off', off(100), 150, 90, false],
    ['while paused', paused(100), 150, 90, false],
    ['with no settings', null, 150, 90, false],
    ['taking nothing at the threshold', on(100), 100, 100, false],
  ] as const)('%s: %s', (_case, trigger, before, after, fires) => {
    expect(crossesThreshold(trigger, before, after)).toBe(fires);
  });

  it('is exactly one of any run of uses that brings the balance under the threshold', () => {
    const balances = [130, 120, 101, 100, 99, 60, 20, 0];
    const crossings = balances.slice(1).filter((after, i) => crossesThreshold(on(100), balances[i]!, after));
    expect(crossings).toEqual([99]);
  });
});

describe('saving settings that set off a top-up at once', () => {
  it.each([
    ['turning on with too few credits', null, on(100), 40, true],
    ['turning on from off', off(100), on(100), 40, true],
    ['turning back on after a pause', paused(100), on(100), 40, true],
    ['raising the threshold above the balance', on(30), on(100), 40, true],
    ['turning on with enough credits', off(100), on(100), 100, false],
    ['saving again what already ran under the threshold', on(100), on(100), 40, false],
    ['lowering a threshold it was already under', on(100), on(50), 40, false],
    ['turning off', on(100), off(100), 40, false],
  ] as const)('%s: %s', (_case, before, after, balance, fires) => {
    expect(saveSetsOff(before, after, balance)).toBe(fires);
  });
});

describe("the month's cap", () => {
  it.each([
    [0, 999, 3000, true],
    [1998, 999, 3000, true],
    [2001, 999, 3000, true],
    [2002, 999, 3000, false],
    [0, 999, 999, true],
    [0, 999, 998, false],
    [2997, 999, 3000, false],
  ])('after %i spent, a pack of %i under a cap of %i: %s', (spent, price, cap, allowed) => {
    expect(capAllows(spent, price, cap)).toBe(allowed);
  });

  it.each([
    [Date.UTC(2026, 10, 30, 23, 59, 59), '2026-11'],
    [Date.UTC(2026, 11, 1, 0, 0, 0), '2026-12'],
    [Date.UTC(2027, 0, 1), '2027-01'],
  ])('counts %i in the UTC month %s', (at, month) => expect(monthOf(at)).toBe(month));
});

describe("a card's failure", () => {
  it.each([
    ['authentication_required', 'authentication_required'],
    ['invoice_payment_intent_requires_action', 'authentication_required'],
    ['card_declined', 'card_declined'],
    ['expired_card', 'card_declined'],
    ['insufficient_funds', 'card_declined'],
    [undefined, 'card_declined'],
  ])('%s pauses top-up as %s', (code, reason) => expect(pauseReasonOf(code)).toBe(reason));
});
