// Several instances behind nginx (issue 13): three compiled servers on one PostgreSQL database and
// one Redis, behind deploy/nginx.conf, balancing round-robin per request. Needs TEST_DATABASE_URL,
// TEST_REDIS_URL and Debian's nginx; .ci/run provides all three and requires the stories to run.
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX_PATH, requestThroughProxy, startCluster, type Cluster } from '../../scripts/localCluster';
import { control, E2E_REQUIRED, launchBrowser, registerThroughUi, signInThroughUi, uniqueEmail, waitForPath, watchPage } from './harness';

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

/** Which instance (upstream address) answered each logged request whose request line matches. */
function answeredBy(cluster: Cluster, requestLine: RegExp, since = 0): string[] {
  return cluster.accessLog()
    .slice(since)
    .filter((line) => requestLine.test(line))
    .map((line) => /upstream=(\S+)/.exec(line)?.[1] ?? '');
}

describe.skipIf(missing.length > 0)('three instances behind nginx', () => {
  let cluster: Cluster;
  let browser: Browser;

  beforeAll(async () => {
    // A Redis database of its own: the cluster empties it so its rate limits start at zero.
    cluster = await startCluster({ databaseUrl: DATABASE_URL ?? '', redisUrl: `${REDIS_URL ?? ''}/9` });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await cluster?.stop();
  });

  it('started all three at once on one database, and nginx spreads requests over them in turn', async () => {
    for (let i = 0; i < 6; i += 1) expect((await requestThroughProxy(cluster, { path: '/api/config' })).status).toBe(200);
    const upstreams = answeredBy(cluster, /"GET \/api\/config /);
    expect(new Set(upstreams)).toEqual(new Set(cluster.instances.map((i) => `127.0.0.1:${i.port}`)));
    // Round-robin per request: no instance answers twice in a row.
    for (let i = 1; i < upstreams.length; i += 1) expect(upstreams[i]).not.toBe(upstreams[i - 1]);
  });

  it('signs up and signs in by e-mail in Chromium, each request answered by whichever instance nginx picks', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
    try {
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const { story } = watchPage(page);
      const email = uniqueEmail('scale-out');
      const since = cluster.accessLog().length;
      await story('sign up and sign in through nginx', async () => {
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
    } finally {
      await context.close();
    }
  });

  it('counts a rate limit across the instances (Redis), not per instance', async () => {
    const email = uniqueEmail('scale-out-limit');
    const ask = () =>
      requestThroughProxy(cluster, {
        method: 'POST',
        path: '/api/forgot-password',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    // Three requests per e-mail an hour, spread over three instances: each instance alone has
    // seen at most one when the fourth arrives.
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await ask()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(new Set(answeredBy(cluster, /"POST \/api\/forgot-password /).slice(-4).slice(0, 3)).size).toBe(3);
  });
});
