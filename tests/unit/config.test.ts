import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUILD_VERSION } from '../../contract/builds';
import { loadConfig } from '../../server/config';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('configuration', () => {
  it('runs with nothing configured, on the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: 'localhost',
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      smtpUrl: undefined,
      redisUrl: undefined,
      trustProxy: false,
      logLevel: 'info',
      sessionIdleMs: 7 * DAY_MS,
      sessionAbsoluteMs: 30 * DAY_MS,
      timeouts: { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 5_000 },
      licenseSigningKey: undefined,
    });
    expect(config.runtime.marketingUrl).toBe('https://sage.example.com');
    expect(config.runtime.supportEmail).toBe('support@sage.example.com');
    expect(config.runtime.installationGuideUrl).toBe('https://sage.example.com/docs/installation');
    expect(config.runtime.defaultBuild.version).toBe(DEFAULT_BUILD_VERSION);
    expect(config.runtime.defaultBuild.ue55Url).toMatch(/^https:\/\/sage\.example\.com\/.+5\.5/);
  });

  it('listens on this machine only in development, and on every interface in production, unless HOST says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://dash.example.com' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: ' ' }).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://dash.example.com', HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
  });

  it('derives PUBLIC_URL from PORT when it is not set', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('takes PUBLIC_URL as given, without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://dash.example.com/', PORT: '8080' }).publicUrl).toBe('https://dash.example.com');
  });

  it('reads every variable it documents', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://dash.example.com',
      PORT: '4000',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/sage',
      DATABASE_URL: 'postgres://sage@db/sage',
      SMTP_URL: 'smtp://mail.example.com:587',
      MAIL_FROM: 'Sage <hello@example.com>',
      REDIS_URL: 'redis://cache:6379',
      MARKETING_URL: 'https://www.example.com/',
      SUPPORT_EMAIL: 'help@example.com',
      INSTALLATION_GUIDE_URL: 'https://docs.example.com/install',
      DEFAULT_BUILD_UE57_URL: 'https://cdn.example.com/ue57.zip',
      SESSION_IDLE_DAYS: '1',
      SESSION_ABSOLUTE_DAYS: '2',
      REQUEST_TIMEOUT_MS: '20000',
      HEADERS_TIMEOUT_MS: '4000',
      KEEP_ALIVE_TIMEOUT_MS: '3000',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 4000,
      host: '127.0.0.1',
      publicUrl: 'https://dash.example.com',
      dataDir: '/var/lib/sage',
      databaseUrl: 'postgres://sage@db/sage',
      smtpUrl: 'smtp://mail.example.com:587',
      mailFrom: 'Sage <hello@example.com>',
      redisUrl: 'redis://cache:6379',
      sessionIdleMs: DAY_MS,
      sessionAbsoluteMs: 2 * DAY_MS,
      timeouts: { requestMs: 20_000, headersMs: 4_000, keepAliveMs: 3_000 },
      trustProxy: 1,
      logLevel: 'warn',
    });
    expect(config.runtime.marketingUrl).toBe('https://www.example.com');
    expect(config.runtime.installationGuideUrl).toBe('https://docs.example.com/install');
    expect(config.runtime.defaultBuild.ue57Url).toBe('https://cdn.example.com/ue57.zip');
  });

  it('keeps the connection timeouts bounded, the headers within the whole request', () => {
    for (const name of ['REQUEST_TIMEOUT_MS', 'HEADERS_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS']) {
      // 0 would mean no limit at all.
      for (const value of ['0', '-1', '1.5', 'soon', '600001']) {
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
      }
    }
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(
      /HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS/,
    );
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '5000' }).timeouts.headersMs).toBe(5000);
  });

  it('requires PUBLIC_URL in production, saying why', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /^Invalid configuration:\n {2}PUBLIC_URL: required when NODE_ENV=production/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: '  ' })).toThrow(/PUBLIC_URL: required/);
    // Listed together with the other problems.
    expect(() => loadConfig({ NODE_ENV: 'production', PORT: 'x' })).toThrow(/PORT[\s\S]*PUBLIC_URL: required/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://dash.example.com' }).env).toBe('production');
    // Outside production the localhost default still applies.
    expect(loadConfig({ NODE_ENV: 'development' }).publicUrl).toBe('http://localhost:3000');
  });

  it('turns billing on only with both Stripe secrets, and keeps the API https in production', () => {
    expect(loadConfig({}).stripe).toBeNull();
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_API_URL: 'http://127.0.0.1:12111' }).stripe,
    ).toEqual({ secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiUrl: 'http://127.0.0.1:12111' });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }).stripe?.apiUrl).toBeUndefined();
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: set both/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toThrow(/set both/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://dash.example.com', STRIPE_API_URL: 'http://stripe.internal' }),
    ).toThrow(/STRIPE_API_URL: must be https/);
  });

  describe('billing without Stripe keys', () => {
    it('runs against the development Stripe stand-in in development on localhost, its state in DATA_DIR', () => {
      const config = loadConfig({});
      expect(config.devStripe).toEqual({ port: 0, stateFile: path.resolve('data', 'dev-stripe.json') });
      // Billing is configured from the stand-in once it has started (server/main.ts).
      expect(config.stripe).toBeNull();
      for (const [env, publicUrl] of [
        ['development', 'http://127.0.0.1:3000'],
        ['test', 'http://localhost:3000'],
      ]) {
        expect(loadConfig({ NODE_ENV: env, PUBLIC_URL: publicUrl, DEV_STRIPE_PORT: '4556', DATA_DIR: '/tmp/sage' }).devStripe).toEqual({
          port: 4556,
          stateFile: '/tmp/sage/dev-stripe.json',
        });
      }
    });

    it('keeps billing off in production, even on localhost', () => {
      for (const publicUrl of ['http://localhost:3000', 'https://dash.example.com']) {
        const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: publicUrl });
        expect(config.devStripe, publicUrl).toBeNull();
        expect(config.stripe, publicUrl).toBeNull();
      }
    });

    it('keeps billing off on a PUBLIC_URL that is not localhost', () => {
      expect(loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'http://192.168.1.20:3000' }).devStripe).toBeNull();
      expect(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://sage.test' }).devStripe).toBeNull();
    });

    it('uses Stripe, and no stand-in, once the keys are set', () => {
      const config = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' });
      expect(config.devStripe).toBeNull();
      expect(config.stripe).toMatchObject({ secretKey: 'sk_test_1', webhookSecret: 'whsec_1' });
    });

    it('refuses a DEV_STRIPE_PORT that is no port', () => {
      expect(() => loadConfig({ DEV_STRIPE_PORT: '70000' })).toThrow(/DEV_STRIPE_PORT/);
    });
  });

  it('takes the AI service token only when it is long enough to be a secret', () => {
    expect(loadConfig({}).aiServiceToken).toBeUndefined();
    expect(loadConfig({ AI_SERVICE_TOKEN: 'a'.repeat(32) }).aiServiceToken).toBe('a'.repeat(32));
    expect(() => loadConfig({ AI_SERVICE_TOKEN: 'short' })).toThrow(/AI_SERVICE_TOKEN: must be at least 32 characters/);
  });

  it('reads TRUST_PROXY as false, a hop count or a list of proxy addresses', () => {
    const trustProxy = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('')).toBe(false);
    expect(trustProxy('0')).toBe(false);
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy(' 2 ')).toBe(2);
    expect(trustProxy('10.0.0.5')).toEqual(['10.0.0.5']);
    expect(trustProxy('10.0.0.0/8, 192.168.1.1,::1,fd00::/8')).toEqual(['10.0.0.0/8', '192.168.1.1', '::1', 'fd00::/8']);
    expect(trustProxy('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
  });

  it('refuses plain-http Epic endpoints in production, where they would carry the client secret', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://dash.example.com',
      EPIC_CLIENT_ID: 'id',
      EPIC_CLIENT_SECRET: 'secret',
    };
    expect(() => loadConfig({ ...production, EPIC_TOKEN_URL: 'http://epic.example/token' })).toThrow(
      /EPIC_TOKEN_URL: must be https when NODE_ENV=production/,
    );
    expect(() => loadConfig({ ...production, EPIC_REDIRECT_URI: 'http://dash.example.com/api/auth/callback' })).toThrow(
      /EPIC_REDIRECT_URI/,
    );
    expect(loadConfig(production).epic?.tokenUrl).toBe('https://api.epicgames.dev/epic/oauth/v2/token');
    // Development may point at a local stand-in over http.
    expect(loadConfig({ ...production, NODE_ENV: 'development', EPIC_TOKEN_URL: 'http://127.0.0.1:9/token' }).epic?.tokenUrl).toBe(
      'http://127.0.0.1:9/token',
    );
  });

  it('lets loopback read /metrics by default, and takes METRICS_ALLOW and METRICS_TOKEN', () => {
    expect(loadConfig({}).metrics).toEqual({ allow: ['127.0.0.1/8', '::1'], token: undefined });
    const token = 'a'.repeat(32);
    expect(loadConfig({ METRICS_ALLOW: '10.0.0.0/8, 192.168.1.5,loopback', METRICS_TOKEN: ` ${token} ` }).metrics).toEqual({
      allow: ['10.0.0.0/8', '192.168.1.5', 'loopback'],
      token,
    });
    // Empty: no address may, only the token.
    expect(loadConfig({ METRICS_ALLOW: '' }).metrics.allow).toEqual([]);
  });

  it('refuses METRICS_ALLOW entries that are not addresses, naming them, and a short METRICS_TOKEN', () => {
    for (const value of ['prometheus.local', '10.0.0.0/33', '10.0.0.1,', '::1/129']) {
      expect(() => loadConfig({ METRICS_ALLOW: value }), value).toThrow(
        /METRICS_ALLOW: expected comma-separated IPs\/CIDRs allowed to read \/metrics; not an IP or CIDR/,
      );
    }
    expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.1,prometheus.local' })).toThrow(/"prometheus\.local"/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 32 characters/);
  });

  it('refuses TRUST_PROXY=true and explains to give the hop count', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true would trust every X-Forwarded-For hop.*give the number of proxies in front of the server \(e\.g\. 1\)/,
    );
  });

  it('refuses TRUST_PROXY entries that are not addresses, naming them', () => {
    for (const value of ['yes', '10.0.0.1,proxy.local', '10.0.0.0/33', '::1/129', '10.0.0.1/8/1', '1.5', '-1']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY: expected false, a hop count/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.local' })).toThrow(/"proxy\.local"/);
  });

  it('reads LICENSE_SIGNING_KEY as an Ed25519 private key, refusing anything else without repeating it', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(loadConfig({ LICENSE_SIGNING_KEY: pem }).licenseSigningKey).toBe(pem.trim());
    for (const value of [
      pem.trim().replace(/\n/g, '\\n'),
      Buffer.from(pem).toString('base64'),
      privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    ]) {
      expect(loadConfig({ LICENSE_SIGNING_KEY: value }).licenseSigningKey).toBe(value);
    }
    expect(loadConfig({ LICENSE_SIGNING_KEY: '  ' }).licenseSigningKey).toBeUndefined();

    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const publicPem = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    for (const value of ['secret-not-a-key', rsa, publicPem, 'c2VjcmV0']) {
      let message = '';
      try {
        loadConfig({ LICENSE_SIGNING_KEY: value });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^Invalid configuration:\n {2}LICENSE_SIGNING_KEY: expected an Ed25519 private key as PKCS#8 PEM/);
      expect(message).not.toContain(value.trim().split('\n')[1] ?? value);
    }
  });

  it('treats empty optional URLs as not set', () => {
    const config = loadConfig({ DATABASE_URL: '', SMTP_URL: '  ', REDIS_URL: '' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it('refuses an invalid value with a readable error naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/Invalid configuration:[\s\S]*PORT/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
    expect(() => loadConfig({ SMTP_URL: 'nope' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });

  it('lists every bad variable at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: '70000', SUPPORT_EMAIL: 'nobody', SESSION_IDLE_DAYS: '-1' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of ['PORT', 'SUPPORT_EMAIL', 'SESSION_IDLE_DAYS']) {
      expect(message).toContain(`  ${name}: `);
    }
  });

  describe('Sign in with Epic', () => {
    const EPIC = { EPIC_CLIENT_ID: 'client-id', EPIC_CLIENT_SECRET: 'client-secret' };

    it('stands the development identity provider in for Epic by default, on localhost', () => {
      const config = loadConfig({});
      expect(config.epic).toBeNull();
      expect(config.devIdentityProvider).toEqual({ port: 0, redirectUri: 'http://localhost:3000/api/auth/callback' });
      expect(config.runtime.epicSignIn).toBe('development');
    });

    it('runs the development identity provider on any localhost PUBLIC_URL outside production', () => {
      for (const [env, publicUrl] of [
        ['development', 'http://localhost:8080'],
        ['development', 'http://127.0.0.1:3000'],
        ['development', 'http://[::1]:3000'],
        ['test', 'http://localhost:3000'],
      ]) {
        const config = loadConfig({ NODE_ENV: env, PUBLIC_URL: publicUrl, DEV_IDP_PORT: '4555' });
        expect(config.devIdentityProvider, `${env} ${publicUrl}`).toEqual({ port: 4555, redirectUri: `${publicUrl}/api/auth/callback` });
        expect(config.runtime.epicSignIn).toBe('development');
      }
    });

    it('never runs the development identity provider in production, even on localhost', () => {
      const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' });
      expect(config.epic).toBeNull();
      expect(config.devIdentityProvider).toBeNull();
      expect(config.runtime.epicSignIn).toBe('unavailable');
    });

    it('never runs the development identity provider on a PUBLIC_URL that is not localhost', () => {
      for (const publicUrl of [
        'https://dash.example.com',
        'http://localhost.example.com',
        'http://192.168.1.20:3000',
        'http://sage.test',
      ]) {
        const config = loadConfig({ NODE_ENV: 'development', PUBLIC_URL: publicUrl });
        expect(config.devIdentityProvider, publicUrl).toBeNull();
        expect(config.runtime.epicSignIn, publicUrl).toBe('unavailable');
      }
    });

    it('signs in with Epic, and not the development provider, once EPIC_CLIENT_ID and EPIC_CLIENT_SECRET are set', () => {
      for (const env of [{}, { NODE_ENV: 'production', PUBLIC_URL: 'https://dash.example.com' }]) {
        const config = loadConfig({ ...env, ...EPIC });
        expect(config.devIdentityProvider).toBeNull();
        expect(config.runtime.epicSignIn).toBe('epic');
        expect(config.epic).toEqual({
          clientId: 'client-id',
          clientSecret: 'client-secret',
          issuer: 'https://api.epicgames.dev/epic/oauth/v2',
          authorizeUrl: 'https://www.epicgames.com/id/authorize',
          tokenUrl: 'https://api.epicgames.dev/epic/oauth/v2/token',
          userInfoUrl: 'https://api.epicgames.dev/epic/oauth/v2/userInfo',
          scopes: 'openid basic_profile',
          redirectUri: `${config.publicUrl}/api/auth/callback`,
        });
      }
    });

    it('reads the Epic endpoints, scopes and callback it documents', () => {
      const config = loadConfig({
        ...EPIC,
        PUBLIC_URL: 'https://dash.example.com',
        EPIC_ISSUER: 'https://issuer.example.com',
        EPIC_AUTHORIZE_URL: 'https://id.example.com/authorize',
        EPIC_TOKEN_URL: 'https://api.example.com/token',
        EPIC_USERINFO_URL: 'https://api.example.com/userInfo',
        EPIC_SCOPES: 'openid basic_profile friends_list',
        EPIC_REDIRECT_URI: 'https://auth.example.com/api/auth/callback',
      });
      expect(config.epic).toMatchObject({
        issuer: 'https://issuer.example.com',
        authorizeUrl: 'https://id.example.com/authorize',
        tokenUrl: 'https://api.example.com/token',
        userInfoUrl: 'https://api.example.com/userInfo',
        scopes: 'openid basic_profile friends_list',
        redirectUri: 'https://auth.example.com/api/auth/callback',
      });
    });

    it('refuses only one of EPIC_CLIENT_ID and EPIC_CLIENT_SECRET', () => {
      for (const env of [
        { EPIC_CLIENT_ID: 'client-id' },
        { EPIC_CLIENT_SECRET: 'client-secret' },
        { EPIC_CLIENT_ID: 'client-id', EPIC_CLIENT_SECRET: '   ' },
        { EPIC_CLIENT_ID: '', EPIC_CLIENT_SECRET: 'client-secret' },
      ]) {
        expect(() => loadConfig(env), JSON.stringify(env)).toThrow(
          /^Invalid configuration:\n {2}EPIC_CLIENT_ID, EPIC_CLIENT_SECRET: set both \(from the Epic Developer Portal\) or neither$/,
        );
      }
      // Both empty is neither.
      expect(loadConfig({ EPIC_CLIENT_ID: '', EPIC_CLIENT_SECRET: ' ' }).runtime.epicSignIn).toBe('development');
    });
  });

  describe('analytics', () => {
    it('is off without POSTHOG_KEY', () => {
      const config = loadConfig({ ANALYTICS_EXCLUDED_USER_IDS: 'a', IP_LOCATION_URL: 'https://ipapi.co/{ip}/json/' });
      expect(config.analytics).toBeNull();
      expect(config.runtime.analytics).toBeNull();
    });

    it('defaults the host to PostHog US and tells the browser to use /ingest', () => {
      const config = loadConfig({ POSTHOG_KEY: ' phc_abc ' });
      expect(config.analytics).toEqual({ key: 'phc_abc', host: 'https://us.i.posthog.com', excludedUserIds: [], ipLocationUrl: undefined });
      expect(config.runtime.analytics).toEqual({ key: 'phc_abc', apiHost: '/ingest', excludedUserIds: [], ipLocation: false });
    });

    it('reads the host, the excluded ids and the location provider', () => {
      const config = loadConfig({
        POSTHOG_KEY: 'phc_abc',
        POSTHOG_HOST: 'https://eu.i.posthog.com/',
        ANALYTICS_EXCLUDED_USER_IDS: ' u1, u2,,u1 ,u3 ',
        IP_LOCATION_URL: 'https://ipapi.co/{ip}/json/',
      });
      expect(config.analytics).toEqual({
        key: 'phc_abc',
        host: 'https://eu.i.posthog.com',
        excludedUserIds: ['u1', 'u2', 'u3'],
        ipLocationUrl: 'https://ipapi.co/{ip}/json/',
      });
      expect(config.runtime.analytics).toEqual({
        key: 'phc_abc',
        apiHost: '/ingest',
        excludedUserIds: ['u1', 'u2', 'u3'],
        ipLocation: true,
      });
    });

    it('refuses a bad host and a location URL without {ip}', () => {
      expect(() => loadConfig({ POSTHOG_KEY: 'k', POSTHOG_HOST: 'not a url' })).toThrow(/POSTHOG_HOST/);
      expect(() => loadConfig({ IP_LOCATION_URL: 'https://ipapi.co/json/' })).toThrow(/IP_LOCATION_URL: must contain \{ip\}/);
    });
  });
});
