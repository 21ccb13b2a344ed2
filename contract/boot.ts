import type { SageBuild } from './builds';
import type { RuntimeConfig } from './config';

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
  /** The request carried no session cookie: the visitor is signed out, no need to ask `GET /api/user`. */
  signedOut?: true;
}

export const BOOT_ATTRIBUTE = 'data-boot';
