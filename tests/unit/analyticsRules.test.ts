import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ANALYTICS_EVENTS,
  buildProperties,
  createPageTimer,
  EVENT_PLACES,
  isAdminPath,
  isExcludedUser,
  platformOf,
  privacySignalSet,
  scrubProperties,
  scrubUrl,
  shouldTrackTimeOnPage,
  userTypeOf,
  type PageContext,
} from '../../src/analytics/rules';

describe('analytics: admin pages are never tracked (§6)', () => {
  it.each([
    ['/admin', true],
    ['/ADMIN', true],
    ['/Admin/users', true],
    ['/admin#/users/1', true],
    ['/dashboard/administration', true],
    ['/superAdMiN', true],
    ['/download', false],
    ['/dashboard', false],
    ['/login', false],
    ['/', false],
  ])('%s → %s', (path, admin) => {
    expect(isAdminPath(path)).toBe(admin);
  });
});

describe('analytics: Time on Page only after more than 3 s', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    [0, false],
    [2999, false],
    [3000, false],
    [3001, true],
    [60_000, true],
    [Number.NaN, false],
  ])('%i ms → %s', (ms, tracked) => {
    expect(shouldTrackTimeOnPage(ms)).toBe(tracked);
  });

  it('measures a visit with the clock (fake timers)', () => {
    vi.useFakeTimers();
    const timer = createPageTimer();
    timer.start('/download');
    vi.advanceTimersByTime(3000);
    expect(timer.stop()).toBeNull();

    timer.start('/support');
    vi.advanceTimersByTime(3001);
    expect(timer.stop()).toEqual({ path: '/support', durationMs: 3001 });
    // Stopped: nothing to report twice.
    expect(timer.stop()).toBeNull();
  });
});

describe('analytics: excluded user ids (§6)', () => {
  const excluded = ['u-1', 'u-7'];
  it.each([
    ['u-1', true],
    [' u-7 ', true],
    ['u-2', false],
    ['', false],
    [null, false],
    [undefined, false],
  ])('%s → %s', (id, skip) => {
    expect(isExcludedUser(id, excluded)).toBe(skip);
  });
  it('excludes nobody when the list is empty', () => {
    expect(isExcludedUser('u-1', [])).toBe(false);
  });
});

describe('analytics: Do Not Track and Global Privacy Control turn capturing off', () => {
  it.each([
    [{ doNotTrack: '1' }, undefined, true],
    [{ doNotTrack: 'yes' }, undefined, true],
    [{ msDoNotTrack: '1' }, undefined, true],
    [{}, { doNotTrack: '1' }, true],
    [{ globalPrivacyControl: true }, undefined, true],
    [{ doNotTrack: '0', globalPrivacyControl: false }, undefined, false],
    [{ doNotTrack: null }, undefined, false],
    [{}, undefined, false],
  ])('%j %j → %s', (nav, win, off) => {
    expect(privacySignalSet(nav, win)).toBe(off);
  });
});

const ctx: PageContext = {
  url: 'https://dash.test/reset-password?token=abc123&x=1',
  referrer: 'https://dash.test/api/auth/callback?code=xyz&state=s1',
  userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120',
  platform: 'Windows',
  sessionId: 'sess-1',
  userType: 'user',
  now: new Date('2026-01-02T03:04:05.000Z'),
};

describe('analytics: every event carries §3 properties', () => {
  it('builds the property set', () => {
    const props = buildProperties(
      'File Download',
      { ue_version: '5.6', build_version: '2025-07-15a' },
      {
        ...ctx,
        url: 'https://dash.test/download',
        referrer: '',
        location: {
          country: 'Germany',
          country_code: 'DE',
          region: 'Berlin',
          city: 'Berlin',
          timezone: 'Europe/Berlin',
          latitude: 52.5,
          longitude: 13.4,
          ip_address: '203.0.113.9',
        },
      },
    );
    expect(props).toEqual({
      ue_version: '5.6',
      build_version: '2025-07-15a',
      user_type: 'user',
      platform: 'Windows',
      url: 'https://dash.test/download',
      referrer: '',
      user_agent: ctx.userAgent,
      session_id: 'sess-1',
      time: '2026-01-02T03:04:05.000Z',
      country: 'Germany',
      country_code: 'DE',
      region: 'Berlin',
      city: 'Berlin',
      timezone: 'Europe/Berlin',
      latitude: 52.5,
      longitude: 13.4,
      ip_address: '203.0.113.9',
      event_name: 'File Download',
    });
  });

  it('has no location fields without a provider', () => {
    const props = buildProperties('Page View', {}, ctx);
    for (const key of ['country', 'country_code', 'region', 'city', 'timezone', 'latitude', 'longitude', 'ip_address']) {
      expect(props).not.toHaveProperty(key);
    }
  });

  it('does not let an event override the common properties', () => {
    expect(buildProperties('Page View', { user_type: 'admin', url: 'x' }, ctx)).toMatchObject({ user_type: 'user' });
  });

  it.each([
    [null, 'anonymous'],
    [undefined, 'anonymous'],
    [{ isAdmin: false }, 'user'],
    [{ isAdmin: true }, 'admin'],
  ])('user type of %j is %s', (user, type) => {
    expect(userTypeOf(user)).toBe(type);
  });

  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64)', 'Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)', 'macOS'],
    ['Mozilla/5.0 (X11; Linux x86_64)', 'Linux'],
    ['Mozilla/5.0 (Linux; Android 14)', 'Android'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', 'iOS'],
    ['curl/8', 'Other'],
  ])('platform of %s is %s', (ua, platform) => {
    expect(platformOf(ua)).toBe(platform);
  });
});

describe('analytics: no secrets in properties', () => {
  it.each([
    ['password'],
    ['newPassword'],
    ['passwordConfirm'],
    ['token'],
    ['license_token'],
    ['access_token'],
    ['code'],
    ['code_verifier'],
    ['state'],
    ['client_secret'],
    ['api_key'],
    ['cookie'],
    ['authorization'],
    ['body'],
    ['email_body'],
    ['html'],
    ['text'],
  ])('drops %s', (key) => {
    expect(scrubProperties({ [key]: 'hunter2', kept: 'yes' })).toEqual({ kept: 'yes' });
  });

  it('keeps the safe look-alikes', () => {
    expect(scrubProperties({ session_id: 's', country_code: 'DE', error_message: 'Invalid credentials' })).toEqual({
      session_id: 's',
      country_code: 'DE',
      error_message: 'Invalid credentials',
    });
  });

  it('redacts secrets in URLs and referrers', () => {
    const props = buildProperties('Page View', {}, ctx);
    expect(props.url).toBe('https://dash.test/reset-password?token=%5Bredacted%5D&x=1');
    expect(props.referrer).toBe('https://dash.test/api/auth/callback?code=%5Bredacted%5D&state=%5Bredacted%5D');
    expect(JSON.stringify(props)).not.toMatch(/abc123|xyz|s1\b/);
  });

  it.each([
    ['/login?email=a@b.c', '/login?email=%5Bredacted%5D'],
    ['https://x.test/p#access_token=1', 'https://x.test/p'],
    ['https://x.test/download', 'https://x.test/download'],
  ])('scrubs %s', (url, scrubbed) => {
    expect(scrubUrl(url)).toBe(scrubbed);
  });

  it('redacts token-shaped text in free text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const props = scrubProperties({ error_message: `bad ${jwt} and ${'a'.repeat(40)}` });
    expect(props.error_message).toBe('bad [redacted] and [redacted]');
  });
});

describe('analytics: the catalogue', () => {
  it('has exactly the §7 event names, each with a documented place or none', () => {
    expect([...ANALYTICS_EVENTS]).toEqual([
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
    ]);
    expect(Object.keys(EVENT_PLACES).sort()).toEqual([...ANALYTICS_EVENTS].sort());
    // Decided in docs/analytics.md: never sent by the web dashboard.
    expect(EVENT_PLACES['Project Action']).toBeNull();
    expect(EVENT_PLACES['File Action']).toBeNull();
    expect(EVENT_PLACES['Extension Download']).toBeNull();
    expect(EVENT_PLACES['License Download']).toBeNull();
  });
});
