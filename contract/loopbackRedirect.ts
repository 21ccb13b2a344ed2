/**
 * Product §5: the plugin's redirect must be a loopback address over http (RFC 8252 §7.3):
 * `http://localhost:PORT/…` or `http://127.0.0.1:PORT/…` with an explicit port, no user info and no
 * fragment. Shared by the server (which refuses anything else) and the /ue-test page.
 */
export type LoopbackRedirectCheck = { ok: true; url: URL } | { ok: false; reason: string };

export const LOOPBACK_RULE =
  'A UE loopback redirect must be localhost or 127.0.0.1 over http, with a port: http://localhost:PORT/… or http://127.0.0.1:PORT/…';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);
const MAX_LENGTH = 2048;

export function checkLoopbackRedirect(raw: string): LoopbackRedirectCheck {
  if (raw.length === 0) return { ok: false, reason: 'The redirect address is missing.' };
  if (raw.length > MAX_LENGTH) return { ok: false, reason: 'The redirect address is too long.' };
  // Whitespace, controls and backslashes are repaired silently by URL parsers: refuse them instead.
  if (/[\s\\]/.test(raw) || [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return { ok: false, reason: 'The redirect address contains characters that are not allowed.' };
  if (raw.includes('#')) return { ok: false, reason: 'The redirect address must not have a fragment.' };
  if (!/^http:\/\//i.test(raw)) return { ok: false, reason: 'The redirect address must use http.' };
  const authority = raw.slice('http://'.length).split(/[/?]/, 1)[0] ?? '';
  if (authority.includes('@')) return { ok: false, reason: 'The redirect address must not contain user information.' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'The redirect address is not a valid URL.' };
  }
  if (!LOOPBACK_HOSTS.has(url.hostname)) return { ok: false, reason: 'The redirect address must be localhost or 127.0.0.1.' };
  // URL drops a port equal to the scheme's default, so an explicit ":80" reads as no port too.
  if (!/:\d{1,5}$/.test(authority) || url.port === '') return { ok: false, reason: 'The redirect address must name a port.' };
  const port = Number(url.port);
  if (port < 1 || port > 65535) return { ok: false, reason: 'The redirect address must name a port.' };
  return { ok: true, url };
}
