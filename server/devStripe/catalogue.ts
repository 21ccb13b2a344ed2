/**
 * What the development stand-in sells: two plans and two credit packs, with the metadata the app
 * reads from Stripe products (`credits_amount`: a plan's queries per month, none for Unlimited, or
 * the queries a pack adds; `popular`). Ids are fixed so that every start, and a database that
 * outlived the stand-in's state, name the same products.
 */
import type { StripeFixture } from './index';
import type { NewPrice, NewProduct } from './state';

type CataloguePrice = Omit<NewPrice, 'product'> & { id: string };

export const DEV_CATALOGUE: { product: NewProduct & { id: string }; prices: CataloguePrice[] }[] = [
  {
    product: {
      id: 'prod_sage_pro',
      name: 'Sage Pro',
      description: '1,000 queries a month for daily work',
      metadata: { credits_amount: '1000', popular: 'true' },
    },
    prices: [
      { id: 'price_sage_pro_monthly', unit_amount: 1999, currency: 'usd', recurring: { interval: 'month' } },
      { id: 'price_sage_pro_yearly', unit_amount: 19999, currency: 'usd', recurring: { interval: 'year' } },
    ],
  },
  {
    product: {
      id: 'prod_sage_unlimited',
      name: 'Sage Unlimited',
      description: 'No monthly limit',
      metadata: { credits_amount: 'unlimited' },
    },
    prices: [
      { id: 'price_sage_unlimited_monthly', unit_amount: 4999, currency: 'usd', recurring: { interval: 'month' } },
      { id: 'price_sage_unlimited_yearly', unit_amount: 49999, currency: 'usd', recurring: { interval: 'year' } },
    ],
  },
  {
    product: { id: 'prod_sage_pack_500', name: '500 queries', description: 'A credit pack', metadata: { credits_amount: '500' } },
    prices: [{ id: 'price_sage_pack_500', unit_amount: 999, currency: 'usd', recurring: null }],
  },
  {
    product: { id: 'prod_sage_pack_2000', name: '2,000 queries', description: 'A credit pack', metadata: { credits_amount: '2000' } },
    prices: [{ id: 'price_sage_pack_2000', unit_amount: 2999, currency: 'usd', recurring: null }],
  },
];

/** Adds what the stand-in does not have yet (a state kept from an earlier start has it all). */
export function seedCatalogue(stripe: StripeFixture): void {
  for (const { product, prices } of DEV_CATALOGUE) {
    if (!stripe.products.has(product.id)) stripe.addProduct(product);
    for (const price of prices) if (!stripe.prices.has(price.id)) stripe.addPrice({ ...price, product: product.id });
  }
}

/**
 * Tells the app about every product and price, as Stripe's events do: the app re-reads each one
 * into its mirror, whatever its database saw before (a new database, a state that outlived one).
 */
export async function announceCatalogue(stripe: StripeFixture): Promise<void> {
  for (const product of stripe.products.values()) await stripe.emit('product.updated', product);
  for (const price of stripe.prices.values()) await stripe.emit('price.updated', price);
}
