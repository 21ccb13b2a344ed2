import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../server/db';
import { addressMatcher, createMetrics } from '../../server/plugins/metrics';
import type { SageApp } from '../../server/app';
import { signedInAdmin } from './adminFlow';
import { seedCatalogue, useBillingServer } from './billingFlow';
import {
  existingEpicUser,
  location,
  nthMail,
  pkcePair,
  pluginLoginUrl,
  signInWithEpic,
  signUpWithEpic,
  uniqueDisplayName,
} from './epicFlow';
import { buildExtraApp, databases, errorBody, PASSWORD, uniqueEmail, useTestServer, type TestDatabase } from './harness';

/** One sample of the text format: `name{label="value",…} number`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// Values are read as Go's ParseFloat reads them, NaN and Inf in any case (prom-client writes `Nan`).
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|nan|[+-]inf)$/i;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const FAMILY_SUFFIXES = ['_bucket', '_sum', '_count', ''];

/** Parses the exposition format strictly: every line a HELP, a TYPE or a sample of a declared family. */
function parse(text: string): { families: Map<string, string>; samples: Sample[] } {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      families.set(type[1]!, type[2]!);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const sample = SAMPLE.exec(line);
    expect(sample, `not a sample line: ${line}`).not.toBeNull();
    const [, name = '', rawLabels = '', value = ''] = sample!;
    const family = FAMILY_SUFFIXES.map((s) => (name.endsWith(s) ? name.slice(0, name.length - s.length) : '')).find((f) => families.has(f));
    expect(family, `sample of an undeclared family: ${line}`).toBeDefined();
    const labels = Object.fromEntries([...rawLabels.matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name, labels, value: /inf$/i.test(value) ? (value.startsWith('-') ? -Infinity : Infinity) : Number(value) });
  }
  return { families, samples };
}

/** The value of the sample `name` whose labels include `labels`; 0 when there is none yet. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found.reduce((sum, s) => sum + s.value, 0);
}

/** GET /metrics from loopback, parsed. */
async function scrape(app: SageApp) {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode, response.body).toBe(200);
  return parse(response.body);
}

/** Waits until `name{labels}` reaches `atLeast` (mails are counted once SMTP has answered). */
async function eventually(app: SageApp, name: string, labels: Record<string, string>, atLeast: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = valueOf((await scrape(app)).samples, name, labels);
    if (value >= atLeast) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${name} ${JSON.stringify(labels)} never reached ${atLeast}`);
}

/** A database of this kind whose queries are timed into `metrics`, as main.ts opens it. */
async function observedDatabase(
  database: TestDatabase,
  metrics: ReturnType<typeof createMetrics>,
): Promise<{ db: Db; dispose(): Promise<void> }> {
  if (database.kind === 'postgres') {
    // Only `select 1` and a failing query run: no schema of its own needed.
    const db = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: os.tmpdir(), onQuery: metrics.dbQuery });
    return { db, dispose: () => db.destroy() };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-metrics-'));
  const db = openDatabase({ dataDir, onQuery: metrics.dbQuery });
  await migrateToLatest(db);
  return {
    db,
    async dispose() {
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789';
const NOT_FOUND = { error: 'not_found', message: 'No such endpoint: GET /metrics' };

describe.each(databases)('GET /metrics on $label', (database) => {
  const server = useTestServer(database);
  const extraApps: SageApp[] = [];
  afterEach(async () => {
    for (const app of extraApps.splice(0)) await app.close();
  });
  const extraApp = async (...args: Parameters<typeof buildExtraApp>) => {
    const app = await buildExtraApp(...args);
    extraApps.push(app);
    return app;
  };

  it('answers the Prometheus text format with every family', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    const { families } = parse(response.body);
    expect(
      Object.fromEntries([...families].filter(([name]) => !name.startsWith('sage_process_') && !name.startsWith('sage_nodejs_'))),
    ).toEqual({
      sage_http_request_duration_seconds: 'histogram',
      sage_http_requests_in_flight: 'gauge',
      sage_db_query_duration_seconds: 'histogram',
      sage_sign_ins_total: 'counter',
      sage_rate_limit_refusals_total: 'counter',
      sage_mails_total: 'counter',
      sage_stripe_webhook_events_total: 'counter',
      sage_plugin_hand_offs_total: 'counter',
    });
    // The process's own: event-loop lag, heap and resident memory among them.
    for (const name of ['sage_nodejs_eventloop_lag_seconds', 'sage_nodejs_heap_size_used_bytes', 'sage_process_resident_memory_bytes']) {
      expect(families.get(name), name).toBe('gauge');
    }
  });

  it('times each request under its route pattern and status class, never its URL', async () => {
    const admin = await signedInAdmin(server());
    expect((await admin.client.get(`/api/admin/users/${admin.id}`)).statusCode).toBe(200);
    const missing = '00000000-0000-4000-8000-00000000abcd';
    expect((await admin.client.get(`/api/admin/users/${missing}`)).statusCode).toBe(404);
    expect((await server().client().get('/api/no-such-thing-7c1e')).statusCode).toBe(404);

    const response = await server().app.inject({ method: 'GET', url: '/metrics' });
    const { samples } = parse(response.body);
    const count = (labels: Record<string, string>) => valueOf(samples, 'sage_http_request_duration_seconds_count', labels);
    expect(count({ route: '/api/admin/users/:id', method: 'GET', status_class: '2xx' })).toBe(1);
    expect(count({ route: '/api/admin/users/:id', method: 'GET', status_class: '4xx' })).toBe(1);
    expect(count({ route: '/api/register', method: 'POST', status_class: '2xx' })).toBe(1);
    expect(count({ route: 'unmatched', method: 'GET', status_class: '4xx' })).toBe(1);
    for (const raw of [admin.id, missing, 'no-such-thing']) expect(response.body).not.toContain(raw);
    // This scrape is the one request in flight.
    expect(valueOf(samples, 'sage_http_requests_in_flight')).toBe(1);
  });

  it('counts password sign-ins by outcome and the login limit by name, not by address or e-mail', async () => {
    const email = uniqueEmail('metrics');
    const browser = server().client();
    await browser.register(email);
    expect((await browser.login(email, 'wrong-password')).statusCode).toBe(401);
    expect((await browser.login(email)).statusCode).toBe(200);
    let failures = 1;
    for (;;) {
      const response = await browser.login(email, 'wrong-password');
      if (response.statusCode === 429) break;
      expect(response.statusCode).toBe(401);
      failures += 1;
    }
    const { samples } = await scrape(server().app);
    expect(valueOf(samples, 'sage_sign_ins_total', { method: 'password', outcome: 'success' })).toBe(1);
    expect(valueOf(samples, 'sage_sign_ins_total', { method: 'password', outcome: 'failure' })).toBe(failures);
    expect(valueOf(samples, 'sage_rate_limit_refusals_total', { limit: 'login' })).toBe(1);
    expect(samples.filter((s) => s.name === 'sage_rate_limit_refusals_total').map((s) => s.labels)).toEqual([{ limit: 'login' }]);
  });

  it('counts limits enforced by key prefix', async () => {
    // forgot-password allows 3 requests an hour per e-mail.
    const browser = server().client();
    const email = uniqueEmail('nobody');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await browser.post('/api/forgot-password', { email })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(valueOf((await scrape(server().app)).samples, 'sage_rate_limit_refusals_total', { limit: 'forgot' })).toBe(1);
  });

  it('counts mails sent, and failed deliveries', async () => {
    const email = uniqueEmail('mail');
    await server().client().register(email);
    expect((await server().client().post('/api/forgot-password', { email })).statusCode).toBe(200);
    await nthMail(server(), email);
    expect(await eventually(server().app, 'sage_mails_total', { outcome: 'sent' }, 1)).toBe(1);

    const broken = await extraApp(server().db, {}, { mailer: { send: async () => Promise.reject(new Error('SMTP is down')) } });
    expect((await broken.inject({ method: 'POST', url: '/api/forgot-password', payload: { email } })).statusCode).toBe(200);
    expect(await eventually(broken, 'sage_mails_total', { outcome: 'failed' }, 1)).toBe(1);
    expect(valueOf((await scrape(broken)).samples, 'sage_mails_total', { outcome: 'sent' })).toBe(0);
  });

  it('counts Epic sign-ins by outcome', async () => {
    // Signed up (link, verification, callback-internal), then signed in again with the same account.
    const { displayName } = await existingEpicUser(server());
    expect(location(await signInWithEpic(server().client(), displayName))).toBe('/login_completed?client=web');
    // A callback no sign-in of this browser asked for.
    expect(location(await server().client().get('/api/auth/callback?code=x&state=forged'))).toBe(
      '/authentication_failed?reason=state_mismatch',
    );
    const { samples } = await scrape(server().app);
    expect(valueOf(samples, 'sage_sign_ins_total', { method: 'epic', outcome: 'success' })).toBe(2);
    expect(valueOf(samples, 'sage_sign_ins_total', { method: 'epic', outcome: 'failure' })).toBe(1);
  });

  it('counts plugin hand-offs by outcome', async () => {
    const pkce = pkcePair();
    const browser = server().client();
    const loginUrl = pluginLoginUrl({ code_challenge: pkce.challenge });
    const completed = await signUpWithEpic(server(), browser, {
      displayName: uniqueDisplayName('Plugin'),
      email: uniqueEmail('plugin'),
      loginUrl,
    });
    expect(location(completed)).toBe('/login_completed?client=ue');
    const issue = async () => (await browser.post('/api/auth/ue-store-payload')).json<{ code: string }>().code;
    const redeem = (code: string, verifier: string) =>
      server()
        .client()
        .get(`/api/auth/ue-payload?${new URLSearchParams({ code, code_verifier: verifier }).toString()}`);

    expect((await redeem(await issue(), pkcePair().verifier)).statusCode).toBe(400);
    const code = await issue();
    expect((await redeem(code, pkce.verifier)).statusCode).toBe(200);
    expect((await redeem(code, pkce.verifier)).statusCode).toBe(400);
    // A browser without a plugin request.
    const web = server().client();
    await web.register(uniqueEmail('web'));
    expect((await web.post('/api/auth/ue-store-payload')).statusCode).toBe(403);

    const { samples } = await scrape(server().app);
    const handOffs = Object.fromEntries(
      samples.filter((s) => s.name === 'sage_plugin_hand_offs_total').map((s) => [s.labels.outcome, s.value]),
    );
    expect(handOffs).toEqual({ issued: 2, wrong_verifier: 1, redeemed: 1, invalid_code: 1, refused: 1 });
  });

  it('times database queries by database and outcome, without their SQL', async () => {
    const metrics = createMetrics();
    const observed = await observedDatabase(database, metrics);
    try {
      const app = await extraApp(observed.db, {}, { metrics });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      await expect(sql`select * from sage_no_such_table`.execute(observed.db)).rejects.toThrow();
      const response = await app.inject({ method: 'GET', url: '/metrics' });
      const { samples } = parse(response.body);
      expect(valueOf(samples, 'sage_db_query_duration_seconds_count', { database: database.kind, outcome: 'ok' })).toBeGreaterThanOrEqual(
        1,
      );
      expect(valueOf(samples, 'sage_db_query_duration_seconds_count', { database: database.kind, outcome: 'error' })).toBe(1);
      expect(response.body).not.toContain('sage_no_such_table');
    } finally {
      await observed.dispose();
    }
  });

  it('answers loopback (IPv4, IPv6, IPv4-mapped) and refuses other addresses as an unknown path', async () => {
    const { app } = server();
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress })).statusCode, remoteAddress).toBe(200);
    }
    for (const remoteAddress of ['203.0.113.9', '10.0.0.1', '::2', '::ffff:203.0.113.9']) {
      const response = await app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect(response.statusCode, remoteAddress).toBe(404);
      expect(errorBody(response)).toEqual(NOT_FOUND);
    }
    // Relayed by a proxy on this machine that TRUST_PROXY does not name: the client may be anyone.
    const relayed = await app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(relayed.statusCode).toBe(404);
  });

  it('judges the client behind a trusted proxy by its forwarded address', async () => {
    const app = await extraApp(server().db, { TRUST_PROXY: '1' });
    const from = (client: string) => app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': client } });
    expect((await from('203.0.113.9')).statusCode).toBe(404);
    expect((await from('127.0.0.1')).statusCode).toBe(200);
  });

  it('takes the addresses METRICS_ALLOW names and METRICS_TOKEN as a bearer token', async () => {
    const app = await extraApp(server().db, { METRICS_ALLOW: '10.0.0.0/8', METRICS_TOKEN });
    const get = (remoteAddress: string, authorization?: string) =>
      app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: authorization ? { authorization } : {} });
    expect((await get('10.20.30.40')).statusCode).toBe(200);
    expect((await get('127.0.0.1')).statusCode).toBe(404);
    expect((await get('203.0.113.9', `Bearer ${METRICS_TOKEN}`)).statusCode).toBe(200);
    for (const authorization of [`Bearer ${METRICS_TOKEN}x`, `Bearer ${METRICS_TOKEN.slice(1)}`, 'Bearer ', `Basic ${METRICS_TOKEN}`]) {
      const response = await get('203.0.113.9', authorization);
      expect(response.statusCode, authorization).toBe(404);
      expect(errorBody(response)).toEqual(NOT_FOUND);
    }

    // No address at all: the token only.
    const tokenOnly = await extraApp(server().db, { METRICS_ALLOW: '', METRICS_TOKEN });
    expect((await tokenOnly.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect(
      (await tokenOnly.inject({ method: 'GET', url: '/metrics', headers: { authorization: `bearer ${METRICS_TOKEN}` } })).statusCode,
    ).toBe(200);
  });

  it('keeps the counts of each app to itself', async () => {
    await server().client().login(uniqueEmail('nobody'), PASSWORD);
    const other = await extraApp(server().db);
    expect(valueOf((await scrape(server().app)).samples, 'sage_sign_ins_total', { outcome: 'failure' })).toBe(1);
    expect(valueOf((await scrape(other)).samples, 'sage_sign_ins_total', { outcome: 'failure' })).toBe(0);
  });
});

describe.each(databases)('Stripe webhook metrics on $label', (database) => {
  const { server, stripe } = useBillingServer(database);

  it('counts deliveries by event type and outcome; refused signatures as unverified', async () => {
    await seedCatalogue(stripe());
    await stripe().settle();
    const [productEvent] = [...stripe().events.values()].filter((e) => e.type === 'product.created').slice(-1);
    expect(await stripe().redeliver(productEvent!)).toBe(200);
    expect(await stripe().redeliver(productEvent!, { signature: 'garbage' })).toBe(400);

    const { samples } = await scrape(server().app);
    const count = (type: string, outcome: string) => valueOf(samples, 'sage_stripe_webhook_events_total', { type, outcome });
    expect(count('product.created', 'applied')).toBe(2);
    expect(count('price.created', 'applied')).toBe(3);
    expect(count('product.created', 'duplicate')).toBe(1);
    expect(count('unverified', 'invalid_signature')).toBe(1);
  });
});

describe('METRICS_ALLOW matching', () => {
  it('knows the range names TRUST_PROXY takes and single addresses', () => {
    const allowed = addressMatcher(['uniquelocal', '198.51.100.7', '2001:db8::/32']);
    expect(
      ['10.1.2.3', '172.31.0.1', '192.168.0.9', 'fd12::1', '198.51.100.7', '2001:db8::5', '::ffff:10.0.0.1'].filter((a) => !allowed(a)),
    ).toEqual([]);
    expect(['172.32.0.1', '198.51.100.8', '127.0.0.1', '::1', '2001:db9::1', 'not-an-address', ''].filter(allowed)).toEqual([]);
    expect(addressMatcher([])('127.0.0.1')).toBe(false);
  });
});
