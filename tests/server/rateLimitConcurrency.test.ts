/**
 * Every rate limit under concurrency (issue 24): N attempts in flight at once, more than the rule
 * allows, and at most `limit` of them get past it. The probe's case was the sign-in limit per
 * account, read before scrypt and counted after it: 25 wrong passwords at once were 25 guesses.
 * With Redis the attempts are spread over two apps that share it, as instances behind nginx do.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SageApp } from '../../server/app';
import {
  ANALYTICS_RATE_LIMITS,
  AUTH_RATE_LIMITS,
  BILLING_RATE_LIMITS,
  createMemoryRateLimiter,
  createRedisRateLimiter,
  INGESTION_RATE_LIMITS,
  LICENSE_RATE_LIMITS,
  type RateLimiter,
  type RateLimitRule,
} from '../../server/services/rateLimiter';
import { startCaptureServer, type CaptureServer } from '../fixtures/captureServer';
import { signedInUser } from './adminFlow';
import { buildExtraApp, databases, PASSWORD, TestClient, uniqueEmail, useTestServer, type TestServer } from './harness';

const redisUrl = process.env.TEST_REDIS_URL;
const redisClients: Redis[] = [];
/** PostHog's stand-in, for the analytics proxy's limit. */
let posthog: CaptureServer | undefined;
beforeAll(async () => {
  posthog = await startCaptureServer();
});
afterAll(async () => {
  for (const client of redisClients) client.disconnect();
  await posthog?.close();
});

/** The limiters of the apps a case spreads its attempts over: one in memory, or two sharing Redis. */
const stores: { label: string; limiters: () => RateLimiter[] }[] = [
  { label: 'memory', limiters: () => [createMemoryRateLimiter()] },
  ...(redisUrl
    ? [
        {
          label: 'Redis, two apps',
          limiters: () => {
            const prefix = `sage-test:${randomBytes(4).toString('hex')}:`;
            return [0, 1].map(() => {
              const client = new Redis(redisUrl);
              redisClients.push(client);
              return createRedisRateLimiter(client, prefix);
            });
          },
        },
      ]
    : []),
];

interface Attempt {
  method: 'GET' | 'POST';
  url: string;
  json?: unknown;
  headers?: Record<string, string>;
}

interface LimitCase {
  name: string;
  rule: RateLimitRule;
  /** What the attempts share (the key of the rule) and, made once per case, what they need. */
  prepare?: (server: TestServer) => Promise<Record<string, string>>;
  attempt: (n: number, prepared: Record<string, string>) => Attempt;
  /** How the route says it refused; a 429 unless the route is a page a browser navigates to. */
  refused?: (response: LightMyRequestResponse) => boolean;
  /** Settings the route needs to be on at all. */
  env?: () => Record<string, string>;
}

const CASES: LimitCase[] = [
  {
    name: 'sign-in failures per account',
    rule: AUTH_RATE_LIMITS.loginPerEmail,
    prepare: async (server) => {
      const email = uniqueEmail('locked');
      await server.client().register(email);
      return { email };
    },
    attempt: (_n, { email }) => ({ method: 'POST', url: '/api/login', json: { email, password: 'wrong-password!' } }),
  },
  {
    name: 'sign-ins per address',
    rule: AUTH_RATE_LIMITS.loginPerIp,
    attempt: (n) => ({ method: 'POST', url: '/api/login', json: { email: `nobody-${n}@example.com`, password: PASSWORD } }),
  },
  {
    name: 'registrations per address',
    rule: AUTH_RATE_LIMITS.registerPerIp,
    attempt: () => ({ method: 'POST', url: '/api/register', json: { email: uniqueEmail('many'), password: PASSWORD } }),
  },
  {
    name: 'registrations per e-mail',
    rule: AUTH_RATE_LIMITS.registerPerEmail,
    prepare: async () => ({ email: uniqueEmail('same') }),
    // Each from its own address, so only the per-e-mail rule is in play.
    attempt: (n, { email }) => ({
      method: 'POST',
      url: '/api/register',
      json: { email, password: PASSWORD },
      headers: { 'x-test-ip': `10.0.0.${n}` },
    }),
  },
  {
    name: 'password reset requests per address',
    rule: AUTH_RATE_LIMITS.forgotPerIp,
    attempt: () => ({ method: 'POST', url: '/api/forgot-password', json: { email: uniqueEmail('forgot') } }),
  },
  {
    name: 'password reset requests per e-mail',
    rule: AUTH_RATE_LIMITS.forgotPerEmail,
    prepare: async () => ({ email: uniqueEmail('forgot-one') }),
    attempt: (_n, { email }) => ({ method: 'POST', url: '/api/forgot-password', json: { email } }),
  },
  {
    name: 'password resets per address',
    rule: AUTH_RATE_LIMITS.resetPerIp,
    attempt: (n) => ({ method: 'POST', url: '/api/reset-password', json: { token: `not-a-token-${n}`, newPassword: PASSWORD } }),
  },
  {
    name: 'Epic sign-in starts per address',
    rule: AUTH_RATE_LIMITS.epicStartPerIp,
    attempt: () => ({ method: 'GET', url: '/api/auth/login?client=web' }),
    refused: (response) => response.headers.location === '/authentication_failed?reason=rate_limited',
  },
  {
    name: 'e-mail lookups per address',
    rule: AUTH_RATE_LIMITS.emailLookupPerIp,
    attempt: (n) => ({ method: 'POST', url: '/api/user/check-exists', json: { email: `who-${n}@example.com` } }),
  },
  {
    name: 'verification mails per address',
    rule: AUTH_RATE_LIMITS.verificationSendPerIp,
    attempt: (n) => ({ method: 'POST', url: '/api/email/send-verification', json: { email: `verify-${n}@example.com` } }),
  },
  {
    name: 'verification status checks per address',
    rule: AUTH_RATE_LIMITS.verificationStatusPerIp,
    attempt: () => ({ method: 'POST', url: '/api/email/check-verification-status', json: { email: 'status@example.com' } }),
  },
  {
    name: 'plugin code exchanges per address',
    rule: AUTH_RATE_LIMITS.pluginExchangePerIp,
    attempt: (n) => ({ method: 'GET', url: `/api/auth/ue-payload?code=code-${n}&code_verifier=${'v'.repeat(43)}` }),
  },
  {
    name: 'license downloads per address',
    rule: LICENSE_RATE_LIMITS.perIp,
    attempt: () => ({ method: 'GET', url: '/api/license', headers: { authorization: 'Bearer not-a-license-token' } }),
  },
  {
    name: 'ingestion calls per address',
    rule: INGESTION_RATE_LIMITS.perIp,
    attempt: () => ({
      method: 'POST',
      url: '/api/ingest/messages',
      json: { sessionId: 's', message: 'hi' },
      headers: { authorization: 'Bearer not-a-license-token' },
    }),
  },
  {
    name: 'ingestion calls per license token',
    rule: INGESTION_RATE_LIMITS.perLicenseToken,
    prepare: async (server) => {
      const user = await signedInUser(server);
      const row = await server.db.selectFrom('users').select('license_token').where('id', '=', user.id).executeTakeFirstOrThrow();
      return { token: row.license_token };
    },
    // From many addresses, so only the per-token rule is in play.
    attempt: (n, { token = '' }) => ({
      method: 'POST',
      url: '/api/ingest/messages',
      json: { sessionId: `limit-${token.slice(0, 8)}`, message: { n } },
      headers: { authorization: `Bearer ${token}`, 'x-test-ip': `10.1.${n >> 8}.${n & 255}` },
    }),
  },
  {
    name: 'billing writes per user',
    rule: BILLING_RATE_LIMITS.writesPerUser,
    prepare: async (server) => {
      const user = await signedInUser(server);
      return { cookie: `sage_session=${user.client.session ?? ''}` };
    },
    attempt: (_n, { cookie }) => ({ method: 'POST', url: '/api/stripe/verify-subscription', headers: { cookie: cookie ?? '' } }),
  },
  {
    name: 'analytics proxy per address',
    rule: ANALYTICS_RATE_LIMITS.proxyPerIp,
    attempt: () => ({ method: 'POST', url: '/ingest/e/', json: { event: 'x' } }),
    env: () => ({ POSTHOG_KEY: 'phc_limits', POSTHOG_HOST: posthog?.url ?? '' }),
  },
];

describe.each(databases)('rate limits under concurrency on $label', (database) => {
  const server = useTestServer(database);

  describe.each(stores)('with the counters in $label', ({ limiters }) => {
    const apps: SageApp[] = [];
    afterAll(async () => {
      for (const app of apps.splice(0)) await app.close();
    });

    it.each(CASES)(
      '$name: at most the limit of attempts in flight at once get past it',
      async ({ rule, prepare, attempt, refused = (response) => response.statusCode === 429, env }) => {
        const prepared = (await prepare?.(server())) ?? {};
        // Apps over the suite's database; a header stands in for the client address (TRUST_PROXY).
        const own = await Promise.all(
          limiters().map((rateLimiter) =>
            buildExtraApp(server().db, { SMTP_URL: server().smtp.url, TRUST_PROXY: '1', ...env?.() }, { rateLimiter }),
          ),
        );
        apps.push(...own);
        const tries = rule.limit + Math.max(5, Math.ceil(rule.limit / 4));
        const answers = await Promise.all(
          Array.from({ length: tries }, async (_, n) => {
            const { method, url, json, headers = {} } = attempt(n, prepared);
            const { 'x-test-ip': ip, ...rest } = headers;
            const client = new TestClient(own[n % own.length]!, {
              origin: server().config.publicUrl,
              'x-forwarded-for': ip ?? '192.0.2.7',
              ...rest,
            });
            return client.request(method, url, json === undefined ? {} : { json });
          }),
        );
        const past = answers.filter((response) => !refused(response)).length;
        expect(answers.filter((response) => response.statusCode >= 500).map((response) => response.body)).toEqual([]);
        expect(past).toBe(rule.limit);
      },
    );
  });
});
