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
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      smtpUrl: undefined,
      redisUrl: undefined,
      trustProxy: false,
      logLevel: 'info',
      sessionIdleMs: 7 * DAY_MS,
      sessionAbsoluteMs: 30 * DAY_MS,
    });
    expect(config.runtime.marketingUrl).toBe('https://sage.example.com');
    expect(config.runtime.supportEmail).toBe('support@sage.example.com');
    expect(config.runtime.installationGuideUrl).toBe('https://sage.example.com/docs/installation');
    expect(config.runtime.defaultBuild.version).toBe(DEFAULT_BUILD_VERSION);
    expect(config.runtime.defaultBuild.ue55Url).toMatch(/^https:\/\/sage\.example\.com\/.+5\.5/);
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
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 4000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:4000',
      dataDir: '/var/lib/sage',
      databaseUrl: 'postgres://sage@db/sage',
      smtpUrl: 'smtp://mail.example.com:587',
      mailFrom: 'Sage <hello@example.com>',
      redisUrl: 'redis://cache:6379',
      sessionIdleMs: DAY_MS,
      sessionAbsoluteMs: 2 * DAY_MS,
      trustProxy: true,
      logLevel: 'warn',
    });
    expect(config.runtime.marketingUrl).toBe('https://www.example.com');
    expect(config.runtime.installationGuideUrl).toBe('https://docs.example.com/install');
    expect(config.runtime.defaultBuild.ue57Url).toBe('https://cdn.example.com/ue57.zip');
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
});
