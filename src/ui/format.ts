import { format, isValid, parseISO } from 'date-fns';

/**
 * How every screen writes money, counts and dates (English, as the product is): one place, so the
 * same figure reads the same on every page.
 */

/** `Intl`'s currency format, or null for a code that is not ISO 4217. */
function currencyFormat(currency: string): Intl.NumberFormat | null {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() });
  } catch {
    return null;
  }
}

/**
 * The currency's minor-unit exponent per ISO 4217: 0 for JPY or KRW, 2 for USD or EUR, 3 for KWD or
 * BHD; 2 for a code `Intl` does not know (the common case, and what `Intl` assumes too).
 */
export const minorUnitDigits = (currency: string): number => currencyFormat(currency)?.resolvedOptions().maximumFractionDigits ?? 2;

/** 4733 usd → 47.33; 500 jpy → 500; 1500 kwd → 1.5 (Stripe's minor units in the currency's major units). */
export const toMajorUnits = (minorUnits: number, currency: string): number => minorUnits / 10 ** minorUnitDigits(currency);

/** 47.33 usd → 4733; 500 jpy → 500 (an amount typed in major units, as Stripe counts it). */
export const toMinorUnits = (majorUnits: number, currency: string): number => Math.round(majorUnits * 10 ** minorUnitDigits(currency));

/** An amount in a currency's minor units as money: 1500 usd → `$15.00`, 1500 jpy → `¥1,500`, 1500 kwd → `KWD 1.500`. */
export function formatMoney(minorUnits: number, currency: string): string {
  const major = toMajorUnits(minorUnits, currency);
  // A code Intl does not know: still the number, and what it is counted in.
  return currencyFormat(currency)?.format(major) ?? `${major.toFixed(minorUnitDigits(currency))} ${currency.toUpperCase()}`;
}

const whole = new Intl.NumberFormat('en');
/** A count as every screen writes it: `1,500`. */
export const formatCount = (value: number): string => whole.format(value);

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
/** A chart's axis ticks: `40K` rather than `40,000`, which does not fit beside the axis. */
export const formatTick = (value: number): string => compact.format(value);

/** An ISO 8601 instant or a Date; shown in the reader's time zone. */
type Instant = string | Date;
const toDate = (at: Instant): Date => (typeof at === 'string' ? parseISO(at) : at);

/** `Nov 3` for the UTC day `2026-11-03` (a calendar date, the same in every time zone). */
export const formatDay = (day: string): string => format(parseISO(day), 'MMM d');

/** `Mar 05, 2025`: the subscription card's and the invoices' dates (§2). */
export const formatDate = (at: Instant): string => format(toDate(at), 'MMM dd, yyyy');

/** `March 05, 2025`: a date inside a sentence (the trial banner, the usage period). */
export const formatLongDate = (at: Instant): string => format(toDate(at), 'MMMM dd, yyyy');

/** `Nov 26, 2026, 14:05`: a moment in the portal's sentences and lists (sessions, a pending e-mail change). */
export const formatMoment = (at: Instant): string => format(toDate(at), 'MMM d, yyyy, HH:mm');

/** `14:05`: a time later today, in a sentence ("until 14:05"). */
export const formatTime = (at: Instant): string => format(toDate(at), 'HH:mm');

/** `Mar 05, 2026 14:03`: a moment in the console's tables; anything that is not an ISO time as it came. */
export function formatDateTime(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'MMM dd, yyyy HH:mm') : iso;
}
