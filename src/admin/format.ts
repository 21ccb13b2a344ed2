import { format, isValid, parseISO } from 'date-fns';

/** An ISO time as the console shows it, e.g. `Mar 05, 2026 14:03`; anything else as it came. */
export function formatDateTime(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'MMM dd, yyyy HH:mm') : iso;
}
