import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BUILD_VERSION } from '../contract/builds';

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

/**
 * Every environment variable the server reads, with the embedded defaults that make
 * `npm ci && npm start` work on a fresh machine. The README's configuration table mirrors this.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
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
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(7),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
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
  trustProxy: boolean;
  logLevel: string;
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
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Parses the environment; throws one readable error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const marketingUrl = e.MARKETING_URL.replace(/\/+$/, '');
  const downloadUrl = (ue: string) =>
    `${marketingUrl}/downloads/sage-${DEFAULT_BUILD_VERSION}-ue${ue}.zip`;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL,
    sessionIdleMs: e.SESSION_IDLE_DAYS * DAY_MS,
    sessionAbsoluteMs: e.SESSION_ABSOLUTE_DAYS * DAY_MS,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
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
    },
  };
}
