/**
 * Staff refund a credit pack through Stripe (issue 26): Stripe refunds the Checkout payment, the
 * pack's unspent credits are taken back under the user's credit lock, and the refund is audited.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CreditPackPurchase, CreditPackRefunded } from '../../contract/usage';
import { refundableCredits } from '../../server/services/metering/packRefunds';
import { signedInAdmin } from './adminFlow';
import { creditBalance, seedCatalogue, sessionIdOf, signedInUser, startCheckout, useBillingServer, type Customer } from './billingFlow';
import { buildExtraApp, databases, errorBody, TestClient } from './harness';

describe('refundableCredits', () => {
  it.each([
    { pack: 500, balance: 500, taken: 500 },
    { pack: 500, balance: 380, taken: 380 },
    { pack: 500, balance: 1200, taken: 500 },
    { pack: 500, balance: 0, taken: 0 },
    { pack: 500, balance: -5, taken: 0 },
  ])('takes $taken of a $pack-credit pack from a balance of $balance', ({ pack, balance, taken }) => {
    expect(refundableCredits(pack, balance)).toBe(taken);
  });
});

describe.each(databases)('credit pack refunds on $label', (database) => {
  const { server, stripe } = useBillingServer(database);

  /** A pack bought through the fixture's Checkout; answers its Checkout session id. */
  async function buyPack(buyer: Customer): Promise<string> {
    const catalogue = await seedCatalogue(stripe());
    const sessionId = sessionIdOf(await startCheckout(buyer, catalogue.pack.price, catalogue.pack.id));
    await stripe().completeCheckoutSession(sessionId);
    return sessionId;
  }

  /** Spends `units` through the ingestion API with the buyer's license token. */
  async function spend(buyer: Customer, units: number): Promise<void> {
    const { license_token: token } = await server()
      .db.selectFrom('users')
      .select('license_token')
      .where('id', '=', buyer.userId)
      .executeTakeFirstOrThrow();
    const plugin = server().client({ authorization: `Bearer ${token}` });
    const response = await plugin.post('/api/ingest/usage', { requestId: randomUUID(), units });
    expect(response.statusCode, response.body).toBe(201);
  }

  async function purchases(client: TestClient, userId: string): Promise<CreditPackPurchase[]> {
    const response = await client.get(`/api/admin/users/${userId}/credit-packs`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ purchases: CreditPackPurchase[] }>().purchases;
  }

  const refundUrl = (userId: string, purchaseId: string) => `/api/admin/users/${userId}/credit-packs/${purchaseId}/refund`;
  const refundCalls = () => stripe().requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');

  it('refunds the payment at Stripe and takes back only the unspent credits, audited, once', async () => {
    const admin = await signedInAdmin(server());
    const buyer = await signedInUser(server());
    const sessionId = await buyPack(buyer);
    await spend(buyer, 120);

    const [before] = await purchases(admin.client, buyer.userId);
    expect(before).toMatchObject({ credits: 500, unspent: 380, refundedAt: null });
    const purchaseId = before!.id;

    const calls = refundCalls().length;
    const response = await admin.client.post(refundUrl(buyer.userId, purchaseId));
    expect(response.statusCode, response.body).toBe(200);
    const refunded = response.json<CreditPackRefunded>();
    expect(refunded).toMatchObject({ credits: 0, reversed: 380, used: 120, purchase: { id: purchaseId, credits: 500, unspent: 0 } });
    expect(refunded.purchase.refundedAt).toEqual(expect.any(String));
    expect(await creditBalance(server().db, buyer.userId)).toBe(0);

    // Stripe refunded the whole payment of the session, once, under the purchase's idempotency key.
    const paymentIntent = stripe().checkoutSessions.get(sessionId)!.payment_intent!;
    const refunds = [...stripe().refunds.values()].filter((r) => r.payment_intent === paymentIntent);
    expect(refunds).toEqual([
      expect.objectContaining({ amount: 999, status: 'succeeded', metadata: { user_id: buyer.userId, credit_purchase_id: purchaseId } }),
    ]);
    expect(
      refundCalls()
        .slice(calls)
        .map((r) => r.idempotencyKey),
    ).toEqual([`sage-credit-pack-refund-${purchaseId}`]);

    const audit = await server()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', buyer.userId)
      .where('action', '=', 'user.credits.refund')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, actor_email: admin.email, target_type: 'user' });
    expect(JSON.parse(audit[0]!.before_json!)).toEqual({ credits: 380 });
    expect(JSON.parse(audit[0]!.after_json!)).toEqual({
      credits: 0,
      purchaseId,
      packCredits: 500,
      reversed: 380,
      used: 120,
      paymentIntent,
      refund: refunds[0]!.id,
    });

    expect(await purchases(admin.client, buyer.userId)).toEqual([refunded.purchase]);

    const again = await admin.client.post(refundUrl(buyer.userId, purchaseId));
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).error).toBe('already_refunded');
    expect(refundCalls().length).toBe(calls + 1);
    expect(await creditBalance(server().db, buyer.userId)).toBe(0);
  });

  it('takes back the whole pack when none of it was used, and nothing more than the pack', async () => {
    const admin = await signedInAdmin(server());
    const buyer = await signedInUser(server());
    await buyPack(buyer);
    await buyPack(buyer);
    await spend(buyer, 300);

    const listed = await purchases(admin.client, buyer.userId);
    expect(listed.map((p) => p.unspent)).toEqual([500, 500]);
    const first = (await admin.client.post(refundUrl(buyer.userId, listed[0]!.id))).json<CreditPackRefunded>();
    expect(first).toMatchObject({ credits: 200, reversed: 500, used: 0 });
    // Credits are fungible: the 300 used now count against the other pack.
    expect((await purchases(admin.client, buyer.userId)).map((p) => p.unspent)).toEqual([0, 200]);
  });

  it('converges when Stripe had already refunded the payment (an earlier attempt the database missed)', async () => {
    const admin = await signedInAdmin(server());
    const buyer = await signedInUser(server());
    const sessionId = await buyPack(buyer);
    const paymentIntent = stripe().checkoutSessions.get(sessionId)!.payment_intent!;
    const earlier = await stripe().client().refunds.create({ payment_intent: paymentIntent });
    // Stripe itself refuses a second refund of the same charge.
    await expect(stripe().client().refunds.create({ payment_intent: paymentIntent })).rejects.toMatchObject({
      statusCode: 400,
      code: 'charge_already_refunded',
    });

    const [purchase] = await purchases(admin.client, buyer.userId);
    const response = await admin.client.post(refundUrl(buyer.userId, purchase!.id));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<CreditPackRefunded>()).toMatchObject({ credits: 0, reversed: 500, used: 0 });
    expect([...stripe().refunds.values()].filter((r) => r.payment_intent === paymentIntent)).toHaveLength(1);
    const audit = await server()
      .db.selectFrom('audit_log')
      .select('after_json')
      .where('target_id', '=', buyer.userId)
      .where('action', '=', 'user.credits.refund')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after_json!)).toMatchObject({ refund: earlier.id });
  });

  it('is the same refund at Stripe when retried after Stripe answered but the database did not record it', async () => {
    const admin = await signedInAdmin(server());
    const buyer = await signedInUser(server());
    const sessionId = await buyPack(buyer);
    const paymentIntent = stripe().checkoutSessions.get(sessionId)!.payment_intent!;
    const [purchase] = await purchases(admin.client, buyer.userId);
    // The first attempt's call, as the server makes it; its transaction then failed.
    const first = await stripe()
      .client()
      .refunds.create(
        { payment_intent: paymentIntent, metadata: { user_id: buyer.userId, credit_purchase_id: purchase!.id } },
        { idempotencyKey: `sage-credit-pack-refund-${purchase!.id}` },
      );

    const response = await admin.client.post(refundUrl(buyer.userId, purchase!.id));
    expect(response.statusCode, response.body).toBe(200);
    expect([...stripe().refunds.values()].filter((r) => r.payment_intent === paymentIntent).map((r) => r.id)).toEqual([first.id]);
    expect(await creditBalance(server().db, buyer.userId)).toBe(0);
  });

  it('refunds once when two refunds of the same pack cross', async () => {
    const admin = await signedInAdmin(server());
    const buyer = await signedInUser(server());
    await buyPack(buyer);
    const [purchase] = await purchases(admin.client, buyer.userId);

    const answers = await Promise.all([1, 2].map(() => admin.client.post(refundUrl(buyer.userId, purchase!.id))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect([...stripe().refunds.values()].filter((r) => r.metadata.credit_purchase_id === purchase!.id)).toHaveLength(1);
    expect(await creditBalance(server().db, buyer.userId)).toBe(0);
  });

  it('answers 404 for an unknown purchase or one of another user, and 409 for a pack Stripe has no payment for', async () => {
    const admin = await signedInAdmin(server());
    const buyer = await signedInUser(server());
    const other = await signedInUser(server(), 'other');
    await buyPack(buyer);
    const [purchase] = await purchases(admin.client, buyer.userId);

    const unknown = await admin.client.post(refundUrl(buyer.userId, randomUUID()));
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).error).toBe('not_found');
    expect((await admin.client.post(refundUrl(other.userId, purchase!.id))).statusCode).toBe(404);
    expect((await admin.client.get(`/api/admin/users/${randomUUID()}/credit-packs`)).statusCode).toBe(404);
    expect(await purchases(admin.client, other.userId)).toEqual([]);

    // A pack credited without a Checkout session Stripe knows (imported, or a test's grant).
    const id = randomUUID();
    await server()
      .db.insertInto('credit_ledger')
      .values({ id, user_id: other.userId, amount: 50, reason: 'Credit pack', source: `checkout:cs_test_${id}`, created_at: Date.now() })
      .execute();
    const unpaid = await admin.client.post(refundUrl(other.userId, id));
    expect(unpaid.statusCode).toBe(409);
    expect(errorBody(unpaid).error).toBe('not_refundable');
    expect(await creditBalance(server().db, other.userId)).toBe(50);
  });

  it('is for admins only', async () => {
    const buyer = await signedInUser(server());
    await buyPack(buyer);
    const admin = await signedInAdmin(server());
    const [purchase] = await purchases(admin.client, buyer.userId);

    expect((await buyer.client.get(`/api/admin/users/${buyer.userId}/credit-packs`)).statusCode).toBe(403);
    const calls = refundCalls().length;
    const refused = await buyer.client.post(refundUrl(buyer.userId, purchase!.id));
    expect(refused.statusCode).toBe(403);
    expect(refundCalls().length).toBe(calls);
    expect(await creditBalance(server().db, buyer.userId)).toBe(500);
  });

  it('says so when Stripe is not configured', async () => {
    const admin = await signedInAdmin(server());
    const buyer = await signedInUser(server());
    await buyPack(buyer);
    const [purchase] = await purchases(admin.client, buyer.userId);

    const offline = await buildExtraApp(server().db);
    try {
      const response = await new TestClient(offline, { cookie: `sage_session=${admin.client.session}` }).post(
        refundUrl(buyer.userId, purchase!.id),
      );
      expect(response.statusCode).toBe(503);
      expect(errorBody(response)).toEqual({ error: 'billing_not_configured', message: 'Billing is not set up on this server' });
    } finally {
      await offline.close();
    }
    expect(await creditBalance(server().db, buyer.userId)).toBe(500);
  });
});
