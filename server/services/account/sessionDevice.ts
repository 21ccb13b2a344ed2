import { isIPv4, isIPv6 } from 'node:net';

/**
 * What a session shows of the device it is on (issue 27, "Where you're signed in"): browser and OS
 * from its user agent, and the address it signed in from shortened to its network. Pure rules,
 * table-tested in tests/unit/sessionDevice.test.ts.
 */

/** Longest user agent kept: real ones are under 300 characters; the rest is noise or abuse. */
export const USER_AGENT_MAX = 512;

export const UNKNOWN = 'Unknown';

export interface DeviceDescription {
  browser: string;
  os: string;
}

/** Most specific first: Edge and Opera also say Chrome and Safari; Chrome also says Safari. */
const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\//],
  ['Opera', /\b(?:OPR|OPiOS|OPT)\/|\bOpera\b/],
  ['Firefox', /\b(?:Firefox|FxiOS)\//],
  ['Chrome', /\b(?:Chrome|CriOS|Chromium|HeadlessChrome)\//],
  // Safari says its version as Version/…; an app's embedded web view says Safari/ without it.
  ['Safari', /\bVersion\/[\d.]+.*\bSafari\//],
];

/** iOS and Android before macOS and Linux: an iPhone says "like Mac OS X", Android says Linux. */
const SYSTEMS: [name: string, pattern: RegExp][] = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b|\bX11\b/],
];

const firstMatch = (list: [string, RegExp][], text: string) => list.find(([, pattern]) => pattern.test(text))?.[0] ?? UNKNOWN;

/** The browser and OS a user agent names; "Unknown" for what it does not say (or no user agent). */
export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  const text = userAgent ?? '';
  return { browser: firstMatch(BROWSERS, text), os: firstMatch(SYSTEMS, text) };
}

/** The user agent as stored: trimmed and cut at USER_AGENT_MAX; null when there is none. */
export function clipUserAgent(userAgent: string | undefined): string | null {
  const text = userAgent?.trim().slice(0, USER_AGENT_MAX);
  return text ? text : null;
}

/** The eight 16-bit groups of a valid IPv6 address (zone removed), an IPv4 tail folded in. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const hex = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return hex(head);
  const [before, after] = [hex(head), hex(tail)];
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** RFC 5952 text of eight groups: lower-case, no leading zeros, the longest run of 2+ zero groups as "::". */
function formatIpv6(groups: number[]): string {
  let [runStart, runLength] = [-1, 0];
  for (let i = 0; i < groups.length;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === 0) j++;
    if (j - i > runLength) [runStart, runLength] = [i, j - i];
    i = j;
  }
  const text = groups.map((g) => g.toString(16));
  if (runLength < 2) return text.join(':');
  return `${text.slice(0, runStart).join(':')}::${text.slice(runStart + runLength).join(':')}`;
}

/**
 * The network of a client address, which is all a session keeps of it: an IPv4 address's /24
 * (`203.0.113.0/24`), an IPv6 address's /48 (`2001:db8:1::/48`, a site's usual allocation). An
 * IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) is the IPv4 one. Null for anything else.
 */
export function ipNetwork(address: string | null | undefined): string | null {
  const ip = (address ?? '').trim();
  if (isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  const withoutZone = ip.split('%')[0] ?? '';
  if (!isIPv6(withoutZone)) return null;
  const groups = ipv6Groups(withoutZone);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.0/24`;
  }
  return `${formatIpv6([...groups.slice(0, 3), 0, 0, 0, 0, 0])}/48`;
}
