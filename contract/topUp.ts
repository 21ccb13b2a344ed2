import { z } from 'zod';

/**
 * Automatic top-up (issue 39, decision 045): when a user's credits fall below a threshold, a credit
 * pack is bought with their saved card, within a monthly cap. `GET` and `PUT /api/usage/top-up`.
 */

/** Most credits a threshold may name, and most a month's cap may be (minor units): far above any real use. */
export const MAX_TOP_UP_THRESHOLD = 1_000_000_000;
export const MAX_TOP_UP_CAP = 100_000_000;

/**
 * What became of a top-up: `pending` while Stripe is asked; `paid` once the card was charged (its
 * credits land with Stripe's webhook), then `credited`; `capped` when the month's cap refused it;
 * `declined` or `authentication_required` when the card failed (top-up pauses); `failed` when
 * Stripe could not be reached or the pack is no longer on sale.
 */
export const TOP_UP_STATUSES = ['pending', 'paid', 'credited', 'capped', 'declined', 'authentication_required', 'failed'] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];

/** Why top-up is paused: the card was declined, its bank asks the holder to confirm, or no card is saved. */
export const TOP_UP_PAUSE_REASONS = ['card_declined', 'authentication_required', 'no_saved_card'] as const;
export type TopUpPauseReason = (typeof TOP_UP_PAUSE_REASONS)[number];

export const TOP_UP_ERRORS = {
  noSavedCard: 'no_saved_card',
  unknownPack: 'unknown_pack',
  capBelowPack: 'cap_below_pack',
} as const;

export const TOP_UP_MESSAGES = {
  noSavedCard: 'Automatic top-up pays with the card you saved when you bought credits. Buy a credit pack once first, then turn it on.',
  noSavedCardOrg:
    'Automatic top-up pays with the card saved when the studio bought credits. Buy a credit pack for the shared pool once first, then turn it on.',
  unknownPack: 'Choose one of the credit packs on sale.',
  capBelowPack: 'The monthly cap must be at least the price of one pack.',
} as const;

const whole = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max.toLocaleString('en')}`);

/** `PUT /api/usage/top-up`: on or off, when, what, and how much a month at most. */
export const topUpSettingsSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  /** Credits: a use that takes the balance under this sets off a top-up. */
  threshold: whole('threshold', 1, MAX_TOP_UP_THRESHOLD),
  /** The credit pack's one-time price. */
  priceId: z
    .string({ error: 'priceId is required' })
    .trim()
    .min(1, 'priceId is required')
    .max(255, 'priceId is too long')
    .regex(/^[A-Za-z0-9_]+$/, 'priceId is not valid'),
  /** The most a UTC calendar month's top-ups may cost, in minor units of the pack's currency. */
  monthlyCap: whole('monthlyCap', 1, MAX_TOP_UP_CAP),
});
export type TopUpSettings = z.infer<typeof topUpSettingsSchema>;

/** A credit pack top-up may buy: an active one-time price whose product adds a whole number of credits. */
export const topUpPackSchema = z.object({
  priceId: z.string(),
  name: z.string(),
  credits: z.number().int(),
  /** Minor units of `currency`. */
  amount: z.number().int(),
  currency: z.string(),
});
export type TopUpPack = z.infer<typeof topUpPackSchema>;

/** One top-up, as the dashboard tells it. */
export const topUpRecordSchema = z.object({
  /** ISO 8601. */
  at: z.string(),
  status: z.enum(TOP_UP_STATUSES),
  credits: z.number().int(),
  amount: z.number().int(),
  currency: z.string(),
});
export type TopUpRecord = z.infer<typeof topUpRecordSchema>;

/** `GET /api/usage/top-up` (and `PUT`'s answer): the settings, whether it is paused, and this month's top-ups. */
export const topUpSchema = z.object({
  /** Null until the user first saves them. */
  settings: topUpSettingsSchema.nullable(),
  /** Set while top-up is paused (until the user turns it on again). */
  paused: z.object({ at: z.string(), reason: z.enum(TOP_UP_PAUSE_REASONS) }).nullable(),
  /** What this UTC month's top-ups cost so far, in the settings' currency (what the cap counts). */
  thisMonth: z.object({ spent: z.number().int(), currency: z.string() }).nullable(),
  /** The newest top-up, if any. */
  last: topUpRecordSchema.nullable(),
  /** Whether a card is saved for payments without the user (turning top-up on needs one). */
  savedCard: z.boolean(),
  /** The packs on sale that top-up may buy, cheapest first. */
  packs: z.array(topUpPackSchema),
});
export type TopUp = z.infer<typeof topUpSchema>;
