import type { Product } from '../../../../contract/billing';
import type { OrgBilling } from '../../../../contract/orgBilling';
import { queriesOf } from '../../../../contract/usage';
import { formatCount, formatMoney } from '../../../ui/format';

/** A price the organisation can buy: a plan's (per seat and period) or a pack's (once). */
export interface OrgOffer {
  priceId: string;
  label: string;
}

const INTERVAL_WORDS: Record<string, string> = { day: 'day', week: 'week', month: 'month', year: 'year' };

/** The catalogue as an organisation buys it: plans per seat (each recurring price), and credit packs for the pool. */
export function orgOffers(products: Product[]): { plans: OrgOffer[]; packs: OrgOffer[] } {
  const plans: OrgOffer[] = [];
  const packs: OrgOffer[] = [];
  for (const product of products) {
    for (const price of product.prices) {
      if (price.unit_amount === null) continue;
      const amount = formatMoney(price.unit_amount, price.currency);
      if (price.recurring) {
        const queries = queriesOf(product.metadata.credits_amount);
        const allowance = queries === null ? 'Unlimited queries' : `${formatCount(queries)} queries`;
        plans.push({
          priceId: price.id,
          label: `${product.name}: ${amount} per seat a ${INTERVAL_WORDS[price.recurring.interval] ?? price.recurring.interval}, ${allowance} per seat`,
        });
      } else {
        const credits = queriesOf(product.metadata.credits_amount);
        packs.push({
          priceId: price.id,
          label: `${product.name}: ${credits === null ? '' : `${formatCount(credits)} credits, `}${amount}`,
        });
      }
    }
  }
  return { plans, packs };
}

/** The seat meter's words: "2 of 3 seats given". */
export const seatMeterText = ({ seats }: Pick<OrgBilling, 'seats'>): string =>
  `${formatCount(seats.assigned)} of ${formatCount(seats.bought)} ${seats.bought === 1 ? 'seat' : 'seats'} given`;
