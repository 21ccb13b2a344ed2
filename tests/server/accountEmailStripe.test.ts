/**
 * A confirmed e-mail change, and a staff edit of the address in the console, reach the user's Stripe
 * customer (issue 27, docs/account-email-and-invoices.md), where receipts and invoices are sent.
 * Stripe is the Stripe-compatible test server; "Stripe down" is an app whose Stripe address is a
 * closed port.
 */
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { createBillingService } from '../../server/services/billing';
import { createStripeGateway } from '../../server/services/billing/stripeGateway';
import { put, signedInAdmin, uniqueTag } from './adminFlow';
import { seedCatalogue, signedInUser, subscribe, useBillingServer, type Customer } from './billingFlow';
import { closedLoopbackPort, location, nthMail, pathOf } from './epicFlow';
import { buildExtraApp, databases, PASSWORD, TestClient, uniqueEmail, type TestServer } from './harness';

/** Opened signed out: the sign-in page says the address changed. */
const CHANGED = '/login?emailChange=changed';

/** Asks for `newEmail` and answers the path of the link mailed to it. */
async function requestChange(server: TestServer, customer: Customer, newEmail: string): Promise<string> {
  const asked = await customer.client.post('/api/account/email', { newEmail, currentPassword: PASSWORD });
  expect(asked.statusCode, asked.body).toBe(200);
  const link = (await nthMail(server, newEmail)).links.find((l) => l.includes('/api/account/email/confirm?token='));
  if (!link) throw new Error(`no change link mailed to ${newEmail}`);
  return pathOf(link);
}

describe.each(databases)('the account e-mail at Stripe on $label', (database) => {
  const { server, stripe } = useBillingServer(database);

  const customerRowOrNone = (userId: string) =>
    server().db.selectFrom('billing_customers').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const customerRow = (userId: string) =>
    server().db.selectFrom('billing_customers').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  const emailOf = async (userId: string) =>
    (await server().db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
  const customerUpdates = (customerId: string) =>
    stripe().requests.filter((r) => r.method === 'POST' && r.path === `/v1/customers/${customerId}`);

  /** Stripe's customer got the user's new address, once, with an idempotency key, and no send is pending. */
  async function expectStripeGot(customerId: string, userId: string, newEmail: string) {
    await vi.waitFor(async () => expect((await customerRow(userId)).email_outdated_since).toBeNull());
    expect(stripe().customers.get(customerId)?.email).toBe(newEmail);
    const updates = customerUpdates(customerId);
    expect(updates.map((u) => u.params)).toEqual([{ email: newEmail }]);
    expect(updates[0]?.idempotencyKey).toMatch(new RegExp(`^sage-customer-email-${customerId}-\\d+-\\d+$`));
  }

  /** The billing service of another server, whose Stripe is at `env.STRIPE_API_URL`: its hourly retry. */
  const billingOver = (env: Record<string, string>, onError: (err: unknown, step: string) => void) => {
    const settings = { ...server().config.stripe!, apiUrl: env.STRIPE_API_URL ?? '' };
    return createBillingService({
      db: server().db,
      gateway: createStripeGateway(settings, onError),
      publicUrl: server().config.publicUrl,
      extraOrigins: [],
      onError,
    });
  };

  /** A signed-in user with a subscription, hence a Stripe customer made with their first address. */
  async function subscriber(): Promise<{ customer: Customer; customerId: string }> {
    const customer = await signedInUser(server(), 'payer');
    await subscribe(stripe(), customer, await seedCatalogue(stripe()));
    const { customer_id: customerId } = await customerRow(customer.userId);
    expect(stripe().customers.get(customerId)?.email).toBe(customer.email);
    return { customer, customerId };
  }

  it("sends the confirmed address to the user's Stripe customer, once, with an idempotency key", async () => {
    const { customer, customerId } = await subscriber();
    const newEmail = uniqueEmail('receipts');
    const link = await requestChange(server(), customer, newEmail);
    // Asking changes nothing at Stripe: the link may never be opened.
    expect(customerUpdates(customerId)).toEqual([]);

    expect(location(await server().client().get(link))).toBe(CHANGED);
    expect(await emailOf(customer.userId)).toBe(newEmail);
    await expectStripeGot(customerId, customer.userId, newEmail);
  });

  it('sends nothing to Stripe for a user without a Stripe customer', async () => {
    const customer = await signedInUser(server(), 'no-customer');
    const newEmail = uniqueEmail('no-customer-new');
    const link = await requestChange(server(), customer, newEmail);
    const before = stripe().requests.length;
    expect(location(await server().client().get(link))).toBe(CHANGED);
    expect(await emailOf(customer.userId)).toBe(newEmail);
    // Nothing was marked, so nothing is sent: not now, nor by a retry.
    expect(stripe().requests.slice(before)).toEqual([]);
    expect(await customerRowOrNone(customer.userId)).toBeUndefined();
  });

  it('changes our address while Stripe is down, and sends it to Stripe on the next retry', async () => {
    const { customer, customerId } = await subscriber();
    const newEmail = uniqueEmail('while-down');
    const link = await requestChange(server(), customer, newEmail);

    const down = { ...stripe().env, STRIPE_API_URL: `http://127.0.0.1:${await closedLoopbackPort()}` };
    const app = await buildExtraApp(server().db, down);
    try {
      expect(location(await new TestClient(app).get(link))).toBe(CHANGED);
    } finally {
      await app.close(); // waits for its failed send to Stripe
    }
    // Our change is made and audited; Stripe still has the old address, and the customer is marked.
    expect(await emailOf(customer.userId)).toBe(newEmail);
    const audit = await server()
      .db.selectFrom('audit_log')
      .select(['action', 'after_json'])
      .where('target_id', '=', customer.userId)
      .execute();
    expect(audit).toEqual([{ action: 'account.email.change', after_json: JSON.stringify({ email: newEmail }) }]);
    expect((await customerRow(customer.userId)).email_outdated_since).not.toBeNull();
    expect(stripe().customers.get(customerId)?.email).toBe(customer.email);
    expect(customerUpdates(customerId)).toEqual([]);

    // The hourly retry while Stripe is still down: it fails again, is logged without the secret key, and stays marked.
    const logged: string[] = [];
    const record = (err: unknown, step: string) => logged.push(`${step} ${inspect(err, { depth: 8 })}`);
    expect(await billingOver(down, record).customerEmails.sendOutdated()).toMatchObject({ sent: 0 });
    expect(logged.some((line) => line.includes(`Stripe customer ${customerId}`))).toBe(true);
    for (const line of logged) expect(line).not.toContain(stripe().secretKey);
    expect((await customerRow(customer.userId)).email_outdated_since).not.toBeNull();

    // Stripe is back: the retry sends the account's address, and the mark is cleared.
    const back = await billingOver(stripe().env, () => undefined).customerEmails.sendOutdated();
    expect(back.failed).toBe(0);
    expect(back.sent).toBeGreaterThanOrEqual(1);
    expect(stripe().customers.get(customerId)?.email).toBe(newEmail);
    expect((await customerRow(customer.userId)).email_outdated_since).toBeNull();
    expect(customerUpdates(customerId).map((u) => u.params)).toEqual([{ email: newEmail }]);
  });

  it('sends the latest address when a second change is confirmed before Stripe took the first', async () => {
    const { customer, customerId } = await subscriber();
    const first = uniqueEmail('first');
    const down = await buildExtraApp(server().db, {
      ...stripe().env,
      STRIPE_API_URL: `http://127.0.0.1:${await closedLoopbackPort()}`,
    });
    try {
      expect(location(await new TestClient(down).get(await requestChange(server(), customer, first)))).toBe(CHANGED);
    } finally {
      await down.close();
    }
    // The second change goes through the app whose Stripe answers: the customer gets the latest address.
    const second = uniqueEmail('second');
    expect(
      location(
        await server()
          .client()
          .get(await requestChange(server(), customer, second)),
      ),
    ).toBe(CHANGED);
    await vi.waitFor(async () => expect((await customerRow(customer.userId)).email_outdated_since).toBeNull());
    expect(stripe().customers.get(customerId)?.email).toBe(second);
    expect(customerUpdates(customerId).map((u) => u.params)).toEqual([{ email: second }]);
  });

  describe('a staff edit in the console', () => {
    const edit = (admin: { client: TestClient }, customer: Customer, email: string, username = uniqueTag('staff-edit')) =>
      put(admin.client, `/api/admin/users/${customer.userId}`, { username, email });

    it("sends the new address to the user's Stripe customer, once, with an idempotency key", async () => {
      const { customer, customerId } = await subscriber();
      const admin = await signedInAdmin(server());
      const newEmail = uniqueEmail('staff-set');
      const edited = await edit(admin, customer, `  ${newEmail.toUpperCase()} `);
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await emailOf(customer.userId)).toBe(newEmail);
      await expectStripeGot(customerId, customer.userId, newEmail);
    });

    it('sends nothing to Stripe for an edit that keeps the address', async () => {
      const { customer, customerId } = await subscriber();
      const admin = await signedInAdmin(server());
      const before = stripe().requests.length;
      // The same address, spelled as the console may send it: the edit changes the username only.
      const username = uniqueTag('renamed');
      const edited = await edit(admin, customer, customer.email.toUpperCase(), username);
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json<{ username: string }>().username).toBe(username);
      expect((await customerRow(customer.userId)).email_outdated_since).toBeNull();
      expect(stripe().requests.slice(before)).toEqual([]);
      expect(stripe().customers.get(customerId)?.email).toBe(customer.email);
    });

    it('sends nothing to Stripe for a user without a Stripe customer', async () => {
      const customer = await signedInUser(server(), 'staff-no-customer');
      const admin = await signedInAdmin(server());
      const before = stripe().requests.length;
      const newEmail = uniqueEmail('staff-no-customer-new');
      const edited = await edit(admin, customer, newEmail);
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await emailOf(customer.userId)).toBe(newEmail);
      expect(stripe().requests.slice(before)).toEqual([]);
      expect(await customerRowOrNone(customer.userId)).toBeUndefined();
    });

    it('commits the edit, its audit entry and the mark while Stripe is down, and the retry sends the address', async () => {
      const { customer, customerId } = await subscriber();
      const admin = await signedInAdmin(server());
      const newEmail = uniqueEmail('staff-while-down');
      const app = await buildExtraApp(server().db, { ...stripe().env, STRIPE_API_URL: `http://127.0.0.1:${await closedLoopbackPort()}` });
      try {
        const staffClient = new TestClient(app);
        for (const [name, value] of admin.client.cookies) staffClient.cookies.set(name, value);
        const edited = await edit({ client: staffClient }, customer, newEmail);
        expect(edited.statusCode, edited.body).toBe(200);
      } finally {
        await app.close(); // waits for its failed send to Stripe
      }
      expect(await emailOf(customer.userId)).toBe(newEmail);
      const audit = await server().db.selectFrom('audit_log').select('action').where('target_id', '=', customer.userId).execute();
      expect(audit).toEqual([{ action: 'user.update' }]);
      expect((await customerRow(customer.userId)).email_outdated_since).not.toBeNull();
      expect(stripe().customers.get(customerId)?.email).toBe(customer.email);

      const back = await billingOver(stripe().env, () => undefined).customerEmails.sendOutdated();
      expect(back.failed).toBe(0);
      expect(stripe().customers.get(customerId)?.email).toBe(newEmail);
      expect((await customerRow(customer.userId)).email_outdated_since).toBeNull();
      expect(customerUpdates(customerId).map((u) => u.params)).toEqual([{ email: newEmail }]);
    });
  });
});
