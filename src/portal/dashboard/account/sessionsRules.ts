import type { AccountSession, InstallUpdate, PluginInstall } from '../../../../contract/accountSessions';

/** What the server says of a browser or OS its user agent does not name. */
const UNKNOWN = 'Unknown';

/** A session as the list names it: "Chrome on Windows", "Chrome", "A browser on Linux", "Unknown browser". */
export function sessionName({ browser, os }: Pick<AccountSession, 'browser' | 'os'>): string {
  if (browser === UNKNOWN) return os === UNKNOWN ? 'Unknown browser' : `A browser on ${os}`;
  return os === UNKNOWN ? browser : `${browser} on ${os}`;
}

/** A plugin install as the list names it, from the versions it said at sign-in: "Sage 1.3.0 · Unreal Engine 5.4.2". */
export function installName({ engineVersion, pluginVersion }: Pick<PluginInstall, 'engineVersion' | 'pluginVersion'>): string {
  const plugin = pluginVersion ? `Sage ${pluginVersion}` : 'Sage plugin';
  return engineVersion ? `${plugin} · Unreal Engine ${engineVersion}` : plugin;
}

/** How an install's build is marked (issue 41): what it says, how loudly, and the build to download, if any. */
export interface InstallUpdateMark {
  text: string;
  tone: 'success' | 'warning' | 'error';
  download: { label: string; href: string } | null;
}

/**
 * The mark of an install's build: "Up to date"; "Update available" (or "Update required" when a
 * required build is newer); "Withdrawn build — update required". None when the server cannot tell
 * (no versions said, or no build ships for its engine).
 */
export function installUpdateMark({ status, latestVersion, downloadUrl, required }: InstallUpdate): InstallUpdateMark | null {
  const download = latestVersion && downloadUrl ? { label: `Download ${latestVersion}`, href: downloadUrl } : null;
  if (status === 'current') return { text: 'Up to date', tone: 'success', download: null };
  if (status === 'out_of_date')
    return { text: required ? 'Update required' : 'Update available', tone: required ? 'error' : 'warning', download };
  if (status === 'withdrawn') return { text: 'Withdrawn build — update required', tone: 'error', download };
  return null;
}

/** The network a session signed in from, or that it is not known (sessions from before it was kept). */
export const networkText = (ipNetwork: string | null): string => ipNetwork ?? 'Not known';

/** "1 other session", "3 other sessions". */
export const otherSessions = (count: number): string => `${count} other session${count === 1 ? '' : 's'}`;
