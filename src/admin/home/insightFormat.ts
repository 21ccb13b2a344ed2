import { formatDay } from '../../ui/format';

/** How the Home's charts write their figures (English, as the console is). */

const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

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
