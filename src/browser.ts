/**
 * What the portal and the admin console ask of the browser window itself, in a module of its own
 * so screen tests can observe it (jsdom cannot navigate away, close a tab or save a file).
 */

/** Leaves the SPA for a server URL (Epic sign-in, the internal callback) or the plugin's loopback. */
export function assignLocation(url: string): void {
  window.location.assign(url);
}

/** Closes this tab; browsers ignore it for tabs a script did not open, so callers say so too. */
export function closeWindow(): void {
  window.close();
}

/** Saves a file the page fetched (a license, the users CSV, a message export) under `filename`. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after the click returns; it is dropped a little later.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
