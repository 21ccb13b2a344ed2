/**
 * A confirmed e-mail change reaches the user's Stripe customer (issue 27,
 * docs/account-email-and-invoices.md), where receipts and invoices are sent. Stripe is the
 * Stripe-compatible test server; "Stripe down" is an app whose Stripe address is a closed port.
 */
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { createBillingService } from '../../server/services/billing';
import { createStripeGateway } from '../../server/services/billing/stripeGateway';
import { seedCatalogue, signedInUser, subscribe, useBillingServer, type Customer } from './billingFlow';
import { closedLoopbackPort, location, nthMail, pathOf } from './epicFlow';
import { buildExtraApp, databases, PASSWORD, TestClient, uniqueEmail, type TestServer } from './harness';

const CHANGED = '/dashboard?emailChange=changed#account';

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

  const customerRow = (userId: string) =>
    server().db.selectFrom('billing_customers').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  const emailOf = async (userId: string) =>
    (await server().db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
  const customerUpdates = (customerId: string) =>
    stripe().requests.filter((r) => r.method === 'POST' && r.path === `/v1/customers/${customerId}`);

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
    await vi.waitFor(async () => expect((await customerRow(customer.userId)).email_outdated_since).toBeNull());
    expect(stripe().customers.get(customerId)?.email).toBe(newEmail);
    const updates = customerUpdates(customerId);
    expect(updates.map((u) => u.params)).toEqual([{ email: newEmail }]);
    expect(updates[0]?.idempotencyKey).toMatch(new RegExp(`^sage-customer-email-${customerId}-\\d+-\\d+$`));
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
    expect(
      await server().db.selectFrom('billing_customers').select('user_id').where('user_id', '=', customer.userId).executeTakeFirst(),
    ).toBeUndefined();
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
});
