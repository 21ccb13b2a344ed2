/** Epic sign-in is a full browser navigation to the server (§2), not a client-side route. */
export const EPIC_SIGN_IN_URL = '/api/auth/login?client=web';

/** Leaves the SPA for a server URL; a module of its own so screen tests can observe it. */
export function assignLocation(url: string): void {
  window.location.assign(url);
}
