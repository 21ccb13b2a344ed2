import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatDay,
  formatLongDate,
  formatMoment,
  formatMoney,
  formatTime,
  formatTick,
  toMajorUnits,
  toMinorUnits,
} from '../../src/ui/format';

// Intl puts a no-break space between a code and the number (KWD 1.500), so a price never wraps.
describe('money in the currency’s own minor units (ISO 4217)', () => {
  it.each<[number, string, string]>([
    [1500, 'usd', '$15.00'],
    [999, 'usd', '$9.99'],
    [123456, 'usd', '$1,234.56'],
    [2500, 'eur', '€25.00'],
    [999, 'gbp', '£9.99'],
    [4733, 'chf', 'CHF\u00a047.33'],
    [1500, 'jpy', '¥1,500'],
    [1500, 'krw', '₩1,500'],
    [1500, 'kwd', 'KWD\u00a01.500'],
    [12345, 'bhd', 'BHD\u00a012.345'],
    [0, 'usd', '$0.00'],
    [0, 'jpy', '¥0'],
    [-1500, 'usd', '-$15.00'],
    [-1500, 'jpy', '-¥1,500'],
    [1050, 'x1', '10.50 X1'],
  ])('%i %s → %s', (minorUnits, currency, expected) => {
    expect(formatMoney(minorUnits, currency)).toBe(expected);
  });

  it.each<[number, string, number]>([
    [4733, 'usd', 47.33],
    [500, 'jpy', 500],
    [1500, 'kwd', 1.5],
  ])('%i %s is %d in major units (what the charts plot)', (minorUnits, currency, expected) => {
    expect(toMajorUnits(minorUnits, currency)).toBe(expected);
  });

  it.each<[number, string, number]>([
    [47.33, 'usd', 4733],
    [0.1 + 0.2, 'usd', 30],
    [500, 'jpy', 500],
    [1.5, 'kwd', 1500],
  ])('%d %s is %i in minor units (what a form sends Stripe)', (majorUnits, currency, expected) => {
    expect(toMinorUnits(majorUnits, currency)).toBe(expected);
  });
});

describe('counts', () => {
  it.each<[number, string, string]>([
    [0, '0', '0'],
    [1500, '1,500', '1.5K'],
    [-42, '-42', '-42'],
    [40000, '40,000', '40K'],
  ])('%i → %s, on an axis %s', (value, count, tick) => {
    expect(formatCount(value)).toBe(count);
    expect(formatTick(value)).toBe(tick);
  });
});

describe('dates, in the reader’s time zone', () => {
  const moment = new Date(2025, 2, 5, 14, 3); // local 5 March 2025, 14:03
  it.each<[string, (at: Date | string) => string, string]>([
    ['card and invoices', formatDate, 'Mar 05, 2025'],
    ['in a sentence', formatLongDate, 'March 05, 2025'],
    ['a portal moment', formatMoment, 'Mar 5, 2025, 14:03'],
  ])('%s: %s', (_where, formatter, expected) => {
    expect(formatter(moment)).toBe(expected);
    expect(formatter(moment.toISOString())).toBe(expected);
  });

  it('writes a UTC day as it is, and a console time or what was not a time', () => {
    expect(formatDay('2026-11-03')).toBe('Nov 3');
    expect(formatDateTime(moment.toISOString())).toBe('Mar 05, 2025 14:03');
    expect(formatDateTime('not a time')).toBe('not a time');
    expect(formatTime(moment)).toBe('14:03');
  });
});
