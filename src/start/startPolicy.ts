import type { BootData } from '../../contract/boot';
import type { PageInfo } from '../../contract/pages';

/** When the browser starts the app on the page it opened (decision 010). */
export type StartPolicy = 'now' | 'on-interaction';

/**
 * A page the server renders is complete without the app: its links and downloads work as they
 * are. For a signed-out visitor the app loads only when they first reach for a control, so a first
 * visit downloads and runs no framework code. The app starts at once on the other pages, when a
 * session may need the navigation bar to show the user, and when analytics records the visit as
 * it happens.
 */
export function startPolicy(page: Pick<PageInfo, 'prerender'>, boot: BootData): StartPolicy {
  if (page.prerender !== true) return 'now';
  if (boot.signedOut !== true) return 'now';
  if (boot.config.analytics) return 'now';
  return 'on-interaction';
}
