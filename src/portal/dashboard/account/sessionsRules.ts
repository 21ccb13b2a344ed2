import type { AccountSession, PluginInstall } from '../../../../contract/accountSessions';

/** What the server says of a browser or OS its user agent does not name. */
const UNKNOWN = 'Unknown';

/** A session as the list names it: "Chrome on Windows", "Chrome", "A browser on Linux", "Unknown browser". */
export function sessionName({ browser, os }: Pick<AccountSession, 'browser' | 'os'>): string {
  if (browser === UNKNOWN) return os === UNKNOWN ? 'Unknown browser' : `A browser on ${os}`;
  return os === UNKNOWN ? browser : `${browser} on ${os}`;
}

/** A plugin install as the list names it, from the versions it said at sign-in. */
export function installName({ engineVersion, pluginVersion }: Pick<PluginInstall, 'engineVersion' | 'pluginVersion'>): string {
  const plugin = pluginVersion ? `Sage plugin ${pluginVersion}` : 'Sage plugin';
  return engineVersion ? `${plugin} in Unreal Engine ${engineVersion}` : plugin;
}

/** The network a session signed in from, or that it is not known (sessions from before it was kept). */
export const networkText = (ipNetwork: string | null): string => ipNetwork ?? 'Not known';

/** "1 other session", "3 other sessions". */
export const otherSessions = (count: number): string => `${count} other session${count === 1 ? '' : 's'}`;
