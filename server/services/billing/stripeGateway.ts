import Stripe from 'stripe';
import { z } from 'zod';
import type { StripeSettings } from '../../config';
import { AppError } from '../../errors';

/**
 * Every call the product makes to Stripe, and the only module that imports its SDK: the rest of
 * billing sees the plain records below ("what do we ask Stripe for" has one answer).
 */

export interface CatalogueProduct {
  id: string;
  name: string;
  description: string | null;
  images: string[];
  active: boolean;
  metadata: Record<string, string>;
}

export interface CataloguePrice {
  id: string;
  productId: string;
  active: boolean;
  unitAmount: number | null;
  currency: string;
  recurring: { interval: string; intervalCount: number } | null;
}

/** A subscription as Stripe describes it now, with its first item's price and product. */
export interface SubscriptionState {
  id: string;
  customerId: string;
  status: string;
  itemId: string;
  /** The first item's quantity: an organisation's plan counts its seats here. */
  quantity: number;
  price: CataloguePrice;
  product: { id: string; name: string; description: string | null };
  cancelAt: number | null;
  cancelAtPeriodEnd: boolean;
  trialEnd: number | null;
  currentPeriodStart: number | null;
  currentPeriodEnd: number | null;
  defaultPaymentMethod: string | null;
  created: number;
  metadata: Record<string, string>;
  /** When the read began (epoch ms): a slower, older read must not overwrite a newer one. */
  fetchedAt: number;
}

export interface CheckoutSessionState {
  id: string;
  mode: string;
  complete: boolean;
  paid: boolean;
  customerId: string | null;
  subscriptionId: string | null;
  /** The card a setup-mode session saved. */
  setupPaymentMethod: string | null;
  /** The card a payment-mode session was paid with and saved for later payments (`setup_future_usage`). */
  savedPaymentMethod: string | null;
  metadata: Record<string, string>;
}

/** An invoice as a webhook re-reads it (automatic top-up's are the product's own, with its metadata). */
export interface InvoiceState {
  id: string;
  customerId: string;
  status: string;
  /** A subscription's invoice names it. */
  subscriptionId: string | null;
  metadata: Record<string, string>;
}

/** What automatic top-up asks Stripe for: one pack on an invoice, paid now with the saved card. */
export interface TopUpOrder {
  /** The idempotency key of the crossing: every request of one top-up derives its own from it. */
  key: string;
  customerId: string;
  paymentMethod: string;
  priceId: string;
  currency: string;
  description: string;
  metadata: Record<string, string>;
}

/** How a top-up's payment went: paid, or refused by the card (Stripe's code and words). */
export type TopUpCharge = { paid: true; invoiceId: string } | { paid: false; invoiceId: string; code: string | undefined; message: string };

/** A Checkout payment refunded at Stripe. */
export interface PaymentRefund {
  paymentIntentId: string;
  /** Stripe's refund; null when Stripe had refunded the charge without one we can find. */
  refundId: string | null;
  /** Stripe had refunded it before this call (an earlier attempt whose key it has forgotten, or its dashboard). */
  alreadyRefunded: boolean;
}

/** An invoice of a customer, as the account's Invoices panel shows it. Amounts in minor units. */
export interface InvoiceRecord {
  id: string;
  number: string | null;
  /** Unix seconds, as in Stripe's API. */
  created: number;
  total: number;
  amountPaid: number;
  currency: string;
  status: string;
  hostedInvoiceUrl: string | null;
  invoicePdf: string | null;
}

export interface CustomerState {
  id: string;
  deleted: boolean;
  defaultPaymentMethod: string | null;
  userId: string | null;
  /** An organisation's customer says whose in its metadata (decision 041). */
  orgId: string | null;
}

/** A company as Stripe puts it on every invoice: name, address, tax ID (with Stripe's type for it). */
export interface CompanyDetails {
  name: string;
  email: string | null;
  address: { line1: string; line2: string | null; city: string; postalCode: string; state: string | null; country: string };
  taxId: { type: string; value: string } | null;
}

/** What a webhook event asks us to re-read: the event itself is never trusted for state. */
export type EventSubject =
  | { kind: 'subscription'; id: string }
  | { kind: 'checkout'; id: string }
  | { kind: 'product'; id: string }
  | { kind: 'price'; id: string }
  | { kind: 'customer'; id: string }
  | { kind: 'invoice'; id: string }
  | { kind: 'none' };

export interface VerifiedEvent {
  id: string;
  type: string;
  created: number;
  subject: EventSubject;
}

export class InvalidSignatureError extends AppError {
  constructor() {
    super(400, 'invalid_signature', 'The webhook signature is not valid');
  }
}

/**
 * What a correctly signed body must hold before it is read as an event: a signature proves who sent
 * the bytes, not that they are an event (a misconfigured endpoint, a test tool, another API version).
 * Only what the handler reads is checked; Stripe's other fields pass through.
 */
const webhookEventSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int(),
  data: z.looseObject({ object: z.looseObject({}) }),
});
type WebhookEvent = z.infer<typeof webhookEventSchema>;

export class InvalidEventError extends AppError {
  constructor() {
    super(400, 'invalid_event', 'The webhook body is not a Stripe event (id, type, created and data.object are required)');
  }
}

function parseEvent(rawBody: Buffer): WebhookEvent {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new InvalidEventError();
  }
  const event = webhookEventSchema.safeParse(json);
  if (!event.success) throw new InvalidEventError();
  return event.data;
}

const PROVIDER_FAILED = 'The payment provider could not complete the request. Please try again.';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

function toPrice(price: Stripe.Price): CataloguePrice {
  return {
    id: price.id,
    productId: idOf(price.product) ?? '',
    active: price.active,
    unitAmount: price.unit_amount,
    currency: price.currency,
    recurring: price.recurring ? { interval: price.recurring.interval, intervalCount: price.recurring.interval_count } : null,
  };
}

function toProduct(product: Stripe.Product): CatalogueProduct {
  return {
    id: product.id,
    name: product.name,
    description: product.description ?? null,
    images: product.images ?? [],
    active: product.active,
    metadata: { ...product.metadata },
  };
}

function toSubscription(sub: Stripe.Subscription, fetchedAt: number): SubscriptionState | null {
  const item = sub.items.data[0];
  if (!item) return null;
  const product =
    typeof item.price.product === 'object' && !('deleted' in item.price.product && item.price.product.deleted)
      ? (item.price.product as Stripe.Product)
      : null;
  return {
    id: sub.id,
    customerId: idOf(sub.customer) ?? '',
    status: sub.status,
    itemId: item.id,
    quantity: item.quantity ?? 1,
    price: toPrice(item.price),
    product: product
      ? { id: product.id, name: product.name, description: product.description ?? null }
      : { id: idOf(item.price.product) ?? '', name: 'Sage subscription', description: null },
    cancelAt: sub.cancel_at,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    trialEnd: sub.trial_end,
    // Since API 2025-03-31 the billing period belongs to the items.
    currentPeriodStart: item.current_period_start ?? null,
    currentPeriodEnd: item.current_period_end ?? null,
    defaultPaymentMethod: idOf(sub.default_payment_method),
    created: sub.created,
    metadata: { ...sub.metadata },
    fetchedAt,
  };
}

function addressOf(company: CompanyDetails): Stripe.AddressParam {
  const { address } = company;
  return {
    line1: address.line1,
    line2: address.line2 ?? '',
    city: address.city,
    postal_code: address.postalCode,
    state: address.state ?? '',
    country: address.country,
  };
}

/** The object an event is about; payloads are snapshots, so only the id is used. */
function subjectOf(event: WebhookEvent): EventSubject {
  const object = event.data.object;
  const id = typeof object.id === 'string' ? object.id : '';
  if (event.type.startsWith('customer.subscription.')) return { kind: 'subscription', id };
  if (event.type.startsWith('checkout.session.')) return { kind: 'checkout', id };
  if (event.type.startsWith('product.')) return { kind: 'product', id };
  if (event.type.startsWith('price.')) return { kind: 'price', id };
  if (event.type === 'customer.updated' || event.type === 'customer.deleted') return { kind: 'customer', id };
  if (event.type.startsWith('invoice.')) {
    const invoice = event.data.object as unknown as Stripe.Invoice;
    const subscription = idOf(invoice.parent?.subscription_details?.subscription);
    // An invoice of no subscription is one the product made: an automatic top-up's.
    return subscription ? { kind: 'subscription', id: subscription } : { kind: 'invoice', id: invoice.id ?? '' };
  }
  return { kind: 'none' };
}

/** Every page of a Stripe list (the SDK fetches the next page as the loop reaches it). */
async function all<T>(list: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) items.push(item);
  return items;
}

/** A read where Stripe's "no such object" is null. */
async function retrieveOrNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

const isMissing = (err: unknown) => err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing');

export function createStripeGateway(settings: StripeSettings, onError: (err: unknown, step: string) => void) {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const stripe = new Stripe(settings.secretKey, {
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Sage Dashboard' },
  });

  /** Stripe's failures become one 502 for the user; the details go to the log. */
  async function call<T>(step: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      onError(err, `stripe ${step}`);
      throw new AppError(502, 'payment_provider_error', PROVIDER_FAILED, { cause: err });
    }
  }

  /** A read where "no such object" is an answer (null), not a failure. */
  async function find<T>(step: string, run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (err) {
      if (isMissing(err)) return null;
      onError(err, `stripe ${step}`);
      throw new AppError(502, 'payment_provider_error', PROVIDER_FAILED, { cause: err });
    }
  }

  const SUBSCRIPTION_EXPAND = ['items.data.price.product'];

  return {
    /** Checks the signature over the raw body with Stripe's default tolerance (5 minutes). */
    verifyEvent(rawBody: Buffer, signature: string): VerifiedEvent {
      // verifyHeader answers true or throws; without its helper nothing is verified, so nothing passes.
      let verified: boolean;
      try {
        verified = stripe.webhooks.signature?.verifyHeader(rawBody, signature, settings.webhookSecret) === true;
      } catch {
        verified = false;
      }
      if (!verified) throw new InvalidSignatureError();
      const event = parseEvent(rawBody);
      return { id: event.id, type: event.type, created: event.created, subject: subjectOf(event) };
    },

    async retrieveSubscription(id: string): Promise<SubscriptionState | null> {
      const fetchedAt = Date.now();
      const sub = await find('retrieve subscription', () => stripe.subscriptions.retrieve(id, { expand: SUBSCRIPTION_EXPAND }));
      return sub ? toSubscription(sub, fetchedAt) : null;
    },

    async listCustomerSubscriptions(customerId: string): Promise<SubscriptionState[]> {
      const fetchedAt = Date.now();
      return call('list subscriptions', async () => {
        // Stripe expands at most 4 levels, and data.items.data.price.product is 5: products are read once each.
        const subs = await all(stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 }));
        const products = new Map<string, Stripe.Product | Stripe.DeletedProduct>();
        for (const sub of subs) {
          for (const item of sub.items.data) {
            const id = idOf(item.price.product);
            // A product deleted since keeps its id; the subscription is shown with a generic name.
            if (id && !products.has(id))
              products.set(id, (await retrieveOrNull(() => stripe.products.retrieve(id))) ?? { id, object: 'product', deleted: true });
            const product = id ? products.get(id) : undefined;
            if (product) item.price.product = product;
          }
        }
        return subs.map((s) => toSubscription(s, fetchedAt)).filter((s): s is SubscriptionState => s !== null);
      });
    },

    async retrieveProduct(id: string): Promise<CatalogueProduct | null> {
      const product = await find('retrieve product', () => stripe.products.retrieve(id));
      return product && !('deleted' in product && product.deleted) ? toProduct(product) : null;
    },

    async retrievePrice(id: string): Promise<CataloguePrice | null> {
      const price = await find('retrieve price', () => stripe.prices.retrieve(id));
      return price ? toPrice(price) : null;
    },

    async listCatalogue(): Promise<{ products: CatalogueProduct[]; prices: CataloguePrice[] }> {
      return call('list catalogue', async () => ({
        products: (await all(stripe.products.list({ limit: 100 }))).map(toProduct),
        prices: (await all(stripe.prices.list({ limit: 100 }))).map(toPrice),
      }));
    },

    async retrieveCheckoutSession(id: string): Promise<CheckoutSessionState | null> {
      const session = await find('retrieve checkout session', () =>
        stripe.checkout.sessions.retrieve(id, { expand: ['setup_intent', 'payment_intent'] }),
      );
      if (!session) return null;
      const setupIntent = session.setup_intent && typeof session.setup_intent === 'object' ? session.setup_intent : null;
      const payment = session.payment_intent && typeof session.payment_intent === 'object' ? session.payment_intent : null;
      return {
        id: session.id,
        mode: session.mode,
        complete: session.status === 'complete',
        paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
        setupPaymentMethod: setupIntent?.status === 'succeeded' ? idOf(setupIntent.payment_method) : null,
        savedPaymentMethod:
          payment?.status === 'succeeded' && payment.setup_future_usage === 'off_session' ? idOf(payment.payment_method) : null,
        metadata: { ...session.metadata },
      };
    },

    /**
     * Refunds in full what a completed payment-mode Checkout Session paid. The caller's key makes a
     * repeated call the same refund; once Stripe has forgotten the key (24 hours) it answers
     * charge_already_refunded, which is taken as the same outcome. Null: no such session, or it paid nothing.
     */
    async refundCheckoutPayment(
      sessionId: string,
      idempotencyKey: string,
      metadata: Record<string, string>,
    ): Promise<PaymentRefund | null> {
      const session = await find('retrieve checkout session', () => stripe.checkout.sessions.retrieve(sessionId));
      const paymentIntentId = idOf(session?.payment_intent);
      if (!session || session.mode !== 'payment' || !paymentIntentId) return null;
      try {
        const refund = await stripe.refunds.create({ payment_intent: paymentIntentId, metadata }, { idempotencyKey });
        return { paymentIntentId, refundId: refund.id, alreadyRefunded: false };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeError && err.code === 'charge_already_refunded') {
          const refunds = await call('list refunds', () => stripe.refunds.list({ payment_intent: paymentIntentId, limit: 1 }));
          return { paymentIntentId, refundId: refunds.data[0]?.id ?? null, alreadyRefunded: true };
        }
        onError(err, 'stripe create refund');
        // Stripe's own words for a refusal (a disputed charge, …) tell staff what to do; other failures are retried.
        if (err instanceof Stripe.errors.StripeInvalidRequestError)
          throw new AppError(502, 'refund_refused', `Stripe refused the refund: ${err.message}`, { cause: err });
        throw new AppError(502, 'payment_provider_error', PROVIDER_FAILED, { cause: err });
      }
    },

    /**
     * The customer's newest `limit` invoices, newest first, drafts left out (a draft has no number
     * and no page yet). `hasMore`: Stripe has older ones.
     */
    async listInvoices(customerId: string, limit: number): Promise<{ invoices: InvoiceRecord[]; hasMore: boolean }> {
      const page = await call('list invoices', () => stripe.invoices.list({ customer: customerId, limit }));
      return {
        hasMore: page.has_more,
        invoices: page.data.flatMap(({ status, ...invoice }) =>
          status === null || status === 'draft'
            ? []
            : [
                {
                  id: invoice.id,
                  number: invoice.number,
                  created: invoice.created,
                  total: invoice.total,
                  amountPaid: invoice.amount_paid,
                  currency: invoice.currency,
                  status,
                  hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
                  invoicePdf: invoice.invoice_pdf ?? null,
                },
              ],
        ),
      };
    },

    async retrieveInvoice(id: string): Promise<InvoiceState | null> {
      const invoice = await find('retrieve invoice', () => stripe.invoices.retrieve(id));
      if (!invoice?.id) return null;
      return {
        id: invoice.id,
        customerId: idOf(invoice.customer) ?? '',
        status: invoice.status ?? 'draft',
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
        metadata: { ...invoice.metadata },
      };
    },

    /**
     * Automatic top-up's purchase (decision 045): an invoice of one pack, finalized and paid off
     * session with the saved card, so it is on the customer's invoices. Each request's idempotency
     * key derives from the crossing's, so a retry of the same top-up (another instance, a restart)
     * is the same invoice and the same payment at Stripe. A card Stripe refused voids the invoice
     * (nothing is owed) and answers its code; other failures throw the usual 502.
     */
    async chargeTopUp(order: TopUpOrder): Promise<TopUpCharge> {
      const key = (step: string) => ({ idempotencyKey: `${order.key}:${step}` });
      const invoice = await call('create invoice', () =>
        stripe.invoices.create(
          {
            customer: order.customerId,
            currency: order.currency,
            collection_method: 'charge_automatically',
            auto_advance: false,
            pending_invoice_items_behavior: 'exclude',
            description: order.description,
            metadata: order.metadata,
          },
          key('invoice'),
        ),
      );
      const invoiceId = invoice.id ?? '';
      await call('create invoice item', () =>
        stripe.invoiceItems.create(
          { customer: order.customerId, invoice: invoiceId, pricing: { price: order.priceId }, metadata: order.metadata },
          key('item'),
        ),
      );
      await call('finalize invoice', () => stripe.invoices.finalizeInvoice(invoiceId, { auto_advance: false }, key('finalize')));
      try {
        await stripe.invoices.pay(invoiceId, { off_session: true, payment_method: order.paymentMethod }, key('pay'));
        return { paid: true, invoiceId };
      } catch (err) {
        if (!(err instanceof Stripe.errors.StripeCardError)) {
          onError(err, 'stripe pay invoice');
          throw new AppError(502, 'payment_provider_error', PROVIDER_FAILED, { cause: err });
        }
        await call('void invoice', () => stripe.invoices.voidInvoice(invoiceId, {}, key('void')));
        return { paid: false, invoiceId, code: err.code, message: err.message };
      }
    },

    async retrieveCustomer(id: string): Promise<CustomerState | null> {
      const customer = await find('retrieve customer', () => stripe.customers.retrieve(id));
      if (!customer) return null;
      if ('deleted' in customer && customer.deleted) return { id, deleted: true, defaultPaymentMethod: null, userId: null, orgId: null };
      const live = customer as Stripe.Customer;
      return {
        id: live.id,
        deleted: false,
        defaultPaymentMethod: idOf(live.invoice_settings?.default_payment_method),
        userId: live.metadata?.user_id ?? null,
        orgId: live.metadata?.org_id ?? null,
      };
    },

    async listCustomers(): Promise<CustomerState[]> {
      return call('list customers', async () =>
        (await all(stripe.customers.list({ limit: 100 }))).map((c) => ({
          id: c.id,
          deleted: false,
          defaultPaymentMethod: idOf(c.invoice_settings?.default_payment_method),
          userId: c.metadata?.user_id ?? null,
          orgId: c.metadata?.org_id ?? null,
        })),
      );
    },

    /**
     * The idempotency key makes concurrent first checkouts, even on two servers, one customer. It
     * changes hourly, so a user whose customer was deleted at Stripe soon gets a new one.
     */
    async createCustomer(user: { id: string; email: string | null; name: string }): Promise<string> {
      const customer = await call('create customer', () =>
        stripe.customers.create(
          { ...(user.email ? { email: user.email } : {}), name: user.name, metadata: { user_id: user.id } },
          { idempotencyKey: `sage-customer-${user.id}-${Math.floor(Date.now() / 3_600_000)}` },
        ),
      );
      return customer.id;
    },

    /** An organisation's customer, with its company details; the key makes two first checkouts one customer. */
    async createOrgCustomer(orgId: string, company: CompanyDetails): Promise<string> {
      const customer = await call('create customer', () =>
        stripe.customers.create(
          {
            name: company.name,
            ...(company.email ? { email: company.email } : {}),
            address: addressOf(company),
            ...(company.taxId
              ? { tax_id_data: [{ type: company.taxId.type as Stripe.CustomerCreateParams.TaxIdDatum.Type, value: company.taxId.value }] }
              : {}),
            metadata: { org_id: orgId },
          },
          { idempotencyKey: `sage-org-customer-${orgId}-${Math.floor(Date.now() / 3_600_000)}` },
        ),
      );
      return customer.id;
    },

    /** New company details for every invoice from now on: the name, the address, and the tax ID (replacing the old one). */
    async updateCompany(customerId: string, company: CompanyDetails): Promise<void> {
      await call('update customer', async () => {
        await stripe.customers.update(customerId, { name: company.name, address: addressOf(company) });
        const current = await stripe.customers.listTaxIds(customerId, { limit: 100 });
        const wanted = company.taxId;
        for (const taxId of current.data) {
          if (!wanted || taxId.value !== wanted.value || taxId.type !== wanted.type)
            await stripe.customers.deleteTaxId(customerId, taxId.id);
        }
        if (wanted && !current.data.some((t) => t.value === wanted.value && t.type === wanted.type)) {
          await stripe.customers.createTaxId(customerId, { type: wanted.type as Stripe.TaxIdCreateParams.Type, value: wanted.value });
        }
      });
    },

    /** Changes a plan's seats; Stripe prorates the change and invoices it now. */
    async setSubscriptionQuantity(subscriptionId: string, itemId: string, quantity: number): Promise<void> {
      await call('update subscription', () =>
        stripe.subscriptions.update(subscriptionId, { items: [{ id: itemId, quantity }], proration_behavior: 'always_invoice' }),
      );
    },

    async setCustomerDefaultPaymentMethod(customerId: string, paymentMethod: string): Promise<void> {
      await call('update customer', () =>
        stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethod } }),
      );
    },

    /**
     * Where Stripe sends the customer's receipts and invoices. The caller's key makes a retry of one
     * change the same request. False: Stripe has no such customer (deleted there).
     */
    async setCustomerEmail(customerId: string, email: string | null, idempotencyKey: string): Promise<boolean> {
      const customer = await find('update customer e-mail', () =>
        stripe.customers.update(customerId, { email: email ?? '' }, { idempotencyKey }),
      );
      return customer !== null;
    },

    async setSubscriptionPaymentMethod(subscriptionId: string, paymentMethod: string): Promise<void> {
      await call('update subscription', () => stripe.subscriptions.update(subscriptionId, { default_payment_method: paymentMethod }));
    },

    /**
     * Ends the subscription at once (an account's deletion), not at the period's end: no further
     * invoice, no proration credit. Failures are the one 502 of `call`: the caller deletes nothing.
     */
    async cancelSubscriptionNow(subscriptionId: string): Promise<void> {
      await call('cancel subscription', () => stripe.subscriptions.cancel(subscriptionId));
    },

    /** Stripe's default billing anchor on resume is now: the first period starts today. */
    async resumeSubscription(subscriptionId: string): Promise<void> {
      await call('resume subscription', () => stripe.subscriptions.resume(subscriptionId));
    },

    async createCheckoutSession(params: Stripe.Checkout.SessionCreateParams): Promise<string | null> {
      const session = await call('create checkout session', () => stripe.checkout.sessions.create(params));
      return session.url ?? null;
    },

    /** The customer portal; `switchTo` opens its confirmation of a plan change instead of the home page. */
    async createPortalSession(
      customerId: string,
      returnUrl: string,
      switchTo?: { subscriptionId: string; itemId: string; priceId: string; afterUrl: string },
    ): Promise<string> {
      const session = await call('create portal session', () =>
        stripe.billingPortal.sessions.create({
          customer: customerId,
          return_url: returnUrl,
          ...(switchTo
            ? {
                flow_data: {
                  type: 'subscription_update_confirm',
                  subscription_update_confirm: {
                    subscription: switchTo.subscriptionId,
                    items: [{ id: switchTo.itemId, price: switchTo.priceId, quantity: 1 }],
                  },
                  after_completion: { type: 'redirect', redirect: { return_url: switchTo.afterUrl } },
                },
              }
            : {}),
        }),
      );
      return session.url;
    },
  };
}

export type StripeGateway = ReturnType<typeof createStripeGateway>;
export type CheckoutSessionParams = Stripe.Checkout.SessionCreateParams;
