import { z } from 'zod';
import { creditAdjustmentSchema, type CreditAdjustment, type CreditPackPurchase } from '../../../contract/usage';

/** What the console's Usage panel says about a user's usage (issue 26), apart from how it is drawn. */

/** Of a pack's credits, those a refund cannot take back because they were used. */
export const packCreditsUsed = (purchase: Pick<CreditPackPurchase, 'credits' | 'unspent'>): number =>
  Math.max(0, purchase.credits - purchase.unspent);

export const ADJUSTMENT_DIRECTIONS = ['grant', 'deduct'] as const;
export type AdjustmentDirection = (typeof ADJUSTMENT_DIRECTIONS)[number];

/**
 * The Grant or deduct credits form: the contract's rule for the amount and the reason, the amount
 * typed as a positive number of credits and the direction chosen apart, so staff never type a sign.
 */
export const creditAdjustmentFormSchema = z.object({
  direction: z.enum(ADJUSTMENT_DIRECTIONS, { error: 'Choose Grant or Deduct' }),
  amount: z
    .number({ error: 'Enter a whole number of credits' })
    .int('Enter a whole number of credits')
    .positive('Enter a positive number of credits: choose Deduct to take credits away')
    .pipe(creditAdjustmentSchema.shape.amount),
  reason: creditAdjustmentSchema.shape.reason,
});
export type CreditAdjustmentForm = z.output<typeof creditAdjustmentFormSchema>;

/** The body `POST /api/admin/users/{id}/credits` takes: a deduction is a negative amount. */
export function toAdjustment({ direction, amount, reason }: CreditAdjustmentForm): CreditAdjustment {
  return { amount: direction === 'deduct' ? -amount : amount, reason };
}
