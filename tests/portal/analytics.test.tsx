import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const posthog = vi.hoisted(() => ({
  init: vi.fn(),
  capture: vi.fn(),
  identify: vi.fn(),
  reset: vi.fn(),
  get_session_id: vi.fn(() => 'session-1'),
}));
const imported = vi.hoisted(() => ({ count: 0 }));
vi.mock('posthog-js', () => {
  imported.count += 1;
  return { default: posthog };
});

import { configureAnalytics, identify, resetAnalyticsForTests, track } from '../../src/analytics';

const settings = { key: 'phc_key', apiHost: '/ingest', excludedUserIds: ['excluded-1'], ipLocation: false };

async function settle() {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('the analytics wrapper', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/download');
    Object.defineProperty(window.navigator, 'doNotTrack', { value: null, configurable: true });
  });
  afterEach(() => {
    resetAnalyticsForTests();
    vi.clearAllMocks();
  });

  it('is off without a key: posthog-js is never loaded', async () => {
    configureAnalytics(null);
    track('Page View', { page: '/download' });
    identify({ id: 'u-1', isAdmin: false });
    await settle();
    expect(imported.count).toBe(0);
    expect(posthog.init).not.toHaveBeenCalled();
    expect(posthog.capture).not.toHaveBeenCalled();
  });

  it('initialises posthog-js through /ingest with the delivery settings and sends the event', async () => {
    configureAnalytics(settings);
    track('File Download', { ue_version: '5.6', build_version: '2025-07-15a', password: 'hunter2' });
    await settle();
    expect(posthog.init).toHaveBeenCalledWith(
      'phc_key',
      expect.objectContaining({
        api_host: '/ingest',
        autocapture: false,
        capture_pageview: false,
        cookie_expiration: 365,
        session_idle_timeout_seconds: 1800,
        request_batching: true,
        request_queue_config: { flush_interval_ms: 3000 },
        respect_dnt: true,
      }),
    );
    expect(posthog.capture).toHaveBeenCalledWith(
      'File Download',
      expect.objectContaining({ ue_version: '5.6', build_version: '2025-07-15a', user_type: 'anonymous', session_id: 'session-1' }),
    );
    expect(JSON.stringify(posthog.capture.mock.calls)).not.toContain('hunter2');
  });

  it.each(['/admin', '/Admin/users', '/ADMIN'])('sends nothing on %s', async (path) => {
    configureAnalytics(settings);
    window.history.replaceState(null, '', path);
    track('License Download', {});
    identify({ id: 'u-1', isAdmin: true });
    await settle();
    expect(posthog.init).not.toHaveBeenCalled();
    expect(posthog.capture).not.toHaveBeenCalled();
    expect(posthog.identify).not.toHaveBeenCalled();
  });

  it('turns capturing off under Do Not Track', async () => {
    Object.defineProperty(window.navigator, 'doNotTrack', { value: '1', configurable: true });
    configureAnalytics(settings);
    track('Page View', {});
    await settle();
    expect(posthog.init).not.toHaveBeenCalled();
  });

  it('does not identify excluded users and marks the user type on later events', async () => {
    configureAnalytics(settings);
    identify({ id: 'excluded-1', isAdmin: false });
    await settle();
    expect(posthog.identify).not.toHaveBeenCalled();
    identify({ id: 'u-2', isAdmin: false });
    track('Page View', {});
    await settle();
    expect(posthog.identify).toHaveBeenCalledWith('u-2', { user_type: 'user' });
    expect(posthog.capture).toHaveBeenCalledWith('Page View', expect.objectContaining({ user_type: 'user' }));
  });

  it('adds the location fields, looked up once per browser session, only when configured', async () => {
    const location = { country: 'Germany', country_code: 'DE', city: 'Berlin', ip_address: '203.0.113.9' };
    const fetchSpy = vi.fn(
      async () => new Response(JSON.stringify(location), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetchSpy);
    window.sessionStorage.clear();
    try {
      configureAnalytics(settings);
      track('Page View', {});
      await settle();
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(posthog.capture.mock.calls[0]?.[1]).not.toHaveProperty('country');

      resetAnalyticsForTests();
      configureAnalytics({ ...settings, ipLocation: true });
      track('Page View', {});
      await settle();
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      expect(fetchSpy.mock.calls[0]).toEqual(['/api/analytics/location', expect.anything()]);
      expect(posthog.capture).toHaveBeenLastCalledWith('Page View', expect.objectContaining(location));

      // A new page load in the same browser session reads it from sessionStorage.
      resetAnalyticsForTests();
      configureAnalytics({ ...settings, ipLocation: true });
      track('Page View', {});
      await settle();
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      expect(posthog.capture).toHaveBeenLastCalledWith('Page View', expect.objectContaining(location));
    } finally {
      vi.unstubAllGlobals();
      window.sessionStorage.clear();
    }
  });
});
