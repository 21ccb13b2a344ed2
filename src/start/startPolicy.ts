import type { BootData } from '../../contract/boot';
import { EMAIL_CHANGE_PARAM } from '../../contract/emailChangeParam';
import type { PageInfo } from '../../contract/pages';

/** When the browser starts the app on the page it opened (decision 010). */
export type StartPolicy = 'now' | 'on-interaction';

/**
 * A page the server renders is complete without the app: its links and downloads work as they
 * are. For a signed-out visitor the app loads only when they first reach for a control, so a first
 * visit downloads and runs no framework code. The app starts at once on the other pages, when a
 * session may need the navigation bar to show the user, and when analytics records the visit as
 * it happens, and when the page was opened to say how an e-mail change link went.
 */
export function startPolicy(page: Pick<PageInfo, 'prerender'>, boot: BootData, query = new URLSearchParams()): StartPolicy {
  if (page.prerender !== true) return 'now';
  // The e-mail change link's outcome, which only the app says (the server renders the page without it).
  if (query.has(EMAIL_CHANGE_PARAM)) return 'now';
  if (boot.signedOut !== true) return 'now';
  if (boot.config.analytics) return 'now';
  return 'on-interaction';
}
