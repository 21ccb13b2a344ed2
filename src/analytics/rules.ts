/**
 * The analytics rules (product §3, §6, §7), free of posthog-js and of the DOM: which events exist,
 * where nothing is tracked, who is excluded, which properties every event carries and what is
 * scrubbed out of them. `src/analytics/index.ts` applies them.
 */
import type { AnalyticsLocation } from '../../contract/analytics';

/** §7: the event names, exactly. */
export const ANALYTICS_EVENTS = [
  'Page View',
  'Button Click',
  'Dashboard Action',
  'Project Action',
  'File Action',
  'Time on Page',
  'User Login',
  'User Logout',
  'File Download',
  'Extension Download',
  'Documentation View',
  'License Download',
] as const;
export type AnalyticsEvent = (typeof ANALYTICS_EVENTS)[number];

export type PropertyValue = string | number | boolean | null | undefined;
export type EventProperties = Record<string, PropertyValue>;

/** Time on Page is sent only for visits that lasted longer than this. */
export const TIME_ON_PAGE_MIN_MS = 3000;

/** §6: nothing is tracked on a page whose path contains `admin`, in any case. */
export function isAdminPath(pathname: string): boolean {
  return pathname.toLowerCase().includes('admin');
}

/** Time on Page: only visits longer than 3 s count. */
export function shouldTrackTimeOnPage(durationMs: number): boolean {
  return Number.isFinite(durationMs) && durationMs > TIME_ON_PAGE_MIN_MS;
}

/** §6: login tracking is skipped for the configured user ids. */
export function isExcludedUser(userId: string | null | undefined, excludedUserIds: readonly string[]): boolean {
  if (!userId) return false;
  return excludedUserIds.includes(userId.trim());
}

/** Do Not Track or Global Privacy Control: the visitor asked not to be tracked. */
export function privacySignalSet(
  nav: { doNotTrack?: string | null; globalPrivacyControl?: boolean; msDoNotTrack?: string | null },
  win?: { doNotTrack?: string | null },
): boolean {
  const dnt = [nav.doNotTrack, nav.msDoNotTrack, win?.doNotTrack];
  return nav.globalPrivacyControl === true || dnt.some((v) => v === '1' || v === 'yes');
}

/** Keys whose values never leave the browser: passwords, tokens, codes, e-mail bodies. */
const SECRET_KEY =
  /pass(word)?|token|secret|code|verifier|state|authorization|cookie|session_?key|api_?key|body|message_?content|^content$|^html$|^text$/i;
/** Keys that look secret but are ours and safe. */
const SAFE_KEYS = new Set(['session_id', 'country_code', 'error_message', 'status_code']);
/** Query parameters removed from URLs and referrers. */
const SECRET_PARAM = /pass|token|secret|code|verifier|state|session|key|email|auth/i;

export function isSecretKey(key: string): boolean {
  return !SAFE_KEYS.has(key) && SECRET_KEY.test(key);
}

/** A URL or referrer without the query values that could carry secrets (reset tokens, OAuth codes). */
export function scrubUrl(url: string): string {
  if (!url) return url;
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://placeholder.invalid');
  } catch {
    return '';
  }
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAM.test(key)) parsed.searchParams.set(key, '[redacted]');
  }
  parsed.hash = '';
  const relative = !/^[a-z][a-z0-9+.-]*:/i.test(url);
  return relative ? `${parsed.pathname}${parsed.search}` : parsed.toString();
}

const JWT_LIKE = /\beyJ[\w-]+\.[\w-]+\.[\w-]+/g;
const LONG_HEX_OR_B64 = /\b[A-Za-z0-9_-]{32,}\b/g;

/** A free-text value (error messages) with anything token-shaped replaced. */
export function scrubText(text: string): string {
  return text.replace(JWT_LIKE, '[redacted]').replace(LONG_HEX_OR_B64, '[redacted]');
}

/** Drops secret-looking keys and scrubs URL-ish and free-text values. */
export function scrubProperties(props: EventProperties): EventProperties {
  const out: EventProperties = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    if (isSecretKey(key)) continue;
    if (typeof value === 'string') {
      out[key] = /url|referrer|href/i.test(key) ? scrubUrl(value) : scrubText(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

export type UserType = 'anonymous' | 'user' | 'admin';

export function userTypeOf(user: { isAdmin: boolean } | null | undefined): UserType {
  if (!user) return 'anonymous';
  return user.isAdmin ? 'admin' : 'user';
}

/** §3 Analytics event: the location fields, when an IP-location provider is configured. */
export type LocationFields = AnalyticsLocation;

export interface PageContext {
  url: string;
  referrer: string;
  userAgent: string;
  platform: string;
  sessionId: string | null;
  userType: UserType;
  now: Date;
  location?: LocationFields | null;
}

/** §3: the properties every event carries, merged under the event's own (which cannot override them). */
export function buildProperties(event: AnalyticsEvent, own: EventProperties, ctx: PageContext): EventProperties {
  const base: EventProperties = {
    user_type: ctx.userType,
    platform: ctx.platform,
    url: ctx.url,
    referrer: ctx.referrer,
    user_agent: ctx.userAgent,
    session_id: ctx.sessionId,
    time: ctx.now.toISOString(),
    ...(ctx.location ?? {}),
  };
  return scrubProperties({ ...own, ...base, event_name: event });
}

/** Which platform the browser runs on, from its user agent (coarse: Windows, macOS, Linux, iOS, Android). */
export function platformOf(userAgent: string): string {
  if (/windows/i.test(userAgent)) return 'Windows';
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'iOS';
  if (/android/i.test(userAgent)) return 'Android';
  if (/mac os x|macintosh/i.test(userAgent)) return 'macOS';
  if (/cros/i.test(userAgent)) return 'ChromeOS';
  if (/linux/i.test(userAgent)) return 'Linux';
  return 'Other';
}

/** Measures one page visit; `stop` answers the visit to report, or null when it was 3 s or less. */
export function createPageTimer(now: () => number = Date.now) {
  let current: { path: string; startedAt: number } | null = null;
  return {
    start(path: string) {
      current = { path, startedAt: now() };
    },
    stop(): { path: string; durationMs: number } | null {
      if (!current) return null;
      const visit = { path: current.path, durationMs: now() - current.startedAt };
      current = null;
      return shouldTrackTimeOnPage(visit.durationMs) ? visit : null;
    },
  };
}

/**
 * Where the catalogue's events are sent from (docs/analytics.md). Project Action, File Action and
 * Extension Download describe what happens inside the Unreal plugin: the web dashboard has no
 * projects, files or extensions of its own, so it never sends them. License Download happens only
 * in the admin console, where nothing is tracked.
 */
export const EVENT_PLACES: Record<AnalyticsEvent, string | null> = {
  'Page View': 'every route change',
  'Button Click': 'navigation bar Login; Try Again on sign-in failure pages',
  'Dashboard Action': 'dashboard buttons (plans, billing portal, payment method, resume)',
  'Project Action': null,
  'File Action': null,
  'Time on Page': 'leaving a page after more than 3 s',
  'User Login': 'e-mail sign-in/registration success and failure; Epic sign-in success and failure; passkey sign-in success and failure',
  'User Logout': 'navigation bar Logout',
  'File Download': 'download page UE buttons',
  'Extension Download': null,
  'Documentation View': 'Installation Instructions link',
  'License Download': null,
};
