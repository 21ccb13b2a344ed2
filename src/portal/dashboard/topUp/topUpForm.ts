import { z } from 'zod';
import { MAX_TOP_UP_CAP, MAX_TOP_UP_THRESHOLD, type TopUp, type TopUpPack, type TopUpSettings } from '../../../../contract/topUp';
import { formatMoney, minorUnitDigits, toMajorUnits, toMinorUnits } from '../../../ui/format';

/** The automatic top-up form's fields as typed: the cap in the pack's money (`30`, `29.99`), not minor units. */
export interface TopUpFormValues {
  enabled: boolean;
  threshold: string;
  priceId: string;
  monthlyCap: string;
}

/** What a new user's form offers: a threshold of 100 credits, the cheapest pack, a cap of three of them. */
export const DEFAULT_THRESHOLD = 100;
export const DEFAULT_PACKS_PER_MONTH = 3;

/** An amount in minor units as the cap field shows it: `29.99`, `1500` (yen), no symbol. */
export const capText = (minorUnits: number, currency: string): string =>
  toMajorUnits(minorUnits, currency).toFixed(minorUnitDigits(currency));

/** The form's values from what the server has (or the defaults when nothing is saved yet). */
export function formValuesOf(view: TopUp): TopUpFormValues {
  const saved = view.settings;
  const pack = view.packs.find((p) => p.priceId === saved?.priceId) ?? view.packs[0];
  const cap = saved?.monthlyCap ?? (pack ? pack.amount * DEFAULT_PACKS_PER_MONTH : 0);
  return {
    enabled: saved?.enabled ?? false,
    threshold: String(saved?.threshold ?? DEFAULT_THRESHOLD),
    priceId: pack?.priceId ?? '',
    monthlyCap: pack ? capText(cap, pack.currency) : '',
  };
}

/** A pack as the form's list names it: `500 queries: 500 credits for $9.99`. */
export const packLabel = (pack: TopUpPack): string =>
  `${pack.name}: ${pack.credits.toLocaleString('en')} credits for ${formatMoney(pack.amount, pack.currency)}`;

/**
 * The form's rules, the server's (contract/topUp.ts) in the form's words: a whole number of credits,
 * a pack on sale, and a cap in the pack's money of at least its price. Parses to the settings `PUT` takes.
 */
export function topUpFormSchema(packs: readonly TopUpPack[]) {
  return z
    .object({
      enabled: z.boolean(),
      threshold: z
        .string()
        .trim()
        .regex(/^\d+$/, 'Enter the credits as a whole number')
        .transform(Number)
        .pipe(
          z
            .number()
            .min(1, 'Top up when credits fall below 1 or more')
            .max(MAX_TOP_UP_THRESHOLD, `The threshold can be at most ${MAX_TOP_UP_THRESHOLD.toLocaleString('en')} credits`),
        ),
      priceId: z.string().refine((id) => packs.some((p) => p.priceId === id), 'Choose a credit pack'),
      monthlyCap: z.string().trim(),
    })
    .transform((values, ctx): TopUpSettings => {
      const pack = packs.find((p) => p.priceId === values.priceId);
      const digits = pack ? minorUnitDigits(pack.currency) : 2;
      const money = digits > 0 ? new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`) : /^\d+$/;
      let monthlyCap = NaN;
      if (!money.test(values.monthlyCap)) {
        ctx.addIssue({ code: 'custom', path: ['monthlyCap'], message: 'Enter the monthly cap as an amount of money, such as 30 or 29.99' });
      } else if (pack) {
        monthlyCap = toMinorUnits(Number(values.monthlyCap), pack.currency);
        if (monthlyCap < pack.amount)
          ctx.addIssue({
            code: 'custom',
            path: ['monthlyCap'],
            message: `The monthly cap must be at least ${formatMoney(pack.amount, pack.currency)}, the price of one pack`,
          });
        else if (monthlyCap > MAX_TOP_UP_CAP)
          ctx.addIssue({
            code: 'custom',
            path: ['monthlyCap'],
            message: `The monthly cap can be at most ${formatMoney(MAX_TOP_UP_CAP, pack.currency)}`,
          });
      }
      return { enabled: values.enabled, threshold: values.threshold, priceId: values.priceId, monthlyCap };
    });
}
