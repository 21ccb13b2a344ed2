import type { BootData } from './boot';
import { EMAIL_CHANGE_PARAM } from './emailChangeParam';
import type { PageInfo } from './pages';

/** The query of the page's URL, as far as this rule reads it (URLSearchParams is one). */
export interface StartQuery {
  has(name: string): boolean;
}

const NO_QUERY: StartQuery = { has: () => false };

/**
 * When the browser starts the app on the page it opened (decision 010): at once, or on the
 * visitor's first interaction (a touch, a click, a key, a focus).
 */
export type StartPolicy = 'now' | 'on-interaction';

/**
 * A page the server renders is complete without the app: its links and downloads work as they
 * are. For a signed-out visitor the app loads only when they first reach for a control, so a first
 * visit downloads and runs no framework code. The app starts at once on the other pages, when a
 * session may need the navigation bar to show the user, and when analytics records the visit as
 * it happens, and when the page was opened to say how an e-mail change link went.
 * The console's Home starts at once like every signed-in page: it holds no react-admin (decision
 * 035), so running it is cheap, and its charts are in the server's markup.
 */
export function startPolicy(page: Pick<PageInfo, 'prerender'>, boot: BootData, query: StartQuery = NO_QUERY): StartPolicy {
  if (page.prerender !== true) return 'now';
  // The e-mail change link's outcome, which only the app says (the server renders the page without it).
  if (query.has(EMAIL_CHANGE_PARAM)) return 'now';
  if (boot.config.analytics) return 'now';
  if (boot.signedOut !== true) return 'now';
  return 'on-interaction';
}
