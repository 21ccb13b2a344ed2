/**
 * Stripe's test cards that the stand-in knows, each by the test PaymentMethod that stands for it
 * (`pm_card_visa`, …, which `POST /v1/payment_methods/:id/attach` and `payment_method=` accept as
 * Stripe does) and by its number's last four digits, which is how a saved card is told apart.
 *
 * - 4242: every payment succeeds.
 * - 0341 (`pm_card_chargeCustomerFail`): saving it on a customer succeeds; every charge is declined.
 * - 3184 (`pm_card_authenticationRequired`): its bank asks the holder to authenticate every payment.
 *   On Stripe's own pages the holder is there and does; off session (a saved card charged without
 *   them) the payment fails with `authentication_required`.
 */
import type { StripeCardFailure } from './types';

export interface TestCard {
  token: string;
  last4: string;
  /** What the hosted Checkout page offers it as. */
  label: string;
  charges: 'succeed' | 'declined' | 'authenticate';
}

export const TEST_CARDS: readonly TestCard[] = [
  { token: 'pm_card_visa', last4: '4242', label: 'Visa ending in 4242 (test card)', charges: 'succeed' },
  {
    token: 'pm_card_authenticationRequired',
    last4: '3184',
    label: 'Visa ending in 3184 (test card: its bank asks you to confirm every payment)',
    charges: 'authenticate',
  },
  {
    token: 'pm_card_chargeCustomerFail',
    last4: '0341',
    label: 'Visa ending in 0341 (test card: it can be saved, every charge is declined)',
    charges: 'declined',
  },
];

export const DEFAULT_TEST_CARD: TestCard = TEST_CARDS[0]!;

/** The test card of a test PaymentMethod's id (`pm_card_…`), or undefined. */
export const testCardOfToken = (token: string): TestCard | undefined => TEST_CARDS.find((card) => card.token === token);

/** The test card a saved card is (by its last four digits); any other behaves as 4242. */
export const testCardOfLast4 = (last4: string): TestCard => TEST_CARDS.find((card) => card.last4 === last4) ?? DEFAULT_TEST_CARD;

/** What charging `card` does; `onSession`: its holder is there to authenticate (a hosted page). */
export function chargeFailure(card: TestCard, onSession: boolean): StripeCardFailure | null {
  if (card.charges === 'declined')
    return { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
  if (card.charges === 'authenticate' && !onSession)
    return {
      type: 'card_error',
      code: 'authentication_required',
      decline_code: 'authentication_required',
      message: 'Your card was declined. This transaction requires authentication.',
    };
  return null;
}
