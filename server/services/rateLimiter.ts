import type { Redis } from 'ioredis';
import { EXPORTS_PER_HOUR } from '../../contract/accountData';

export interface RateLimitRule {
  /** How many attempts the window allows. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  retryAfterMs: number;
}

/**
 * Fixed-window counters, in memory by default or in Redis so several servers share them.
 * An attempt is counted, atomically, before the work it guards: N attempts in flight at once see
 * N different counts, so at most `limit` of them go ahead. A rule that counts only some outcomes
 * (sign-in failures per account) counts every attempt and gives the others back afterwards.
 */
export interface RateLimiter {
  /** Counts one attempt; `allowed` is false once the window holds more than `rule.limit`. */
  hit(key: string, rule: RateLimitRule): Promise<RateLimitResult>;
  /** Takes back one counted attempt that the rule turned out not to count (never below zero). */
  giveBack(key: string): Promise<void>;
  /**
   * Whether the shared store answers (GET /readyz); absent when the counters live in this process.
   * Redis is the only shared store, so readiness reports a failure here as `redis`.
   */
  ping?(): Promise<boolean>;
  close(): Promise<void>;
}

/** The attempts allowed on sign-in, registration and password reset, per client IP and per e-mail. */
export const AUTH_RATE_LIMITS = {
  loginPerIp: { limit: 30, windowMs: 15 * 60_000 },
  loginPerEmail: { limit: 10, windowMs: 15 * 60_000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60_000 },
  registerPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  forgotPerIp: { limit: 10, windowMs: 60 * 60_000 },
  forgotPerEmail: { limit: 3, windowMs: 60 * 60_000 },
  resetPerIp: { limit: 20, windowMs: 60 * 60_000 },
  /** Starting an Epic sign-in writes a row: bounded per address. */
  epicStartPerIp: { limit: 60, windowMs: 15 * 60_000 },
  /** check-exists and link answer whether an e-mail has an account. */
  emailLookupPerIp: { limit: 30, windowMs: 15 * 60_000 },
  /** …and per Epic account, so a throwaway account gets few questions wherever it asks from. */
  emailLookupPerEpicAccount: { limit: 20, windowMs: 60 * 60_000 },
  verificationSendPerIp: { limit: 10, windowMs: 60 * 60_000 },
  verificationSendPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  /** The waiting page polls every 3 s: 20 a minute, with room for a second tab. */
  verificationStatusPerIp: { limit: 600, windowMs: 15 * 60_000 },
  verificationLinkPerIp: { limit: 30, windowMs: 15 * 60_000 },
  pluginExchangePerIp: { limit: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/**
 * Passkeys (issue 40). A sign-in's answer counts against sign-in's own rules (AUTH_RATE_LIMITS:
 * the address's, and the account's once its passkey is known). Asking for a sign-in's options
 * writes a challenge: bounded per address; adding, renaming or removing one per user.
 */
export const PASSKEY_RATE_LIMITS = {
  signInOptionsPerIp: { limit: 60, windowMs: 15 * 60_000 },
  changesPerUser: { limit: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/** The `/ingest` proxy to PostHog, per browser address. */
export const ANALYTICS_RATE_LIMITS = {
  proxyPerIp: { limit: 600, windowMs: 60_000 },
} satisfies Record<string, RateLimitRule>;

/** The plugin fetching its signed license file with its license token. */
export const LICENSE_RATE_LIMITS = {
  perIp: { limit: 60, windowMs: 60_000 },
} satisfies Record<string, RateLimitRule>;

/**
 * The plugin's update check (issue 41): public, so bounded per address. Installs ask at start and
 * hourly, but a studio's artists share one address and start the editor together in the morning.
 */
export const PLUGIN_UPDATE_RATE_LIMITS = {
  perIp: { limit: 300, windowMs: 60_000 },
} satisfies Record<string, RateLimitRule>;

/** The release e-mails' one-click unsubscribe (issue 41), per address: a mail provider posts once per mail. */
export const RELEASE_EMAIL_RATE_LIMITS = {
  unsubscribesPerIp: { limit: 30, windowMs: 60_000 },
} satisfies Record<string, RateLimitRule>;

/** The ingestion API, per caller (the service token, or one user's license token). */
export const INGESTION_RATE_LIMITS = {
  perLicenseToken: { limit: 600, windowMs: 60_000 },
  perIp: { limit: 100, windowMs: 60_000 },
} satisfies Record<string, RateLimitRule>;

/** Billing writes each create a Stripe session (or re-read Stripe): generous for a person, bounded for a script. */
export const BILLING_RATE_LIMITS = {
  writesPerUser: { limit: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/** A customer's own password and license (issue 27), per signed-in user. */
export const ACCOUNT_SECURITY_RATE_LIMITS = {
  /** Like sign-in's per-account rule: counted before scrypt; a success gives its attempt back. */
  passwordChangePerUser: { limit: 10, windowMs: 15 * 60_000 },
  /** Each reissue signs every plugin install out: a few an hour is plenty for a person. */
  licenseReissuePerUser: { limit: 5, windowMs: 60 * 60_000 },
  /** Two-step sign-in's codes and proofs (confirm, turn off, new recovery codes): counted first, a success gives its attempt back. */
  secondFactorPerUser: { limit: 10, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/** Changing the account's e-mail (issue 27): each request mails a link and may check a password. */
export const ACCOUNT_EMAIL_RATE_LIMITS = {
  requestsPerUser: { limit: 5, windowMs: 60 * 60_000 },
  requestsPerIp: { limit: 20, windowMs: 60 * 60_000 },
  /** The mail's link, opened by anyone: as the verification link. */
  linkPerIp: { limit: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/** The account's invoices are read from Stripe on each request: plenty for a person, bounded for a script. */
export const ACCOUNT_INVOICE_RATE_LIMITS = {
  readsPerUser: { limit: 60, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/** The customer's data (issue 27), per signed-in user. */
export const ACCOUNT_DATA_RATE_LIMITS = {
  /** Each download reads every row the user has. */
  exportsPerUser: { limit: EXPORTS_PER_HOUR, windowMs: 60 * 60_000 },
  /** Each attempt may check a password with scrypt: no guessing through the deletion. */
  deletionAttemptsPerUser: { limit: 10, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/** Invitations to an organisation (issue 38): each mails a link to an address someone typed. */
export const ORG_INVITATION_RATE_LIMITS = {
  mailsPerOrg: { limit: 100, windowMs: 60 * 60_000 },
  /** The mail's link, opened and accepted by anyone holding it: as the e-mail change link. */
  linkPerIp: { limit: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, rule) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + rule.windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { allowed: w.count <= rule.limit, retryAfterMs: Math.max(0, w.resetAt - now) };
    },
    async giveBack(key) {
      const w = windows.get(key);
      if (w && w.resetAt > Date.now() && w.count > 0) w.count -= 1;
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

/** DECR when the key exists and is above zero, in one step. */
const GIVE_BACK = "if tonumber(redis.call('get', KEYS[1]) or '0') > 0 then redis.call('decr', KEYS[1]) end return 0";

export function createRedisRateLimiter(redis: Redis, prefix = 'sage:rl:'): RateLimiter {
  return {
    async hit(key, rule) {
      const k = prefix + key;
      const result = await redis.multi().set(k, 0, 'PX', rule.windowMs, 'NX').incr(k).pttl(k).exec();
      const count = Number(result?.[1]?.[1] ?? 0);
      const ttl = Number(result?.[2]?.[1] ?? rule.windowMs);
      return { allowed: count <= rule.limit, retryAfterMs: Math.max(0, ttl) };
    },
    async giveBack(key) {
      // Only a window that still exists: a bare DECR would make a key without an expiry.
      await redis.eval(GIVE_BACK, 1, prefix + key);
    },
    async ping() {
      // While ioredis reconnects it queues commands: ask only a connected client.
      if (redis.status !== 'ready') return false;
      return (await redis.ping()) === 'PONG';
    },
    async close() {
      await redis.quit();
    },
  };
}
