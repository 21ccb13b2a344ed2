/**
 * What the portal asks of the browser window itself, in a module of its own so screen tests can
 * observe it (jsdom cannot navigate away or close a tab).
 */

/** Leaves the SPA for a server URL (Epic sign-in, the internal callback) or the plugin's loopback. */
export function assignLocation(url: string): void {
  window.location.assign(url);
}

/** Closes this tab; browsers ignore it for tabs a script did not open, so callers say so too. */
export function closeWindow(): void {
  window.close();
}
