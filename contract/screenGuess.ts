/**
 * The screen a page is laid out for on the server, before the browser says its own (issue 28): the
 * console's layout depends on media queries (react-admin's sidebar is a drawer over the page on a
 * phone), and a server render for the wrong screen would move everything once the browser takes
 * over. Guessed from the request; a wrong guess costs one re-layout, never a wrong page.
 */
export type ScreenGuess = 'phone' | 'desktop';

/** The widths a guess stands for: a small phone's and a laptop's, in CSS pixels. */
export const SCREEN_WIDTHS: Readonly<Record<ScreenGuess, number>> = { phone: 360, desktop: 1280 };

/**
 * A phone when the browser says so: the `Sec-CH-UA-Mobile` client hint (`?1`, Chromium sends it
 * unasked), else the `Mobile` token phones' user agents carry (Android phones, iPhones; tablets
 * leave it out and get the desktop layout, which their width takes).
 */
export function screenGuessOf(userAgent: string | undefined, mobileHint: string | undefined): ScreenGuess {
  if (mobileHint !== undefined) return mobileHint.trim() === '?1' ? 'phone' : 'desktop';
  return /\bMobile\b|\biPhone\b/.test(userAgent ?? '') ? 'phone' : 'desktop';
}

const WIDTH_CONDITION = /^\(\s*(min|max)-width\s*:\s*([\d.]+)px\s*\)$/;

/**
 * Whether a media query of width conditions (`(min-width:600px) and (max-width:899.95px)`, as MUI's
 * breakpoints write them) holds at the guessed screen's width. Any other condition (orientation,
 * hover, prefers-…) is unknown on the server and does not hold.
 */
export function matchesScreen(query: string, screen: ScreenGuess): boolean {
  const width = SCREEN_WIDTHS[screen];
  const conditions = query
    .replace(/^@media\s*/, '')
    .split(/\s+and\s+/)
    .map((part) => part.trim())
    .filter((part) => part !== '' && part !== 'screen' && part !== 'all');
  if (conditions.length === 0) return false;
  return conditions.every((condition) => {
    const match = WIDTH_CONDITION.exec(condition);
    if (!match) return false;
    const limit = Number(match[2]);
    return match[1] === 'min' ? width >= limit : width <= limit;
  });
}

/**
 * The media query that decides the console's layout: below MUI's `sm` breakpoint (600 px) its
 * sidebar is a drawer over the page (MUI's `theme.breakpoints.down('sm')`).
 */
export const PHONE_LAYOUT_QUERY = '(max-width:599.95px)';

/**
 * Whether the page laid out for the guessed `screen` is the layout the browser's own screen takes,
 * `matchMedia` answering for it; true where the server did not guess. A wrong guess (a narrow
 * window on a laptop, a tablet taken for a desktop) is laid out again once the console runs.
 */
export function guessFits(screen: ScreenGuess | undefined, matchMedia: (query: string) => boolean): boolean {
  return screen === undefined || matchesScreen(PHONE_LAYOUT_QUERY, screen) === matchMedia(PHONE_LAYOUT_QUERY);
}
