const utcDay = new Intl.DateTimeFormat('en', { month: 'short', day: '2-digit', year: 'numeric', timeZone: 'UTC' });

/**
 * `Mar 05, 2025`, as `formatDate` (./format.ts) writes a date, for the UTC day of an ISO instant: a
 * pre-rendered page's date (a build's release day) then reads the same on the server and in every
 * browser, so hydration matches. Kept apart from ./format.ts and without date-fns: the download
 * page's JavaScript budget (issue 11) has no room for the library.
 */
export const formatUtcDate = (iso: string): string => utcDay.format(new Date(iso));
