import type { BootData } from './boot';
import { EMAIL_CHANGE_PARAM } from './emailChangeParam';
import type { PageInfo } from './pages';

/** The query of the page's URL, as far as this rule reads it (URLSearchParams is one). */
export interface StartQuery {
  has(name: string): boolean;
}

const NO_QUERY: StartQuery = { has: () => false };

/**
 * When the browser starts the app on the page it opened (decisions 010, 032 and 033): at once, on
 * the visitor's first interaction (a touch, a click, a key, a focus), or as soon as they approach
 * the page (those, or the pointer moving over it, or a wheel).
 */
export type StartPolicy = 'now' | 'on-interaction' | 'on-approach';

/**
 * A page the server renders is complete without the app: its links and downloads work as they
 * are. For a signed-out visitor the app loads only when they first reach for a control, so a first
 * visit downloads and runs no framework code. The app starts at once on the other pages, when a
 * session may need the navigation bar to show the user, and when analytics records the visit as
 * it happens, and when the page was opened to say how an e-mail change link went.
 *
 * The console's Home waits until the admin approaches it (decisions 032 and 033): the server
 * sends it whole, its figures included, and starting react-admin's console kept the main thread
 * busy for a second and more on a phone, 150-250 ms on a laptop, while the admin read it. On a
 * laptop the pointer moving over the page starts it; a phone has no pointer until the first
 * touch. The server has the browser fetch the console's code in the background meanwhile, so that
 * moment only runs it. Both apply this rule; the server takes its guess of the screen to fit. When
 * it does not (`layoutFits` false: a narrow window on a laptop), the console starts at once, to lay
 * the page out for the screen it is on.
 */
export function startPolicy(
  page: Pick<PageInfo, 'prerender'>,
  boot: BootData,
  query: StartQuery = NO_QUERY,
  layoutFits = true,
): StartPolicy {
  if (page.prerender !== true) return 'now';
  // The e-mail change link's outcome, which only the app says (the server renders the page without it).
  if (query.has(EMAIL_CHANGE_PARAM)) return 'now';
  if (boot.config.analytics) return 'now';
  // The figures are the Home's alone: the server renders them only on the console's Home.
  if (boot.consoleHome) return layoutFits ? 'on-approach' : 'now';
  if (boot.signedOut !== true) return 'now';
  return 'on-interaction';
}
