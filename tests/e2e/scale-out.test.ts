// Several instances behind nginx (issue 13): three compiled servers on one PostgreSQL database and
// one Redis, behind deploy/nginx.conf, balancing round-robin per request. Needs TEST_DATABASE_URL,
// TEST_REDIS_URL and Debian's nginx; .ci/run provides all three and requires the stories to run.
import { createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epicEnv, NGINX_PATH, requestThroughProxy, startCluster, type Cluster } from '../../scripts/localCluster';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../server/devIdentityProvider';
import { startSmtpCatcher, type SmtpCatcher } from '../fixtures/smtpCatcher';
import { startStripeServer, type StripeFixture } from '../fixtures/stripeServer';
import {
  control,
  E2E_REQUIRED,
  field,
  launchBrowser,
  registerThroughUi,
  signInThroughUi,
  startPluginClient,
  toast,
  uniqueEmail,
  waitForPath,
  watchPage,
} from './harness';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const missing = [
  !DATABASE_URL && 'TEST_DATABASE_URL',
  !REDIS_URL && 'TEST_REDIS_URL',
  !fs.existsSync(NGINX_PATH) && `nginx (${NGINX_PATH})`,
].filter(Boolean);
if (missing.length > 0 && E2E_REQUIRED) {
  throw new Error(`The multi-instance stories are required (E2E_REQUIRED=1) but ${missing.join(', ')} is missing; .ci/run provides them.`);
}

/** The AI service's token: stores chat messages, the write the restart story keeps sending. */
const AI_SERVICE_TOKEN = 'scale-out-ai-service-token-0123456789abcdef';

/** Which instance (upstream address) answered each logged request whose request line matches. */
function answeredBy(cluster: Cluster, requestLine: RegExp, since = 0): string[] {
  return cluster
    .accessLog()
    .slice(since)
    .filter((line) => requestLine.test(line))
    .map((line) => /upstream=(\S+)/.exec(line)?.[1] ?? '');
}

describe.skipIf(missing.length > 0)('three instances behind nginx', () => {
  let cluster: Cluster;
  let browser: Browser;
  let smtp: SmtpCatcher;
  let stripe: StripeFixture;
  let epic: DevIdentityProvider | undefined;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    stripe = await startStripeServer();
    // One Epic (the development identity provider, in this process) and one mail server for all.
    cluster = await startCluster({
      databaseUrl: DATABASE_URL ?? '',
      // A Redis database of its own: the cluster empties it so its rate limits start at zero.
      redisUrl: `${REDIS_URL ?? ''}/9`,
      env: async (publicUrl) => {
        epic = await startDevIdentityProvider({ port: 0, redirectUri: `${publicUrl}/api/auth/callback` });
        // Staff need no second factor here, as in every story but the rule's own (second-factor.test.ts).
        return { AI_SERVICE_TOKEN, SMTP_URL: smtp.url, STAFF_SECOND_FACTOR: 'optional', ...epicEnv(epic.settings), ...stripe.env };
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await cluster?.stop();
    await epic?.close();
    await stripe?.close();
    await smtp?.close();
  });

  /** A Chromium tab of its own that accepts the cluster's self-signed certificate. */
  async function story(name: string, steps: (page: Page) => Promise<void>) {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
    try {
      context.setDefaultTimeout(45_000);
      const page = await context.newPage();
      await watchPage(page).story(name, () => steps(page));
    } finally {
      await context.close();
    }
  }

  it('started all three at once on one database, and nginx spreads requests over them in turn', async () => {
    for (let i = 0; i < 6; i += 1) expect((await requestThroughProxy(cluster, { path: '/api/config' })).status).toBe(200);
    const upstreams = answeredBy(cluster, /"GET \/api\/config /);
    expect(new Set(upstreams)).toEqual(new Set(cluster.instances.map((i) => `127.0.0.1:${i.port}`)));
    // Round-robin per request: no instance answers twice in a row.
    for (let i = 1; i < upstreams.length; i += 1) expect(upstreams[i]).not.toBe(upstreams[i - 1]);
  });

  it('signs up and signs in by e-mail in Chromium, each request answered by whichever instance nginx picks', async () => {
    const email = uniqueEmail('scale-out');
    const since = cluster.accessLog().length;
    await story('sign up and sign in through nginx', async (page) => {
      await registerThroughUi(page, cluster.url, email, 'scale-out-password');
      await page.getByText(email, { exact: true }).waitFor();
      await control(page, 'Logout').click();
      await waitForPath(page, '/download');
      await signInThroughUi(page, cluster.url, email, 'scale-out-password');
      await page.getByText(email, { exact: true }).waitFor();
    });
    // Pages, assets and API calls of one signed-in browser were answered by all three: the session
    // one instance wrote, the others read.
    expect(new Set(answeredBy(cluster, /"(GET|POST) /, since)).size).toBe(3);
  });

  it('signs the plugin in with Epic and a verified e-mail across instances; its license verifies from any of them', async () => {
    const email = uniqueEmail('scale-out-plugin');
    const since = cluster.accessLog().length;
    // The plugin trusts the test certificate as a plugin trusts a real one.
    const plugin = startPluginClient(cluster.url, { NODE_EXTRA_CA_CERTS: cluster.certificateFile });
    try {
      await story('plugin hand-off through nginx', async (page) => {
        const loginUrl = (await plugin.waitForLine(/^Open this address in your browser to sign in:\n\s+(\S+)$/m))[1] ?? '';
        await page.goto(loginUrl);
        await page.getByLabel('Epic display name').fill(`Cluster Player ${Date.now()}`);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await waitForPath(page, '/epic_account_link');
        await field(page, 'Email Address').fill(email);
        await control(page, 'Continue').click();
        await waitForPath(page, '/email-verification');
        const link = (await smtp.waitForMail(email, 45_000)).links.find((l) => l.includes('/api/email/verify?token=')) ?? '';
        expect(link.startsWith(`${cluster.url}/api/email/verify?token=`)).toBe(true);
        const mailTab = await page.context().newPage();
        await mailTab.goto(link);
        await mailTab.getByRole('heading', { name: 'Email Verified' }).waitFor();
        await page.waitForURL((u) => u.pathname === '/login_completed', { timeout: 45_000 });
        await page.getByText(`Signed in as ${email}`, { exact: true }).waitFor();
      });
      const token = (await plugin.waitForLine(/^License token: (\S+)$/m))[1] ?? '';
      expect(await plugin.exited, plugin.output()).toBe(0);

      // The steps that carry the sign-in's state were answered by more than one instance.
      const steps = answeredBy(
        cluster,
        /"GET \/(api\/auth\/login|api\/auth\/callback|api\/email\/verify|login_completed|api\/auth\/ue-payload)[?/ ]/,
        since,
      );
      expect(steps.length).toBeGreaterThanOrEqual(5);
      expect(new Set(steps).size).toBeGreaterThan(1);

      // Each instance signs the license file; one public key verifies all three.
      const { publicKeyPem } = JSON.parse((await requestThroughProxy(cluster, { path: '/api/license/public-key' })).body) as {
        publicKeyPem: string;
      };
      const publicKey = createPublicKey(publicKeyPem);
      for (const instance of cluster.instances) {
        const res = await fetch(`${instance.url}/api/license`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        const file = (await res.json()) as { payload: string; signature: string };
        expect(verify(null, Buffer.from(file.payload, 'utf8'), publicKey, Buffer.from(file.signature, 'base64'))).toBe(true);
        expect(JSON.parse(file.payload)).toMatchObject({ licenseToken: token });
      }
    } finally {
      plugin.child.kill();
    }
  });

  it("starts a trial at checkout while Stripe's webhooks arrive at another instance than the browser", async () => {
    // Stripe posts to the last instance directly; the browser goes through nginx.
    const webhookInstance = cluster.instances[2];
    if (!webhookInstance) throw new Error('the cluster has fewer than three instances');
    stripe.deliverTo(`${webhookInstance.url}/api/stripe/webhook`);
    const plan = await stripe.addProduct(
      { name: 'Sage Pro', description: 'Sage in every project', metadata: { credits_amount: '1000' } },
      { emit: true },
    );
    await stripe.addPrice({ product: plan.id, unit_amount: 1999, currency: 'usd', recurring: { interval: 'month' } }, { emit: true });

    await story('checkout through nginx, webhook to another instance', async (page) => {
      await registerThroughUi(page, cluster.url, uniqueEmail('scale-out-trial'), 'scale-out-password');
      await page.goto(`${cluster.url}/products-checkout?client=web`);
      await control(page, 'Start Free Trial').click();
      await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/checkout/`));
      await control(page, 'Start trial').click();
      await waitForPath(page, '/dashboard');
      await toast(page, 'Subscription Updated').waitFor();
      await page.getByText('Trial Active', { exact: true }).waitFor();
    });
    expect(cluster.accessLog().some((line) => line.includes('/api/stripe/webhook'))).toBe(false);
    expect(webhookInstance.output()).not.toMatch(/"level":(50|60)/);
  });

  it("shows a build an admin released on one instance on every instance's /download", async () => {
    const email = uniqueEmail('scale-out-admin');
    const registered = await requestThroughProxy(cluster, {
      method: 'POST',
      path: '/api/register',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'scale-out-password' }),
    });
    expect(registered.status).toBe(201);
    const cookie = String(registered.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      await db.query('update users set is_admin = 1 where email = $1', [email]);
    } finally {
      await db.end();
    }
    const version = `9.${Date.now() % 1000}.0`;
    const released = await requestThroughProxy(cluster, {
      method: 'POST',
      path: '/api/admin/release-sage-build',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        version,
        ue55Url: 'https://example.com/55.zip',
        ue56Url: 'https://example.com/56.zip',
        ue57Url: 'https://example.com/57.zip',
      }),
    });
    expect(released.status, released.body).toBe(200);
    // Straight after, each instance in turn serves the page with the new build.
    for (const instance of cluster.instances) {
      const page = await fetch(`${instance.url}/download`);
      expect(await page.text()).toContain(version);
    }
  });

  it('counts a rate limit across the instances (Redis), not per instance', async () => {
    const email = uniqueEmail('scale-out-limit');
    const request = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) };
    // Three requests per e-mail an hour: one to each instance directly, so each has seen a single
    // one when the fourth arrives through nginx, whichever instance that reaches. (nginx's turn is
    // not counted on: a busy CI machine once saw two of three land on one instance.)
    const statuses = [];
    for (const instance of cluster.instances) statuses.push((await fetch(`${instance.url}/api/forgot-password`, request)).status);
    statuses.push((await requestThroughProxy(cluster, { ...request, path: '/api/forgot-password' })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('loses no request while an instance is restarted under load (out of rotation, drained by SIGTERM, back in)', async () => {
    const restarted = cluster.instances[1];
    if (!restarted) throw new Error('the cluster has fewer than three instances');
    const failures: string[] = [];
    const acknowledged: string[] = [];
    let sent = 0;
    let running = true;
    const sessionId = `restart-${Date.now()}`;
    // Readers and writers through nginx, back to back, until the restart is over.
    const worker = async (n: number) => {
      while (running) {
        sent += 1;
        const write = n % 2 === 0;
        try {
          const res = write
            ? await requestThroughProxy(cluster, {
                method: 'POST',
                path: '/api/ingest/messages',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${AI_SERVICE_TOKEN}` },
                body: JSON.stringify({ sessionId, message: { text: `write ${sent}` } }),
              })
            : await requestThroughProxy(cluster, { path: n % 3 === 0 ? '/download' : '/api/config' });
          if (res.status >= 300)
            failures.push(`${write ? 'POST /api/ingest/messages' : 'GET'} answered ${res.status}: ${res.body.slice(0, 200)}`);
          else if (write) acknowledged.push((JSON.parse(res.body) as { id: string }).id);
        } catch (err) {
          failures.push(err instanceof Error ? err.message : String(err));
        }
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, (_, n) => worker(n)));
    // Under load before the restart: some dozens of requests on their way or answered.
    await expect.poll(() => sent, { timeout: 45_000 }).toBeGreaterThan(50);
    // The rolling restart of docs/deploy.md: out of nginx's rotation, SIGTERM (the drain finishes
    // what it holds), start, ready, back in.
    await cluster.setDown(restarted.index, true);
    await restarted.stop();
    expect(restarted.running()).toBe(false);
    await restarted.start();
    // Back in only once it says it is ready (database and Redis answer).
    await expect.poll(async () => (await fetch(`${restarted.url}/readyz`)).status, { timeout: 45_000 }).toBe(200);
    await cluster.setDown(restarted.index, false);
    // Still under load once it is back in: until the restarted instance has answered its share.
    const backIn = cluster.accessLog().length;
    await expect
      .poll(() => answeredBy(cluster, /"(GET|POST) \//, backIn).filter((upstream) => upstream === `127.0.0.1:${restarted.port}`).length, {
        timeout: 45_000,
      })
      .toBeGreaterThan(10);
    running = false;
    await load;

    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(100);
    // Every acknowledged write is stored, whichever instance took it.
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      const stored = await db.query<{ id: string }>('select id from stored_messages where session_id = $1', [sessionId]);
      expect(new Set(stored.rows.map((r) => r.id))).toEqual(new Set(acknowledged));
    } finally {
      await db.end();
    }
    // The restarted instance is back in the rotation.
    const since = cluster.accessLog().length;
    for (let i = 0; i < 6; i += 1) await requestThroughProxy(cluster, { path: '/api/config' });
    expect(answeredBy(cluster, /"GET \/api\/config /, since)).toContain(`127.0.0.1:${restarted.port}`);
  });

  it('refuses oversized bodies and long redirects as the app would, without taking instances out of rotation', async () => {
    // A body over the app's 64 KiB, twenty times: each answered 413 in the API's shape.
    for (let i = 0; i < 20; i += 1) {
      const res = await requestThroughProxy(cluster, {
        method: 'POST',
        path: '/api/login',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(100_000) }),
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toEqual({ error: 'payload_too_large', message: 'The request body is too large' });
    }
    // A redirect that repeats a 5 kB query string in its Location header.
    const redirect = await requestThroughProxy(cluster, { path: `/?q=${'a'.repeat(5000)}` });
    expect(redirect.status).toBe(302);
    // Every instance still takes its turn.
    const since = cluster.accessLog().length;
    for (let i = 0; i < 6; i += 1) expect((await requestThroughProxy(cluster, { path: '/api/config' })).status).toBe(200);
    expect(new Set(answeredBy(cluster, /"GET \/api\/config /, since)).size).toBe(3);
  });
});
