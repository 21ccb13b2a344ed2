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
const minorUnitDigits = (currency: string): number => currencyFormat(currency)?.resolvedOptions().maximumFractionDigits ?? 2;

/** 4733 usd → 47.33; 500 jpy → 500; 1500 kwd → 1.5 (Stripe's minor units in the currency's major units). */
export const toMajorUnits = (minorUnits: number, currency: string): number => minorUnits / 10 ** minorUnitDigits(currency);

/** An amount in a currency's minor units as money: 1500 usd → `$15.00`, 1500 jpy → `¥1,500`, 1500 kwd → `KWD 1.500`. */
export function formatMoney(minorUnits: number, currency: string): string {
  const major = toMajorUnits(minorUnits, currency);
  // A code Intl does not know: still the number, and what it is counted in.
  return currencyFormat(currency)?.format(major) ?? `${major.toFixed(minorUnitDigits(currency))} ${currency.toUpperCase()}`;
}
