import { z } from 'zod';
import { singleLine } from './text';

/**
 * An organisation's bill (issue 38, decision 041): company details on its Stripe customer, a plan
 * bought for N seats, seats given to members, and a shared pool of credits. Amounts in minor units.
 */

/** Most seats one organisation buys through the dashboard; more is a conversation with sales. */
export const MAX_SEATS = 1000;

/** EU member states: their VAT numbers start with the country's code (Greece's with EL). */
const EU = 'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' ');

/** The kind of tax ID Stripe records for a company in each country we invoice with one. */
export const TAX_ID_TYPES: Record<string, string> = {
  ...Object.fromEntries(EU.map((code) => [code, 'eu_vat'])),
  GB: 'gb_vat',
  CH: 'ch_vat',
  NO: 'no_vat',
  IS: 'is_vat',
  US: 'us_ein',
  CA: 'ca_bn',
  AU: 'au_abn',
  NZ: 'nz_gst',
  JP: 'jp_cn',
  KR: 'kr_brn',
  SG: 'sg_uen',
  IN: 'in_gst',
  BR: 'br_cnpj',
  MX: 'mx_rfc',
  TR: 'tr_tin',
  IL: 'il_vat',
  ZA: 'za_vat',
  AE: 'ae_trn',
  UA: 'ua_vat',
};

/** A tax ID as written on an invoice: upper case, without spaces, dots or dashes. */
export const normalisedTaxId = (value: string): string => value.replace(/[\s.-]/g, '').toUpperCase();

/** Why a tax ID cannot be put on invoices for `country`, or null when it can. */
export function taxIdRefusal(country: string, taxId: string): string | null {
  const type = TAX_ID_TYPES[country];
  if (!type) return `Tax IDs from ${country} cannot be put on invoices yet: leave the field empty`;
  if (!/^[A-Z0-9]{4,20}$/.test(taxId)) return 'A tax ID is 4 to 20 letters and digits';
  if (type === 'eu_vat') {
    const prefix = country === 'GR' ? 'EL' : country;
    if (!taxId.startsWith(prefix)) return `A VAT number from ${country} starts with ${prefix}`;
  }
  if (type === 'gb_vat' && !/^GB\d{9}(\d{3})?$/.test(taxId)) return 'A UK VAT number is GB followed by 9 or 12 digits';
  return null;
}

const text = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .check(singleLine(name))
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`);
const optionalText = (name: string, max: number) =>
  z
    .string()
    .check(singleLine(name))
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : null));

/** `PUT /api/orgs/{id}/billing-details`: what every invoice of the organisation carries. */
export const billingDetailsSchema = z
  .object({
    companyName: text('Company name', 200),
    addressLine1: text('Address', 200),
    addressLine2: optionalText('Address line 2', 200),
    city: text('City', 100),
    postalCode: text('Postal code', 20),
    region: optionalText('Region', 100),
    country: z
      .string({ error: 'Country is required' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, 'Country must be a two-letter ISO code, such as DE'),
    taxId: optionalText('Tax ID', 40).transform((value) => (value ? normalisedTaxId(value) : null)),
  })
  .superRefine((details, ctx) => {
    const refusal = details.taxId ? taxIdRefusal(details.country, details.taxId) : null;
    if (refusal) ctx.addIssue({ code: 'custom', path: ['taxId'], message: refusal });
  });
export type BillingDetailsInput = z.input<typeof billingDetailsSchema>;
export type BillingDetails = z.output<typeof billingDetailsSchema>;

const seats = z
  .number({ error: 'seats must be a whole number' })
  .int('seats must be a whole number')
  .min(1, 'seats must be at least 1')
  .max(MAX_SEATS, `seats must be at most ${MAX_SEATS}`);

const stripeId = z
  .string({ error: 'priceId is required' })
  .trim()
  .min(1, 'priceId is required')
  .max(255, 'priceId is too long')
  .regex(/^[A-Za-z0-9_]+$/, 'priceId is not valid');
const returnUrl = z.string().check(singleLine('The return URL')).trim().max(2048, 'The return URL is too long');

/** `POST /api/orgs/{id}/checkout`: a plan for `seats` seats, or a credit pack for the shared pool. */
export const orgCheckoutSchema = z.object({
  priceId: stripeId,
  /** For a plan; a pack is bought once (default 1). */
  seats: seats.default(1),
  successUrl: returnUrl.optional(),
  cancelUrl: returnUrl.optional(),
});
export type OrgCheckout = z.infer<typeof orgCheckoutSchema>;

/** `PATCH /api/orgs/{id}/subscription`: the seats the plan is for from now on, prorated by Stripe. */
export const seatCountSchema = z.object({ seats });

export const seatMeterSchema = z.object({ bought: z.number().int(), assigned: z.number().int() });
export type SeatMeter = z.infer<typeof seatMeterSchema>;

export const orgSubscriptionSchema = z.object({
  id: z.string(),
  status: z.string(),
  plan: z.string(),
  seats: z.number().int(),
  /** Per seat and period. */
  unitAmount: z.number().int().nullable(),
  currency: z.string(),
  /** Queries each seat may use per period; null: Unlimited. */
  allowancePerSeat: z.number().int().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
export type OrgSubscription = z.infer<typeof orgSubscriptionSchema>;

const detailsOut = z.object({
  companyName: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  city: z.string(),
  postalCode: z.string(),
  region: z.string().nullable(),
  country: z.string(),
  taxId: z.string().nullable(),
});

/** `GET /api/orgs/{id}/billing` (owner, billing): the details, the plan, the seats and the pool. */
export const orgBillingSchema = z.object({
  details: detailsOut.nullable(),
  subscription: orgSubscriptionSchema.nullable(),
  seats: seatMeterSchema,
  /** Credits in the shared pool. */
  pool: z.number().int(),
});
export type OrgBilling = z.infer<typeof orgBillingSchema>;

export const ORG_BILLING_ERRORS = {
  detailsRequired: {
    status: 409,
    error: 'billing_details_required',
    message: 'Add the company name and address (and VAT number, if you have one) before buying',
  },
  alreadySubscribed: {
    status: 409,
    error: 'org_already_subscribed',
    message: 'This organisation already has a plan: change its number of seats instead',
  },
  notSubscribed: { status: 409, error: 'org_not_subscribed', message: 'This organisation has no plan yet: buy one first' },
  noFreeSeat: { status: 409, error: 'no_free_seat', message: 'Every seat is taken: add seats, or take one back first' },
  seatsBelowAssigned: {
    status: 409,
    error: 'seats_assigned',
    message: 'More seats are given to members than that: take seats back first',
  },
} as const;

/** Whether the seat count may go to `seats`: never below the seats given to members. */
export const seatCountRefusal = (seats: number, assigned: number) => (seats < assigned ? ORG_BILLING_ERRORS.seatsBelowAssigned : null);

/** Whether one more seat may be given: never more than were bought. */
export const seatAssignRefusal = (meter: SeatMeter) => (meter.assigned >= meter.bought ? ORG_BILLING_ERRORS.noFreeSeat : null);
