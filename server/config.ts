import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BUILD_VERSION } from '../contract/builds';
import { LEGACY_LOGIN_MODES, type LegacyLoginMode } from '../contract/legacyLogin';
import { STAFF_SECOND_FACTOR_POLICIES, type StaffSecondFactorPolicy } from '../contract/secondFactor';
import { parseLicenseSigningKey } from './services/licenseKey';

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

export type TrustProxy = false | number | string[];

/** Address ranges proxy-addr knows by name. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `false` (nobody), a hop count, or the proxies' addresses. `true` is refused: it
 * would take the left-most X-Forwarded-For entry, which any client can write, as the client.
 */
export function parseTrustProxy(raw: string): TrustProxy | { error: string } {
  const value = raw.trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') {
    return {
      error:
        'true would trust every X-Forwarded-For hop, so any client could pick its own address; give the number of proxies in front of the server (e.g. 1) or their addresses',
    };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops === 0 ? false : hops;
  }
  const entries = parseAddressList(value);
  if ('bad' in entries) {
    return { error: `expected false, a hop count (e.g. 1) or comma-separated proxy IPs/CIDRs; ${entries.bad}` };
  }
  return entries;
}

/** Comma-separated IPs, CIDRs or proxy-addr's range names; `bad` describes the entries that are none. */
export function parseAddressList(raw: string): string[] | { bad: string } {
  if (raw.trim() === '') return [];
  const entries = raw.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0) return { bad: `not an IP or CIDR: ${bad.map((b) => `"${b}"`).join(', ')}` };
  return entries;
}

/**
 * Every environment variable the server reads, with the embedded defaults that make
 * `npm ci && npm start` work on a fresh machine. docs/configuration.md lists every variable.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Unset: every interface in production (a proxy or a container's port mapping reaches it), and only
  // this machine in development, where the defaults (a stand-in for Epic, mail links in the log) are
  // not for anyone else. `localhost` is both 127.0.0.1 and ::1, as a browser may pick either.
  HOST: z.string().trim().optional(),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Sage <no-reply@localhost>'),
  REDIS_URL: optionalUrl,
  MARKETING_URL: z.url().default('https://sage.example.com'),
  SUPPORT_EMAIL: z.email().default('support@sage.example.com'),
  INSTALLATION_GUIDE_URL: optionalUrl,
  DEFAULT_BUILD_UE54_URL: optionalUrl,
  DEFAULT_BUILD_UE55_URL: optionalUrl,
  DEFAULT_BUILD_UE56_URL: optionalUrl,
  DEFAULT_BUILD_UE57_URL: optionalUrl,
  // Whole request (headers and body) and headers alone; a stalled client is answered 408 and cut.
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  // An idle keep-alive connection is closed after this long.
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  // Staff signed in by password need a second factor for the console (issue 40); `optional` is for a
  // development machine or a test run only.
  STAFF_SECOND_FACTOR: z.enum(STAFF_SECOND_FACTOR_POLICIES).default('required'),
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(7),
  // Usage metering (docs/usage-metering.md): queries a user without a plan may use per UTC month,
  // and how long raw uses are kept (daily roll-ups are kept for ever).
  FREE_QUERIES_PER_MONTH: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  USAGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
  USAGE_HOLD_MINUTES: z.coerce.number().int().min(1).max(1_440).default(15),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((raw, ctx) => {
      const parsed = parseTrustProxy(raw);
      if (typeof parsed === 'object' && 'error' in parsed) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed;
    }),
  EPIC_CLIENT_ID: z.string().trim().optional(),
  /** Retiring the e-mail login (decision 048): on, link-only or off. */
  LEGACY_LOGIN: z.enum(LEGACY_LOGIN_MODES).default('on'),
  EPIC_CLIENT_SECRET: z.string().trim().optional(),
  EPIC_ISSUER: z.url().default('https://api.epicgames.dev/epic/oauth/v2'),
  EPIC_AUTHORIZE_URL: z.url().default('https://www.epicgames.com/id/authorize'),
  EPIC_TOKEN_URL: z.url().default('https://api.epicgames.dev/epic/oauth/v2/token'),
  EPIC_USERINFO_URL: z.url().default('https://api.epicgames.dev/epic/oauth/v2/userInfo'),
  EPIC_SCOPES: z.string().trim().min(1).default('openid basic_profile'),
  EPIC_REDIRECT_URI: optionalUrl,
  STRIPE_SECRET_KEY: z.string().trim().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().optional(),
  STRIPE_API_URL: optionalUrl,
  DEV_IDP_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  DEV_STRIPE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LICENSE_SIGNING_KEY: z.string().trim().optional(),
  POSTHOG_KEY: z.string().trim().optional(),
  POSTHOG_HOST: z.url().default('https://us.i.posthog.com'),
  ANALYTICS_EXCLUDED_USER_IDS: z.string().default(''),
  IP_LOCATION_URL: optionalUrl.refine((v) => v === undefined || v.includes('{ip}'), {
    message: 'must contain {ip} where the address goes, e.g. https://ipapi.co/{ip}/json/',
  }),
  AI_SERVICE_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional()),
  // Empty: no address is allowed, only METRICS_TOKEN.
  METRICS_ALLOW: z
    .string()
    .default('127.0.0.1/8,::1')
    .transform((raw, ctx) => {
      const parsed = parseAddressList(raw);
      if ('bad' in parsed) {
        ctx.addIssue({ code: 'custom', message: `expected comma-separated IPs/CIDRs allowed to read /metrics; ${parsed.bad}` });
        return z.NEVER;
      }
      return parsed;
    }),
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional()),
});

/** Epic Account Services (or a stand-in speaking the same OAuth 2.0 protocol). */
export interface EpicSettings {
  clientId: string;
  clientSecret: string;
  /** The `iss` of Epic's ID tokens. */
  issuer: string;
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  scopes: string;
  /** Our callback, registered with Epic. */
  redirectUri: string;
}

/** Stripe: the secret API key, the webhook endpoint's signing secret and where the API is. */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API unless overridden (tests point the real SDK at a local Stripe-compatible server). */
  apiUrl: string | undefined;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  /** The interface to listen on; `localhost` listens on both 127.0.0.1 and ::1 (Fastify). */
  host: string;
  /** Origin the product is reached at; links in e-mails are built from it, never from Host. */
  publicUrl: string;
  dataDir: string;
  /** `postgres://…` or undefined for the embedded SQLite file under dataDir. */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  redisUrl: string | undefined;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /** Whether staff signed in by password must have a second factor to use the console (decision 046). */
  staffSecondFactor: StaffSecondFactorPolicy;
  /**
   * Bounds on a client connection (server/app.ts): the request's headers must have arrived within
   * `headersMs` and all of it within `requestMs` (else 408 and the connection closed); an idle
   * keep-alive connection is closed after `keepAliveMs`.
   */
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
  /** Which hops in front of the server may state the client's address (X-Forwarded-For). */
  trustProxy: TrustProxy;
  logLevel: string;
  /** Ed25519 private key (PKCS#8 PEM, or base64) signing license files; unset: generated into dataDir. */
  licenseSigningKey: string | undefined;
  /** Bearer token of the AI service on the ingestion API; unset, only license tokens are accepted. */
  aiServiceToken: string | undefined;
  /** Usage metering: the free allowance per UTC month of users without a plan, and raw uses' retention. */
  usage: { freeQueriesPerMonth: number; retentionDays: number; holdMinutes: number };
  /** Who may read GET /metrics: client addresses (IPs, CIDRs, range names) and a bearer token. */
  metrics: { allow: string[]; token: string | undefined };
  /** Null until Epic is configured (or the development provider has started, see main.ts). */
  epic: EpicSettings | null;
  /** Set when the local development identity provider stands in for Epic (never in production). */
  devIdentityProvider: { port: number; redirectUri: string } | null;
  /**
   * Set when the local development stand-in for Stripe runs billing (no Stripe keys; never in
   * production): its port, and the file in dataDir that keeps its state across restarts.
   */
  devStripe: { port: number; stateFile: string } | null;
  /** Null while billing is off (products empty, billing writes answer 503) or the development stand-in has not started (main.ts). */
  stripe: StripeSettings | null;
  /** PostHog behind the `/ingest` proxy; null while POSTHOG_KEY is unset (analytics off). */
  analytics: { key: string; host: string; excludedUserIds: string[]; ipLocationUrl: string | undefined } | null;
  runtime: {
    marketingUrl: string;
    supportEmail: string;
    installationGuideUrl: string;
    defaultBuild: {
      version: string;
      ue54Url: string;
      ue55Url: string;
      ue56Url: string;
      ue57Url: string;
    };
    epicSignIn: 'epic' | 'development' | 'unavailable';
    legacyLogin: LegacyLoginMode;
    analytics: { key: string; apiHost: string; excludedUserIds: string[]; ipLocation: boolean } | null;
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The development stand-ins (for Epic, for Stripe) only ever serve a product reached on this machine. */
export function isLocalhostUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/** Parses the environment; throws one readable error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const lines = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL?.trim()) {
    // The localhost fallback would put unusable links in e-mails and refuse the real origin.
    lines.push('  PUBLIC_URL: required when NODE_ENV=production: the address users open, e.g. https://dash.example.com');
  }
  if (env.NODE_ENV === 'production') {
    // Plain http would carry the client secret and the users' tokens in clear.
    for (const name of ['EPIC_AUTHORIZE_URL', 'EPIC_TOKEN_URL', 'EPIC_USERINFO_URL', 'EPIC_REDIRECT_URI'] as const) {
      if (env[name]?.trim().toLowerCase().startsWith('http:')) lines.push(`  ${name}: must be https when NODE_ENV=production`);
    }
  }
  if (Boolean(env.EPIC_CLIENT_ID?.trim()) !== Boolean(env.EPIC_CLIENT_SECRET?.trim())) {
    lines.push('  EPIC_CLIENT_ID, EPIC_CLIENT_SECRET: set both (from the Epic Developer Portal) or neither');
  }
  if (Boolean(env.STRIPE_SECRET_KEY?.trim()) !== Boolean(env.STRIPE_WEBHOOK_SECRET?.trim())) {
    // Without the webhook secret the local mirror would never learn about payments.
    lines.push('  STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: set both (from the Stripe dashboard) or neither');
  }
  if (env.NODE_ENV === 'production' && env.STRIPE_API_URL?.trim().toLowerCase().startsWith('http:')) {
    lines.push('  STRIPE_API_URL: must be https when NODE_ENV=production');
  }
  if (parsed.success && parsed.data.HEADERS_TIMEOUT_MS > parsed.data.REQUEST_TIMEOUT_MS) {
    // The headers are part of the request: Node refuses a longer wait for them than for all of it.
    lines.push('  HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS');
  }
  if (env.LICENSE_SIGNING_KEY?.trim()) {
    try {
      parseLicenseSigningKey(env.LICENSE_SIGNING_KEY);
    } catch (err) {
      lines.push(`  LICENSE_SIGNING_KEY: ${(err as Error).message}`);
    }
  }
  if (!parsed.success || lines.length > 0) {
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const marketingUrl = e.MARKETING_URL.replace(/\/+$/, '');
  const downloadUrl = (ue: string) => `${marketingUrl}/downloads/sage-${DEFAULT_BUILD_VERSION}-ue${ue}.zip`;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const redirectUri = e.EPIC_REDIRECT_URI ?? `${publicUrl}/api/auth/callback`;
  const epic: EpicSettings | null =
    e.EPIC_CLIENT_ID && e.EPIC_CLIENT_SECRET
      ? {
          clientId: e.EPIC_CLIENT_ID,
          clientSecret: e.EPIC_CLIENT_SECRET,
          issuer: e.EPIC_ISSUER,
          authorizeUrl: e.EPIC_AUTHORIZE_URL,
          tokenUrl: e.EPIC_TOKEN_URL,
          userInfoUrl: e.EPIC_USERINFO_URL,
          scopes: e.EPIC_SCOPES,
          redirectUri,
        }
      : null;
  const analytics = e.POSTHOG_KEY
    ? {
        key: e.POSTHOG_KEY,
        host: e.POSTHOG_HOST.replace(/\/+$/, ''),
        excludedUserIds: [
          ...new Set(
            e.ANALYTICS_EXCLUDED_USER_IDS.split(',')
              .map((id) => id.trim())
              .filter(Boolean),
          ),
        ],
        ipLocationUrl: e.IP_LOCATION_URL,
      }
    : null;
  const development = e.NODE_ENV !== 'production' && isLocalhostUrl(publicUrl);
  const devIdentityProvider = !epic && development ? { port: e.DEV_IDP_PORT, redirectUri } : null;
  const dataDir = path.resolve(e.DATA_DIR);
  // No Stripe keys (one without the other is refused above): in development, a local stand-in bills.
  const devStripe =
    !e.STRIPE_SECRET_KEY && development ? { port: e.DEV_STRIPE_PORT, stateFile: path.join(dataDir, 'dev-stripe.json') } : null;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST || (e.NODE_ENV === 'production' ? '0.0.0.0' : 'localhost'),
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL,
    sessionIdleMs: e.SESSION_IDLE_DAYS * DAY_MS,
    sessionAbsoluteMs: e.SESSION_ABSOLUTE_DAYS * DAY_MS,
    staffSecondFactor: e.STAFF_SECOND_FACTOR,
    timeouts: { requestMs: e.REQUEST_TIMEOUT_MS, headersMs: e.HEADERS_TIMEOUT_MS, keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    licenseSigningKey: e.LICENSE_SIGNING_KEY || undefined,
    aiServiceToken: e.AI_SERVICE_TOKEN,
    usage: { freeQueriesPerMonth: e.FREE_QUERIES_PER_MONTH, retentionDays: e.USAGE_RETENTION_DAYS, holdMinutes: e.USAGE_HOLD_MINUTES },
    metrics: { allow: e.METRICS_ALLOW, token: e.METRICS_TOKEN },
    epic,
    devIdentityProvider,
    devStripe,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
        : null,
    analytics,
    runtime: {
      marketingUrl,
      supportEmail: e.SUPPORT_EMAIL,
      installationGuideUrl: e.INSTALLATION_GUIDE_URL ?? `${marketingUrl}/docs/installation`,
      defaultBuild: {
        version: DEFAULT_BUILD_VERSION,
        ue54Url: e.DEFAULT_BUILD_UE54_URL ?? downloadUrl('5.4'),
        ue55Url: e.DEFAULT_BUILD_UE55_URL ?? downloadUrl('5.5'),
        ue56Url: e.DEFAULT_BUILD_UE56_URL ?? downloadUrl('5.6'),
        ue57Url: e.DEFAULT_BUILD_UE57_URL ?? downloadUrl('5.7'),
      },
      epicSignIn: epic ? 'epic' : devIdentityProvider ? 'development' : 'unavailable',
      legacyLogin: e.LEGACY_LOGIN,
      analytics: analytics
        ? {
            key: analytics.key,
            apiHost: '/ingest',
            excludedUserIds: analytics.excludedUserIds,
            ipLocation: Boolean(analytics.ipLocationUrl),
          }
        : null,
    },
  };
}
