import type { GroveMetrics } from './admin';
import type { PublicRelease, SageBuild } from './builds';
import type { RuntimeConfig } from './config';
import type { InsightRange, Insights } from './insights';
import type { CurrentUser } from './user';

/** The console's Home as the server read it for the page (issue 28): Grove Users and the default range's insights. */
export interface ConsoleHome {
  groveMetrics: GroveMetrics;
  /** The range (in days) `insights` covers. */
  range: InsightRange;
  insights: Insights;
}

/**
 * What the server writes into every page it serves, as JSON in the `#root` element's
 * `data-boot` attribute (an attribute, not an inline script: the CSP allows none), so the
 * browser starts without asking for its configuration, and a pre-rendered page hydrates with
 * the data it was rendered from.
 */
export interface BootData {
  config: RuntimeConfig;
  /** The build the download page was rendered with. */
  currentBuild?: SageBuild;
  /** With it, every build offered (newest first): the current build's notes and "Earlier builds" (issue 41). */
  releases?: PublicRelease[];
  /**
   * Who the page is for, so the browser need not ask `GET /api/user`: the signed-in user, or
   * `signedOut` when the request carried no valid session. Pages the server serves set one of
   * the two; neither is set only where nobody asked (the Vite dev server's index.html).
   */
  currentUser?: CurrentUser;
  signedOut?: true;
  /** On the console's Home (/admin): its figures, so the page shows them before its JavaScript runs. */
  consoleHome?: ConsoleHome;
}

export const BOOT_ATTRIBUTE = 'data-boot';
