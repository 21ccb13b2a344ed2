import type { TopUpPauseReason } from '../../../contract/topUp';

/**
 * Automatic top-up's rules (issue 39, decision 045), free of I/O: when a top-up is set off, whether
 * the month's cap lets it through, and what a card's failure means.
 */

/** Settings as the rules need them: whether top-up runs, and its threshold in credits. */
export interface TopUpTrigger {
  enabled: boolean;
  paused: boolean;
  threshold: number;
}

const running = (t: TopUpTrigger | null): t is TopUpTrigger => t !== null && t.enabled && !t.paused;

/**
 * A use that took the balance from `before` to `after` sets off a top-up when it crossed the
 * threshold going down: from it or above to under it. One user's uses are charged in turn, so
 * exactly one use crosses; the uses after it start under the threshold and set off nothing.
 */
export function crossesThreshold(trigger: TopUpTrigger | null, before: number, after: number): boolean {
  return running(trigger) && before >= trigger.threshold && after < trigger.threshold;
}

/**
 * Saving settings sets off a top-up when they leave it running with the balance already under the
 * threshold, where before they did not (off, paused, or a lower threshold): a user who turns it on,
 * or back on, with too few credits would otherwise wait for a crossing that never comes (a use
 * that cannot be paid takes no credits). Saving again what already ran sets off nothing.
 */
export function saveSetsOff(before: TopUpTrigger | null, after: TopUpTrigger, balance: number): boolean {
  if (!running(after) || balance >= after.threshold) return false;
  return !(running(before) && balance < before.threshold);
}

/** Whether a pack of `price` fits under the month's `cap` after what its top-ups already cost. */
export const capAllows = (spentThisMonth: number, price: number, cap: number): boolean => spentThisMonth + price <= cap;

/** The UTC calendar month of a moment, `2026-11`: the cap's month. */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/**
 * Why a card's failure pauses top-up, from Stripe's error code: its holder must confirm the payment
 * (`authentication_required`, or an invoice's payment that requires action), else a decline.
 */
export function pauseReasonOf(code: string | undefined): TopUpPauseReason {
  return code === 'authentication_required' || code === 'invoice_payment_intent_requires_action'
    ? 'authentication_required'
    : 'card_declined';
}
