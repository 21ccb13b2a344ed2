import { format, parseISO } from 'date-fns';

/** How the Home's charts write their figures (English, as the console is). */

const whole = new Intl.NumberFormat('en');
const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

export const formatCount = (value: number): string => whole.format(value);

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
/** Axis ticks: `40K` rather than `40,000`, which does not fit beside the axis. */
export const formatTick = (value: number): string => compact.format(value);

/** `Nov 3` for the UTC day `2026-11-03` (a calendar date, the same in every time zone). */
export const formatDay = (day: string): string => format(parseISO(day), 'MMM d');

/** `Nov 1` for the first day of the UTC month `at` (an ISO 8601 instant) falls in. */
export const formatMonthStart = (at: string): string => formatDay(`${at.slice(0, 7)}-01`);

/** Converted of ended as a percentage; null when no trial ended (no rate to speak of). */
export function conversionRate(converted: number, ended: number): string | null {
  return ended === 0 ? null : percent.format(converted / ended);
}

/** `past_due` → `Past due`: Stripe's status in words. */
export const statusLabel = (status: string): string => {
  const words = status.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const total = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0);
