/**
 * The one door to product analytics. Screens call `track`, `identify` and `reset`; posthog-js is
 * loaded (a dynamic import, its own chunk) only when the server's runtime config turns analytics
 * on, the visitor has not asked not to be tracked (DNT / GPC) and a trackable page was seen.
 * Nothing is ever sent from a page whose path contains `admin`.
 */
import type { PostHog } from 'posthog-js';
import { fetchAnalyticsLocation } from '../api/analytics';
import type { RuntimeConfig } from '../../contract/config';
import {
  buildProperties,
  isAdminPath,
  isExcludedUser,
  platformOf,
  privacySignalSet,
  userTypeOf,
  type AnalyticsEvent,
  type EventProperties,
  type LocationFields,
  type UserType,
} from './rules';

export { ANALYTICS_EVENTS, type AnalyticsEvent, type EventProperties } from './rules';

type AnalyticsSettings = NonNullable<RuntimeConfig['analytics']>;

/** §9-derived delivery settings (docs/analytics.md maps each to its posthog-js option). */
export const DELIVERY = {
  cookieExpirationDays: 365,
  sessionIdleTimeoutSeconds: 30 * 60,
  flushIntervalMs: 3000,
} as const;

const LOCATION_STORAGE_KEY = 'sage.analytics.location';

let settings: AnalyticsSettings | null = null;
let client: Promise<PostHog | null> | null = null;
let userType: UserType = 'anonymous';
let location: LocationFields | null = null;

function currentPath(): string {
  return typeof window === 'undefined' ? '' : window.location.pathname;
}

/** Called once at start with the runtime config; without analytics settings everything is a no-op. */
export function configureAnalytics(config: RuntimeConfig['analytics']): void {
  settings = config ?? null;
  client = null;
}

export function analyticsEnabled(): boolean {
  if (!settings || typeof window === 'undefined') return false;
  return !privacySignalSet(window.navigator as Navigator & { globalPrivacyControl?: boolean }, window as { doNotTrack?: string | null });
}

async function fetchLocation(): Promise<LocationFields | null> {
  try {
    const cached = window.sessionStorage.getItem(LOCATION_STORAGE_KEY);
    if (cached) return JSON.parse(cached) as LocationFields;
  } catch {
    // Storage may be unavailable (private mode): look it up again.
  }
  const fields = await fetchAnalyticsLocation<LocationFields>();
  if (!fields) return null;
  try {
    window.sessionStorage.setItem(LOCATION_STORAGE_KEY, JSON.stringify(fields));
  } catch {
    // Not cached: looked up again next time.
  }
  return fields;
}

/** Loads and starts posthog-js the first time it is needed; null when analytics are off. */
function load(): Promise<PostHog | null> {
  if (!analyticsEnabled() || !settings) return Promise.resolve(null);
  if (client) return client;
  const { key, apiHost, ipLocation } = settings;
  client = (async () => {
    const [{ default: posthog }, fields] = await Promise.all([import('posthog-js'), ipLocation ? fetchLocation() : Promise.resolve(null)]);
    location = fields;
    posthog.init(key, {
      api_host: apiHost,
      ui_host: undefined,
      // Only the catalogue's events, sent by us: no autocapture, recordings, surveys or flags.
      autocapture: false,
      capture_pageview: false,
      capture_pageleave: false,
      capture_dead_clicks: false,
      capture_exceptions: false,
      capture_performance: false,
      rageclick: false,
      disable_session_recording: true,
      disable_surveys: true,
      disable_web_experiments: true,
      disable_external_dependency_loading: true,
      advanced_disable_flags: true,
      advanced_disable_feature_flags: true,
      advanced_disable_feature_flags_on_first_load: true,
      respect_dnt: true,
      persistence: 'localStorage+cookie',
      cookie_expiration: DELIVERY.cookieExpirationDays,
      session_idle_timeout_seconds: DELIVERY.sessionIdleTimeoutSeconds,
      request_batching: true,
      request_queue_config: { flush_interval_ms: DELIVERY.flushIntervalMs },
      // Last guard: posthog-js's own events never leave an admin page either.
      before_send: (event) => (isAdminPath(currentPath()) ? null : event),
    });
    return posthog;
  })().catch(() => null);
  return client;
}

/** Sends one catalogue event with §3's properties; dropped on admin pages and when analytics are off. */
export function track(event: AnalyticsEvent, props: EventProperties = {}): void {
  if (!analyticsEnabled() || isAdminPath(currentPath())) return;
  const url = window.location.href;
  void load().then((posthog) => {
    if (!posthog) return;
    const properties = buildProperties(event, props, {
      url,
      referrer: document.referrer,
      userAgent: navigator.userAgent,
      platform: platformOf(navigator.userAgent),
      sessionId: posthog.get_session_id?.() ?? null,
      userType,
      now: new Date(),
      location,
    });
    posthog.capture(event, properties);
  });
}

/** The signed-in user from now on (nothing for excluded ids; no e-mail or token is sent). */
export function identify(user: { id: string; isAdmin: boolean } | null): void {
  userType = userTypeOf(user);
  if (!user || !settings || isExcludedUser(user.id, settings.excludedUserIds)) return;
  if (!analyticsEnabled() || isAdminPath(currentPath())) return;
  void load().then((posthog) => posthog?.identify(user.id, { user_type: userType }));
}

/** Whether sign-in events of this user are tracked (§6: not for the excluded ids). */
export function loginTracked(userId: string | null | undefined): boolean {
  return !settings || !isExcludedUser(userId, settings.excludedUserIds);
}

/** After logout: a new anonymous visitor. */
export function reset(): void {
  userType = 'anonymous';
  if (!client) return;
  void client.then((posthog) => posthog?.reset());
}

/** Test hook: forget configuration and the loaded client. */
export function resetAnalyticsForTests(): void {
  settings = null;
  client = null;
  userType = 'anonymous';
  location = null;
}
