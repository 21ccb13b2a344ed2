/**
 * Builds the real app for server tests, on every database the run has:
 * SQLite always (a fresh file per suite) and PostgreSQL when TEST_DATABASE_URL is set (a fresh
 * schema per suite, dropped afterwards). Mail goes through the real mailer to an in-process SMTP
 * server.
 *
 *   describe.each(databases)('sign-in on $label', (database) => {
 *     const server = useTestServer(database);
 *     it('…', async () => {
 *       const browser = server().client();
 *       await browser.post('/api/register', { email, password });
 *     });
 *   });
 *
 * The database, the SMTP catcher and the development identity provider (the stand-in for Epic that
 * `npm start` uses, server/devIdentityProvider.ts) live for the whole suite; the app (and with it
 * the in-memory rate limiter) is built afresh for every test, so counters never leak between tests.
 * Every app signs in with Epic through that provider; tests/server/epicFlow.ts drives it. Tests use
 * `uniqueEmail()` so that rows of earlier tests in the suite do not matter.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { buildApp, type AppDeps, type SageApp } from '../../server/app';
import { loadConfig, type Config, type EpicSettings } from '../../server/config';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../server/devIdentityProvider';
import { migrateToLatest, openDatabase, type Db } from '../../server/db';
import { mailerFromConfig, type Mailer } from '../../server/services/mailer';
import type { ScryptCost } from '../../server/services/passwords';
import { createMemoryRateLimiter } from '../../server/services/rateLimiter';
import { createPostgresSchema } from '../../scripts/postgresSchema';
import { startSmtpCatcher, type SmtpCatcher } from '../fixtures/smtpCatcher';

/** Cheap enough for hundreds of hashes per run; production uses DEFAULT_SCRYPT_COST. */
export const TEST_SCRYPT_COST: ScryptCost = { N: 1024, r: 8, p: 1 };
export const PUBLIC_URL = 'http://sage.test';
/** Where the identity provider sends the browser back (EPIC_REDIRECT_URI's default). */
export const EPIC_CALLBACK_URL = `${PUBLIC_URL}/api/auth/callback`;
export const PASSWORD = 'correct-horse-battery';

export interface OpenedDatabase {
  db: Db;
  /** Closes the connection and removes the file or schema. */
  dispose(): Promise<void>;
}

export interface TestDatabase {
  kind: 'sqlite' | 'postgres';
  label: string;
  /** A fresh, empty, migrated database. */
  open(): Promise<OpenedDatabase>;
}

const sqlite: TestDatabase = {
  kind: 'sqlite',
  label: 'SQLite',
  async open() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-test-'));
    const db = openDatabase({ dataDir });
    await migrateToLatest(db);
    return {
      db,
      async dispose() {
        await db.destroy();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

export { withSearchPath } from '../../scripts/postgresSchema';

function postgres(baseUrl: string): TestDatabase {
  return {
    kind: 'postgres',
    label: 'PostgreSQL',
    async open() {
      const schema = await createPostgresSchema(baseUrl, 't');
      const db = openDatabase({ databaseUrl: schema.url, dataDir: os.tmpdir() });
      await migrateToLatest(db);
      return {
        db,
        async dispose() {
          await db.destroy();
          await schema.drop();
        },
      };
    },
  };
}

/** Every database this run tests against. */
export const databases: TestDatabase[] = process.env.TEST_DATABASE_URL ? [sqlite, postgres(process.env.TEST_DATABASE_URL)] : [sqlite];

let emailCounter = 0;
/** An address no other test of the run uses. */
export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}-${emailCounter}-${randomBytes(3).toString('hex')}@example.com`;
}

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
type Headers = Record<string, string>;

export interface RequestOptions {
  /** Sent as JSON (content-type application/json) unless `payload` is given. */
  json?: unknown;
  /** A raw body, sent as is with whatever content-type `headers` say. */
  payload?: string | Buffer;
  headers?: Headers;
}

/**
 * A browser-like client over `app.inject`: keeps the cookies the server sets (and drops the ones
 * it clears) and sends them back on every request.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: SageApp,
    private readonly defaultHeaders: Headers = {},
  ) {}

  async request(method: Method, url: string, opts: RequestOptions = {}): Promise<LightMyRequestResponse> {
    const headers: Headers = { ...this.defaultHeaders, ...opts.headers };
    const inject: InjectOptions = { method, url, headers };
    if (opts.payload !== undefined) {
      inject.payload = opts.payload;
    } else if (opts.json !== undefined) {
      inject.payload = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    if (this.cookies.size > 0 && !('cookie' in headers)) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const response = await this.app.inject(inject);
    for (const cookie of response.cookies) {
      const expired =
        cookie.value === '' ||
        (cookie.maxAge !== undefined && cookie.maxAge <= 0) ||
        (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, opts?: RequestOptions) {
    return this.request('GET', url, opts);
  }

  post(url: string, json?: unknown, opts: RequestOptions = {}) {
    return this.request('POST', url, { ...opts, json });
  }

  /** Registers and stays signed in (the register answer sets the session cookie). */
  async register(email: string, password = PASSWORD): Promise<LightMyRequestResponse> {
    const response = await this.post('/api/register', { email, password });
    if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
    return response;
  }

  async login(email: string, password = PASSWORD, rememberMe?: boolean): Promise<LightMyRequestResponse> {
    return this.post('/api/login', { email, password, ...(rememberMe === undefined ? {} : { rememberMe }) });
  }

  /** The session cookie's current value, if any. */
  get session(): string | undefined {
    return this.cookies.get('sage_session');
  }
}

export interface TestServer {
  app: SageApp;
  db: Db;
  config: Config;
  smtp: SmtpCatcher;
  database: TestDatabase;
  /** The suite's stand-in for Epic; null when the suite was started with `{ epic: false }`. */
  identityProvider: DevIdentityProvider | null;
  /** A new client with its own cookie jar. */
  client(defaultHeaders?: Headers): TestClient;
  /**
   * A further app over the suite's database and mail, with other Epic settings: `epic` is merged
   * over the identity provider's settings, or null for "Epic not configured". Closed after the test.
   */
  appWithEpic(epic: Partial<EpicSettings> | null): Promise<{ app: SageApp; client(defaultHeaders?: Headers): TestClient }>;
}

export interface TestServerOptions {
  /** Start the development identity provider and sign in with Epic through it (default true). */
  epic?: boolean;
}

/**
 * DATA_DIR of apps whose test names none: outside the working copy, so no test leaves files (the
 * generated license signing key) in the `./data` that `npm start` uses.
 */
const DEFAULT_TEST_DATA_DIR = path.join(os.tmpdir(), 'sage-test-default-data');

/** The environment the test app is configured with; `env` overrides or adds variables. */
export function testConfig(env: Record<string, string> = {}): Config {
  // Staff need no second factor in tests but those of that rule, which set STAFF_SECOND_FACTOR=required.
  return loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL,
    LOG_LEVEL: 'silent',
    DATA_DIR: DEFAULT_TEST_DATA_DIR,
    STAFF_SECOND_FACTOR: 'optional',
    ...env,
  });
}

/**
 * A further app over `db` with its own configuration (`env`) and deps, mail dropped: for tests of
 * settings or start-up behaviour the suite's app does not have. The caller closes it.
 */
export function buildExtraApp(db: AppDeps['db'], env: Record<string, string> = {}, deps: Partial<AppDeps> = {}): Promise<SageApp> {
  return buildApp({
    config: testConfig(env),
    db,
    mailer: { send: async () => undefined },
    rateLimiter: createMemoryRateLimiter(),
    scryptCost: TEST_SCRYPT_COST,
    ...deps,
  });
}

/**
 * Registers vitest hooks that give each test of the enclosing describe a freshly built app over
 * the suite's database. Call the returned function inside a test (or a later hook).
 */
export function useTestServer(
  database: TestDatabase,
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: TestServerOptions = {},
): () => TestServer {
  let opened: OpenedDatabase | undefined;
  let smtp: SmtpCatcher | undefined;
  let provider: DevIdentityProvider | null = null;
  let dataDir: string | undefined;
  let current: TestServer | undefined;
  const extraApps: SageApp[] = [];

  beforeAll(async () => {
    opened = await database.open();
    smtp = await startSmtpCatcher();
    if (options.epic !== false) provider = await startDevIdentityProvider({ port: 0, redirectUri: EPIC_CALLBACK_URL });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-test-data-'));
  });

  afterAll(async () => {
    await provider?.close();
    await smtp?.close();
    await opened?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function appWith(config: Config, db: Db, mailer: Mailer): Promise<SageApp> {
    const app = await buildApp({ config, db, mailer, rateLimiter: createMemoryRateLimiter(), scryptCost: TEST_SCRYPT_COST });
    await app.ready();
    return app;
  }

  /** The suite's configuration with these Epic settings (as main.ts does for the dev provider). */
  function withEpic(config: Config, epic: EpicSettings | null): Config {
    const epicSignIn = epic === null ? 'unavailable' : epic === provider?.settings ? 'development' : 'epic';
    return { ...config, epic, runtime: { ...config.runtime, epicSignIn } };
  }

  beforeEach(async () => {
    if (!opened || !smtp || !dataDir) throw new Error('test server not set up');
    // A function for settings known only once the suite's hooks have run (a fixture's port).
    const base = testConfig({ SMTP_URL: smtp.url, DATA_DIR: dataDir, ...(typeof env === 'function' ? env() : env) });
    const config = provider && !base.epic ? withEpic(base, provider.settings) : base;
    const mailer = mailerFromConfig(config, { info: () => undefined });
    const db = opened.db;
    const app = await appWith(config, db, mailer);
    current = {
      app,
      db,
      config,
      smtp,
      database,
      identityProvider: provider,
      client: (headers) => new TestClient(app, headers),
      async appWithEpic(epic) {
        const settings = epic === null ? null : { ...(provider?.settings ?? ({} as EpicSettings)), ...epic };
        const extra = await appWith(withEpic(config, settings), db, mailer);
        extraApps.push(extra);
        return { app: extra, client: (headers?: Headers) => new TestClient(extra, headers) };
      },
    };
  });

  afterEach(async () => {
    await current?.app.close();
    for (const extra of extraApps.splice(0)) await extra.close();
    current = undefined;
  });

  return () => {
    if (!current) throw new Error('useTestServer(): call the accessor inside a test');
    return current;
  };
}

/** The `{ error, message }` body every API failure has. */
export function errorBody(response: LightMyRequestResponse): { error: string; message: string } {
  return response.json<{ error: string; message: string }>();
}
