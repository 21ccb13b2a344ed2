import { describe, expect, it } from 'vitest';
import { creditAdjustmentFormSchema, packCreditsUsed, toAdjustment, type CreditAdjustmentForm } from '../../src/admin/users/usageRules';

describe('a credit pack’s credits already used', () => {
  it.each([
    [{ credits: 500, unspent: 380 }, 120],
    [{ credits: 500, unspent: 500 }, 0],
    [{ credits: 500, unspent: 0 }, 500],
  ])('%o → %i', (purchase, used) => {
    expect(packCreditsUsed(purchase)).toBe(used);
  });
});

describe('the Grant or deduct credits form', () => {
  const parse = (values: Record<string, unknown>) => creditAdjustmentFormSchema.safeParse(values);
  const message = (values: Record<string, unknown>) => parse(values).error?.issues[0]?.message;

  it.each<[CreditAdjustmentForm, { amount: number; reason: string }]>([
    [
      { direction: 'grant', amount: 250, reason: 'Goodwill' },
      { amount: 250, reason: 'Goodwill' },
    ],
    [
      { direction: 'deduct', amount: 40, reason: 'Duplicate grant' },
      { amount: -40, reason: 'Duplicate grant' },
    ],
  ])('sends %o as %o', (form, body) => {
    expect(toAdjustment(form)).toEqual(body);
  });

  it('trims the reason as the server does', () => {
    expect(parse({ direction: 'grant', amount: 1, reason: '  Goodwill ' }).data?.reason).toBe('Goodwill');
  });

  it.each([
    [{ direction: 'grant', amount: 10, reason: '   ' }, 'A reason is required'],
    [{ direction: 'grant', amount: 10, reason: 'a\nb' }, undefined],
    [{ direction: 'grant', amount: null, reason: 'Why' }, 'Enter a whole number of credits'],
    [{ direction: 'grant', amount: 2.5, reason: 'Why' }, 'Enter a whole number of credits'],
    [{ direction: 'deduct', amount: 0, reason: 'Why' }, 'Enter a positive number of credits: choose Deduct to take credits away'],
    [{ direction: 'deduct', amount: -5, reason: 'Why' }, 'Enter a positive number of credits: choose Deduct to take credits away'],
    [{ direction: 'grant', amount: 2_000_000_000, reason: 'Why' }, 'amount is too large'],
    [{ direction: 'refund', amount: 5, reason: 'Why' }, 'Choose Grant or Deduct'],
  ])('refuses %o', (values, expected) => {
    expect(parse(values).success).toBe(false);
    if (expected) expect(message(values)).toBe(expected);
  });
});
