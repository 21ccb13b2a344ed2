import {
  BILLING_MESSAGES,
  isLiveStatus,
  TRIAL_DAYS,
  type CheckoutRequest,
  type Product,
  type Subscription,
} from '../../../contract/billing';
import type { PluginPayload } from '../../../contract/epic';
import type { Db } from '../../db';
import type { UsersTable } from '../../db/schema';
import { AppError, badRequest, conflict } from '../../errors';
import type { WebhookOutcome } from '../metrics';
import { createCustomerEmails } from './customerEmail';
import { createBillingMirror, writeToMirror, type MirrorWrite } from './mirror';
import { createReturnUrls, redirectOf, withSessionId } from './returnUrls';
import { billingNotConfigured } from './notConfigured';
import { creditTopUp, isTopUpInvoice } from '../topUp/credit';
import { InvalidEventError, type CheckoutSessionParams, type EventSubject, type StripeGateway } from './stripeGateway';

/** Where Stripe sends the browser back when the caller names no address (the plugin's checkout). */
export const UE_RETURN_PATHS = {
  success: '/api/stripe/subscription-update-success?client=ue',
  cancel: '/products-checkout',
};

export interface BillingDeps {
  db: Db;
  /** Null while billing is off (no Stripe keys). */
  gateway: StripeGateway | null;
  publicUrl: string;
  /** Origins besides PUBLIC_URL's that return addresses may use (the Vite dev server). */
  extraOrigins: string[];
  onError: (err: unknown, step: string) => void;
  /** Counts each webhook delivery (metrics); the CLI has none. */
  onWebhook?: (type: string, outcome: WebhookOutcome) => void;
}

const notFound = (message: string) => new AppError(404, 'no_subscription', message);

/** Subscriptions, checkout, the customer portal and credit packs, over Stripe and its local mirror. */
export function createBillingService(deps: BillingDeps) {
  const { gateway } = deps;
  const mirror = createBillingMirror(deps.db);
  const customerEmails = createCustomerEmails({ db: deps.db, gateway, onError: deps.onError });
  /** Customer creation in flight per user, so two clicks in this process share one. */
  const creating = new Map<string, Promise<string>>();

  /** Stripe is read first; the mirror writes it asks for then land in one transaction. */
  const write = (...writes: (MirrorWrite | undefined)[]) => writeToMirror(deps.db, writes);

  function requireGateway(): StripeGateway {
    if (!gateway) throw billingNotConfigured();
    return gateway;
  }

  const returnUrl = createReturnUrls(deps.publicUrl, deps.extraOrigins);

  async function customerFor(user: UsersTable): Promise<string> {
    const known = await mirror.customerOf(user.id);
    if (known) return known.customer_id;
    const pending = creating.get(user.id);
    if (pending) return pending;
    const stripe = requireGateway();
    const work = (async () => {
      const customerId = await stripe.createCustomer({ id: user.id, email: user.email, name: user.epic_display_name ?? user.username });
      return mirror.recordCustomer(user.id, customerId);
    })().finally(() => creating.delete(user.id));
    creating.set(user.id, work);
    return work;
  }

  /** Re-reads one subscription from Stripe for the mirror; its customer decides whose it is. */
  async function readSubscription(id: string): Promise<MirrorWrite | undefined> {
    const sub = await requireGateway().retrieveSubscription(id);
    if (!sub) return undefined;
    const orgId = await orgOfCustomer(sub.customerId);
    if (orgId) return (m) => m.upsertOrgSubscription(orgId, sub);
    const owner = (await mirror.userOfCustomer(sub.customerId))?.user_id ?? (await ownerFromStripe(sub.customerId));
    if (!owner) {
      deps.onError(new Error(`subscription ${id} belongs to customer ${sub.customerId}, who is no user of ours`), 'billing webhook');
      return undefined;
    }
    return (m) => m.upsertSubscription(owner, sub);
  }

  /**
   * The organisation a customer is for: the mirror's record, else the customer's metadata (a lost
   * row, a restored database), which is recorded again.
   */
  async function orgOfCustomer(customerId: string): Promise<string | null> {
    const known = await mirror.orgOfCustomer(customerId);
    if (known) return known;
    if (await mirror.userOfCustomer(customerId)) return null;
    const customer = await requireGateway().retrieveCustomer(customerId);
    if (!customer?.orgId) return null;
    const updated = await deps.db
      .updateTable('org_billing')
      .set({ customer_id: customerId })
      .where('org_id', '=', customer.orgId)
      .where('customer_id', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0 ? customer.orgId : null;
  }

  /** A customer made before the mirror knew it (a lost row, a restored database): its metadata says whose. */
  async function ownerFromStripe(customerId: string): Promise<string | null> {
    const customer = await requireGateway().retrieveCustomer(customerId);
    if (!customer?.userId) return null;
    const user = await deps.db.selectFrom('users').select('id').where('id', '=', customer.userId).executeTakeFirst();
    if (!user) return null;
    await mirror.recordCustomer(user.id, customerId);
    await mirror.setCustomerDefault(customerId, customer.defaultPaymentMethod);
    return user.id;
  }

  async function readCustomer(customerId: string): Promise<MirrorWrite> {
    const customer = await requireGateway().retrieveCustomer(customerId);
    // A customer deleted at Stripe is forgotten: the user's next checkout makes a new one.
    if (!customer || customer.deleted) return (m) => m.forgetCustomer(customerId);
    return (m) => m.setCustomerDefault(customerId, customer.defaultPaymentMethod);
  }

  /** Re-reads all of a customer's subscriptions; answers whether one is live. */
  async function refreshCustomerSubscriptions(userId: string, customerId: string): Promise<boolean> {
    const stripe = requireGateway();
    const subs = await stripe.listCustomerSubscriptions(customerId);
    await write(
      ...subs.map(
        (sub): MirrorWrite =>
          (m) =>
            m.upsertSubscription(userId, sub),
      ),
      await readCustomer(customerId),
    );
    return subs.some((s) => isLiveStatus(s.status));
  }

  /** What a finished Checkout means: a subscription to mirror, a pack to credit, or a card to use. */
  async function readCheckoutSession(id: string): Promise<MirrorWrite | undefined> {
    const stripe = requireGateway();
    const session = await stripe.retrieveCheckoutSession(id);
    if (!session?.complete || !session.customerId) return undefined;
    if (session.mode === 'subscription' && session.subscriptionId) return readSubscription(session.subscriptionId);
    if (session.mode === 'payment' && session.paid) {
      const orgId = await orgOfCustomer(session.customerId);
      const packCredits = Number(session.metadata.credits_amount);
      if (orgId && Number.isInteger(packCredits) && packCredits > 0) {
        // The card a pool's pack was paid with becomes its customer's default: the one its top-up charges.
        if (session.savedPaymentMethod)
          await requireGateway().setCustomerDefaultPaymentMethod(session.customerId, session.savedPaymentMethod);
        const reason = `Credit pack ${session.metadata.price_id ?? ''}`.trim();
        return (m) => m.addOrgCredits(orgId, packCredits, reason, `checkout:${session.id}`);
      }
      const userId = (await mirror.userOfCustomer(session.customerId))?.user_id;
      const credits = Number(session.metadata.credits_amount);
      if (!userId || !Number.isInteger(credits) || credits <= 0) return undefined;
      if (session.savedPaymentMethod) await adoptPaidCard(session.customerId, session.savedPaymentMethod);
      return (m) => m.addCredits(userId, credits, `Credit pack ${session.metadata.price_id ?? ''}`.trim(), `checkout:${session.id}`);
    }
    // Saving a card talks to Stripe between its writes: each is a re-read that a retry repeats.
    if (session.mode === 'setup' && session.setupPaymentMethod) {
      await adoptNewCard(session.customerId, session.setupPaymentMethod, session.metadata.resume_subscription_id);
    }
    return undefined;
  }

  /**
   * The card a pack was paid with and saved for later (`setup_future_usage`) becomes the customer's
   * default: the one automatic top-up charges (decision 045). Asked of Stripe only when it is news.
   */
  async function adoptPaidCard(customerId: string, paymentMethod: string): Promise<void> {
    if ((await mirror.userOfCustomer(customerId))?.default_payment_method === paymentMethod) return;
    await requireGateway().setCustomerDefaultPaymentMethod(customerId, paymentMethod);
    await mirror.setCustomerDefault(customerId, paymentMethod);
  }

  /** A card saved through Checkout becomes the customer's default and that of subscriptions without one. */
  async function adoptNewCard(customerId: string, paymentMethod: string, resumeId: string | undefined): Promise<void> {
    const stripe = requireGateway();
    await stripe.setCustomerDefaultPaymentMethod(customerId, paymentMethod);
    await mirror.setCustomerDefault(customerId, paymentMethod);
    const userId = (await mirror.userOfCustomer(customerId))?.user_id;
    if (!userId) return;
    for (const sub of await stripe.listCustomerSubscriptions(customerId)) {
      if (isLiveStatus(sub.status) && !sub.defaultPaymentMethod) await stripe.setSubscriptionPaymentMethod(sub.id, paymentMethod);
      if (sub.id === resumeId && sub.status === 'paused') await stripe.resumeSubscription(sub.id);
    }
    await refreshCustomerSubscriptions(userId, customerId);
  }

  /** What an event's object, re-read from Stripe, asks of the mirror. */
  async function readSubject(subject: EventSubject): Promise<MirrorWrite | undefined> {
    const stripe = requireGateway();
    switch (subject.kind) {
      case 'subscription':
        return readSubscription(subject.id);
      case 'checkout':
        return readCheckoutSession(subject.id);
      case 'product': {
        const product = await stripe.retrieveProduct(subject.id);
        return product ? (m) => m.upsertProduct(product) : (m) => m.removeProduct(subject.id);
      }
      case 'price': {
        const price = await stripe.retrievePrice(subject.id);
        return price ? (m) => m.upsertPrice(price) : (m) => m.removePrice(subject.id);
      }
      case 'customer':
        return readCustomer(subject.id);
      case 'invoice': {
        // An invoice of no subscription: automatic top-up's, whose credits land once it is paid.
        const invoice = await stripe.retrieveInvoice(subject.id);
        return invoice && isTopUpInvoice(invoice) ? (_mirror, trx) => creditTopUp(trx, invoice) : undefined;
      }
      case 'none':
        return undefined;
    }
  }

  async function liveSubscription(userId: string): Promise<Subscription | undefined> {
    return (await mirror.subscriptionsOf(userId)).find((s) => isLiveStatus(s.status));
  }

  async function ownSubscription(userId: string, subscriptionId: string): Promise<Subscription> {
    const sub = (await mirror.subscriptionsOf(userId)).find((s) => s.id === subscriptionId);
    if (!sub) throw notFound(BILLING_MESSAGES.notYours);
    return sub;
  }

  /** Checkout in setup mode: the saved card becomes the default (see adoptNewCard). */
  async function paymentMethodSession(user: UsersTable, url: string | undefined, resumeSubscriptionId?: string): Promise<string> {
    const stripe = requireGateway();
    const customer = await mirror.customerOf(user.id);
    if (!customer) throw notFound(BILLING_MESSAGES.noSubscription);
    const back = returnUrl(url, '/dashboard#subscriptions');
    const currency = (await liveSubscription(user.id))?.items.data[0]?.price.currency ?? 'usd';
    return redirectOf(
      await stripe.createCheckoutSession({
        mode: 'setup',
        customer: customer.customer_id,
        currency,
        success_url: withSessionId(back),
        cancel_url: back,
        metadata: { user_id: user.id, ...(resumeSubscriptionId ? { resume_subscription_id: resumeSubscriptionId } : {}) },
      }),
    );
  }

  return {
    enabled: gateway !== null,

    /** The account's e-mail sent on to its Stripe customer (issue 27). */
    customerEmails,

    /** `GET /api/stripe/products`: nothing is for sale while billing is off. */
    async products(): Promise<Product[]> {
      return gateway ? mirror.activeProducts() : [];
    },

    async subscriptions(userId: string) {
      const subscriptions = await mirror.subscriptionsOf(userId);
      const live = subscriptions.filter((s) => isLiveStatus(s.status));
      return {
        subscriptions,
        hasSubscription: live.length > 0,
        hasDefaultPaymentMethod: live.some((s) => s.default_payment_method !== null),
        live,
        trialEligible: subscriptions.length === 0 && !(await mirror.hasEverSubscribed(userId)),
      };
    },

    /** The plugin's view: the newest live subscription, or null. */
    async summary(userId: string): Promise<PluginPayload['subscription']> {
      const sub = await liveSubscription(userId);
      if (!sub) return null;
      return {
        status: sub.status,
        productName: sub.items.data[0]?.price.product.name ?? null,
        currentPeriodEnd: sub.current_period_end,
        trialEnd: sub.trial_end,
      };
    },

    creditBalance: (userId: string) => mirror.creditBalance(userId),

    /**
     * `create-checkout-session`: a recurring price starts a subscription (with the free trial the
     * first time), or, for a subscriber, opens the portal's confirmation of the switch; a one-time
     * price buys a credit pack.
     */
    async checkout(user: UsersTable, request: CheckoutRequest): Promise<string> {
      const stripe = requireGateway();
      const successUrl = returnUrl(request.successUrl, UE_RETURN_PATHS.success);
      const cancelUrl = returnUrl(request.cancelUrl, UE_RETURN_PATHS.cancel);
      const price = await mirror.activePrice(request.priceId);
      if (!price || price.product_id !== request.productId) throw badRequest('unknown_price', BILLING_MESSAGES.unknownPrice);
      const customer = await customerFor(user);
      const metadata = { user_id: user.id, product_id: price.product_id, price_id: price.id };

      if (price.recurring_interval === null) {
        const credits = (JSON.parse(price.metadata) as Record<string, string>).credits_amount ?? '';
        return redirectOf(
          await stripe.createCheckoutSession({
            mode: 'payment',
            customer,
            client_reference_id: user.id,
            line_items: [{ price: price.id, quantity: 1 }],
            // The card is kept for automatic top-up, which charges it while the user is away.
            payment_intent_data: { setup_future_usage: 'off_session' },
            success_url: withSessionId(successUrl),
            cancel_url: cancelUrl,
            metadata: { ...metadata, credits_amount: credits },
          }),
        );
      }

      // The mirror may lag behind Stripe by a webhook: decide on the customer's current state.
      await refreshCustomerSubscriptions(user.id, customer);
      const current = await liveSubscription(user.id);
      if (current) {
        // Stripe changes the plan of a subscription in good standing only; the others are put right first.
        if (current.status !== 'active' && current.status !== 'trialing')
          throw conflict('subscription_needs_attention', BILLING_MESSAGES.needsAttention);
        const item = current.items.data[0];
        if (!item || item.price.id === price.id) throw conflict('same_plan', BILLING_MESSAGES.samePlan);
        return stripe.createPortalSession(customer, cancelUrl, {
          subscriptionId: current.id,
          itemId: item.id,
          priceId: price.id,
          afterUrl: successUrl,
        });
      }
      const firstSubscription = !(await mirror.hasEverSubscribed(user.id));
      const params: CheckoutSessionParams = {
        mode: 'subscription',
        customer,
        client_reference_id: user.id,
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: withSessionId(successUrl),
        cancel_url: cancelUrl,
        metadata,
        subscription_data: {
          metadata,
          ...(firstSubscription
            ? {
                trial_period_days: TRIAL_DAYS,
                // No card is needed to try Sage; a trial that ends without one pauses (Resume Subscription).
                trial_settings: { end_behavior: { missing_payment_method: 'pause' } },
              }
            : {}),
        },
        ...(firstSubscription ? { payment_method_collection: 'if_required' as const } : {}),
      };
      return redirectOf(await stripe.createCheckoutSession(params));
    },

    async portal(user: UsersTable, url: string | undefined): Promise<string> {
      const stripe = requireGateway();
      const customer = await mirror.customerOf(user.id);
      if (!customer) throw notFound(BILLING_MESSAGES.noSubscription);
      return stripe.createPortalSession(customer.customer_id, returnUrl(url, '/dashboard#subscriptions'));
    },

    paymentMethodSession,

    /** A paused subscription resumes at once when a card is on file, else after one is saved. */
    async resume(user: UsersTable, subscriptionId: string, url: string | undefined): Promise<string> {
      const stripe = requireGateway();
      const sub = await ownSubscription(user.id, subscriptionId);
      if (sub.status !== 'paused') throw conflict('not_paused', BILLING_MESSAGES.notPaused);
      if (!sub.default_payment_method) return paymentMethodSession(user, url, sub.id);
      const back = returnUrl(url, '/dashboard#subscriptions');
      await stripe.resumeSubscription(sub.id);
      await write(await readSubscription(sub.id));
      return back;
    },

    /** `verify-subscription`: re-reads the caller's subscriptions from Stripe. */
    async verify(userId: string): Promise<boolean> {
      const customer = await mirror.customerOf(userId);
      if (!gateway || !customer) return (await liveSubscription(userId)) !== undefined;
      return refreshCustomerSubscriptions(userId, customer.customer_id);
    },

    /** The return from Checkout: applies the session at once instead of waiting for its webhook. */
    async applyReturn(userId: string, sessionId: string | undefined): Promise<void> {
      if (!gateway) return;
      const customer = await mirror.customerOf(userId);
      if (!customer) return;
      const session = sessionId ? await gateway.retrieveCheckoutSession(sessionId) : null;
      if (session && session.customerId === customer.customer_id) await write(await readCheckoutSession(session.id));
      else await refreshCustomerSubscriptions(userId, customer.customer_id);
    },

    /**
     * `POST /api/stripe/webhook`: verified, then applied once per event id. Every event re-reads
     * its object from Stripe, so events arriving late or out of order cannot roll state back.
     */
    async handleWebhook(rawBody: Buffer, signature: string): Promise<{ duplicate: boolean }> {
      const stripe = requireGateway();
      const count = deps.onWebhook ?? (() => undefined);
      let event;
      try {
        event = stripe.verifyEvent(rawBody, signature);
      } catch (err) {
        count('unverified', err instanceof InvalidEventError ? 'invalid_event' : 'invalid_signature');
        throw err;
      }
      try {
        if (await mirror.eventSeen(event.id)) {
          count(event.type, 'duplicate');
          return { duplicate: true };
        }
        // Recorded with what it changed (a pack's credits…), in one transaction: a failure leaves
        // neither, answers 5xx, and Stripe delivers the event again.
        await write(await readSubject(event.subject), (m) => m.recordEvent(event.id, event.type, event.created));
      } catch (err) {
        count(event.type, 'failed');
        throw err;
      }
      count(event.type, 'applied');
      return { duplicate: false };
    },

    /**
     * `npm run cli -- stripe-sync`: the catalogue and every known customer's subscriptions afresh,
     * and the account e-mails Stripe has not taken yet.
     */
    async syncAll(): Promise<{ products: number; prices: number; customers: number; subscriptions: number; emailsSent: number }> {
      const stripe = requireGateway();
      const { products, prices } = await stripe.listCatalogue();
      for (const product of products) await mirror.upsertProduct(product);
      for (const price of prices) await mirror.upsertPrice(price);
      // Customers carry their user's id: a lost or restored database finds its customers again.
      for (const customer of await stripe.listCustomers()) {
        if (customer.userId && !(await mirror.userOfCustomer(customer.id))) await ownerFromStripe(customer.id);
      }
      const customers = await deps.db.selectFrom('billing_customers').selectAll().execute();
      let subscriptions = 0;
      for (const customer of customers) {
        await refreshCustomerSubscriptions(customer.user_id, customer.customer_id);
        subscriptions += (await mirror.subscriptionsOf(customer.user_id)).length;
      }
      const emails = await customerEmails.sendOutdated();
      return { products: products.length, prices: prices.length, customers: customers.length, subscriptions, emailsSent: emails.sent };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
