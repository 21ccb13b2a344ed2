// `npm start` without Stripe keys: the development stand-in started as main.ts starts it, a real
// app listening on loopback, webhooks over HTTP. A newcomer finds the catalogue, buys a pack on the
// hosted Checkout page and is credited; a plan's trial shows its invoice; a restart keeps it all.
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type SageApp } from '../../server/app';
import { startDevStripe, type DevStripe, type DevStripeLog } from '../../server/devStripe/start';
import { createMemoryRateLimiter } from '../../server/services/rateLimiter';
import { creditBalance, WEB_CANCEL_URL, WEB_SUCCESS_URL } from './billingFlow';
import { databases, TEST_SCRYPT_COST, TestClient, testConfig, uniqueEmail, type OpenedDatabase } from './harness';

interface Logged {
  level: keyof DevStripeLog;
  msg: string;
}

describe.each(databases)('billing against the development Stripe stand-in on $label', (database) => {
  let opened: OpenedDatabase;
  /** DATA_DIR of the test's `npm start`: the stand-in's state is kept there. */
  let dataDir: string;
  let devStripe: DevStripe | undefined;
  let app: SageApp | undefined;
  const logged: Logged[] = [];
  const log: DevStripeLog = {
    info: (msg) => logged.push({ level: 'info', msg }),
    warn: (msg) => logged.push({ level: 'warn', msg }),
    error: (msg) => logged.push({ level: 'error', msg }),
  };

  /** What main.ts does: the stand-in first, billing configured from it, then the app, then webhooks to it. */
  async function start(): Promise<{ stripe: DevStripe; app: SageApp }> {
    const stripe = (devStripe = await startDevStripe({ port: 0, stateFile: path.join(dataDir, 'dev-stripe.json') }));
    const config = { ...testConfig({ DATA_DIR: dataDir }), stripe: stripe.settings };
    app = await buildApp({
      config,
      db: opened.db,
      mailer: { send: async () => undefined },
      rateLimiter: createMemoryRateLimiter(),
      scryptCost: TEST_SCRYPT_COST,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await stripe.connect(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, log);
    return { stripe, app };
  }

  async function stop() {
    await app?.close();
    await devStripe?.close();
    app = devStripe = undefined;
  }

  async function signedIn(running: SageApp) {
    const client = new TestClient(running);
    await client.register(uniqueEmail('newcomer'));
    const me = (await client.get('/api/user')).json<{ id: string }>();
    return { client, userId: me.id };
  }

  /** `create-checkout-session`, then the browser on the hosted page: Pay (or Start trial), and back. */
  async function buy(client: TestClient, priceId: string, productId: string) {
    const answer = await client.post('/api/stripe/create-checkout-session', {
      priceId,
      productId,
      successUrl: WEB_SUCCESS_URL,
      cancelUrl: WEB_CANCEL_URL,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const page = new URL(answer.json<{ url: string }>().url);
    expect(page.origin).toBe(devStripe?.url);
    expect((await fetch(page)).status).toBe(200);
    const paid = await fetch(`${page.href}/complete`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(/^http:\/\/sage\.test\/api\/stripe\/subscription-update-success\?/);
  }

  beforeAll(async () => {
    opened = await database.open();
  });
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-dev-stripe-'));
    logged.length = 0;
  });
  afterEach(async () => {
    await stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await opened.dispose();
  });

  it('offers the seeded plans and credit packs as soon as the app listens', async () => {
    const { app } = await start();
    const { products } = (await app.inject({ method: 'GET', url: '/api/stripe/products' })).json<{
      products: { id: string; name: string; metadata: Record<string, string>; prices: { id: string; recurring: unknown }[] }[];
    }>();
    const byId = new Map(products.map((p) => [p.id, p]));
    expect([...byId.keys()].sort()).toEqual(['prod_sage_pack_2000', 'prod_sage_pack_500', 'prod_sage_pro', 'prod_sage_unlimited']);
    expect(byId.get('prod_sage_pro')).toMatchObject({ name: 'Sage Pro', metadata: { credits_amount: '1000', popular: 'true' } });
    expect(
      byId
        .get('prod_sage_pro')
        ?.prices.map((p) => p.id)
        .sort(),
    ).toEqual(['price_sage_pro_monthly', 'price_sage_pro_yearly']);
    expect(byId.get('prod_sage_unlimited')?.metadata.credits_amount).toBe('unlimited');
    expect(byId.get('prod_sage_pack_500')).toMatchObject({ metadata: { credits_amount: '500' }, prices: [{ recurring: null }] });
    expect(byId.get('prod_sage_pack_2000')).toMatchObject({ metadata: { credits_amount: '2000' }, prices: [{ recurring: null }] });
    expect(logged.filter((l) => l.level !== 'info')).toEqual([]);
  });

  it('credits a pack paid on the hosted Checkout page, by the webhook it sends the app', async () => {
    const { app } = await start();
    const { client, userId } = await signedIn(app);
    await buy(client, 'price_sage_pack_500', 'prod_sage_pack_500');
    // No return to the app yet (the browser would follow the 303): only the webhook has credited it.
    expect(await creditBalance(opened.db, userId)).toBe(500);
  });

  it('starts a plan’s trial whose invoice the account shows, and keeps customers and catalogue across a restart', async () => {
    let running = await start();
    const { client, userId } = await signedIn(running.app);
    await buy(client, 'price_sage_pro_monthly', 'prod_sage_pro');
    const subscriptions = (await client.get('/api/stripe/user-subscriptions')).json<{ subscriptions: { status: string }[] }>();
    expect(subscriptions.subscriptions.map((s) => s.status)).toEqual(['trialing']);
    const invoices = (await client.get('/api/account/invoices')).json<{ invoices: { hostedInvoiceUrl: string }[] }>().invoices;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]?.hostedInvoiceUrl.startsWith(`${running.stripe.url}/invoice/`)).toBe(true);

    await stop();
    running = await start();
    const again = new TestClient(running.app);
    again.cookies.set('sage_session', client.session ?? '');
    // The customer made before the restart is still Stripe's: a pack is bought with it, and the
    // invoice's page is served at the new address.
    await buy(again, 'price_sage_pack_2000', 'prod_sage_pack_2000');
    expect(await creditBalance(opened.db, userId)).toBe(2000);
    expect(running.stripe.stripe.customers.size).toBe(1);
    const [invoice] = (await again.get('/api/account/invoices')).json<{ invoices: { hostedInvoiceUrl: string }[] }>().invoices;
    expect((await fetch(invoice?.hostedInvoiceUrl ?? '')).status).toBe(200);
    expect(running.stripe.stripe.products.size).toBe(4);
    expect(running.stripe.stripe.prices.size).toBe(6);
  });
});

describe('the development Stripe stand-in on its own', () => {
  let dataDir: string;
  let devStripe: DevStripe | undefined;
  const logged: string[] = [];
  const log: DevStripeLog = { info: () => undefined, warn: (msg) => logged.push(msg), error: (msg) => logged.push(msg) };

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-dev-stripe-'));
    logged.length = 0;
  });
  afterEach(async () => {
    await devStripe?.close();
    devStripe = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers again, later, a webhook the app failed, and logs the failure', async () => {
    const received: string[] = [];
    const app = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: string };
        // The first delivery of each event meets an app that is not ready.
        res.writeHead(received.includes(id) ? 200 : 503).end();
        received.push(id);
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    try {
      devStripe = await startDevStripe({ port: 0, stateFile: path.join(dataDir, 'dev-stripe.json') });
      await devStripe.connect(`http://127.0.0.1:${(app.address() as AddressInfo).port}`, log);
      // The catalogue's 10 events (4 products, 6 prices), each refused once.
      expect(received).toHaveLength(10);
      expect(logged).toHaveLength(10);
      expect(logged[0]).toMatch(/answered 503 to product\.updated evt_/);
      await expect.poll(() => received.length, { timeout: 3_000, interval: 100 }).toBe(20);
      expect(new Set(received).size).toBe(10);
    } finally {
      app.closeAllConnections();
      await new Promise((resolve) => app.close(resolve));
    }
  });

  it('sets aside a state file it cannot read and starts afresh, saying so once the app listens', async () => {
    const stateFile = path.join(dataDir, 'dev-stripe.json');
    fs.writeFileSync(stateFile, JSON.stringify({ version: 0 }));
    devStripe = await startDevStripe({ port: 0, stateFile });
    expect(devStripe.stripe.products.size).toBe(4);
    expect(fs.readFileSync(`${stateFile}.unreadable`, 'utf8')).toBe('{"version":0}');
    expect(JSON.parse(fs.readFileSync(stateFile, 'utf8'))).toMatchObject({ version: 2, baseUrl: devStripe.url });
    expect(logged).toEqual([]);
    // Nothing listens on the discard port: the catalogue's announcement fails, as logged after the note.
    await devStripe.connect('http://127.0.0.1:9', log);
    expect(logged[0]).toMatch(/could not be restored .*set aside as .*dev-stripe\.json\.unreadable, started afresh/);
  });
});
