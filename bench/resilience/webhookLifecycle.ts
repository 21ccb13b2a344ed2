// The Stripe side of the webhook convergence part (webhooks.ts): for one order, a plan of its own
// (product, monthly and yearly price), a customer for a user of ours, a subscription made by
// Checkout, then the lifecycle fast-check chose, each step applied to the Stripe-compatible
// fixture as Stripe would change the subscription on its own. Steps that make no sense in the
// subscription's state at that point are skipped.
import type Stripe from 'stripe';
import type { StripeFixture } from '../../tests/fixtures/stripeServer';

export const STEPS = [
  'trial-ends',
  'past-due',
  'unpaid',
  'recover',
  'switch-price',
  'cancel-at-period-end',
  'keep',
  'drop-card',
  'restore-card',
  'resume',
  'cancel',
  'metadata',
  'rename-product',
  'retire-other-price',
  'customer-event',
] as const;
export type Step = (typeof STEPS)[number];

export interface Order {
  userId: string;
  productId: string;
  prices: [string, string];
  customerId: string;
  subscriptionId: string;
  /** The card Checkout saved, when it saved one. */
  card: string | null;
  /** Steps as applied (those skipped are left out). */
  applied: Step[];
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Makes the order's plan, customer and subscription; every event they cause goes to `claim`'s keys first. */
export async function startOrder(
  stripe: StripeFixture,
  api: Stripe,
  opts: { index: number; userId: string; email: string; trial: boolean; card: boolean; claim: (key: string) => void },
): Promise<Order> {
  const product = stripe.addProduct({
    name: `Resilience plan ${opts.index}`,
    description: 'webhook convergence',
    metadata: { credits_amount: '100' },
  });
  opts.claim(product.id);
  await stripe.emit('product.created', product);
  const prices: string[] = [];
  for (const interval of ['month', 'year'] as const) {
    const price = stripe.addPrice({
      product: product.id,
      unit_amount: interval === 'month' ? 999 : 9990,
      currency: 'usd',
      recurring: { interval },
    });
    await stripe.emit('price.created', price);
    prices.push(price.id);
  }
  const customer = await api.customers.create({ email: opts.email, name: `Resilience ${opts.index}`, metadata: { user_id: opts.userId } });
  opts.claim(customer.id);
  const trial =
    opts.trial || !opts.card
      ? { trial_period_days: 14, trial_settings: { end_behavior: { missing_payment_method: 'pause' as const } } }
      : {};
  const session = await api.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    client_reference_id: opts.userId,
    line_items: [{ price: prices[0], quantity: 1 }],
    success_url: 'https://127.0.0.1/dashboard?session_id={CHECKOUT_SESSION_ID}',
    metadata: { user_id: opts.userId },
    subscription_data: { metadata: { user_id: opts.userId }, ...trial },
    ...(opts.card ? {} : { payment_method_collection: 'if_required' as const }),
  });
  const done = await stripe.completeCheckoutSession(session.id, { withPaymentMethod: opts.card });
  const subscription = done.subscription;
  if (!subscription) throw new Error(`webhooks: Checkout Session ${session.id} made no subscription`);
  return {
    userId: opts.userId,
    productId: product.id,
    prices: [prices[0] ?? '', prices[1] ?? ''],
    customerId: customer.id,
    subscriptionId: subscription.id,
    card: subscription.default_payment_method,
    applied: [],
  };
}

/** Applies one step if it fits the subscription's state; answers whether it did. */
export async function applyStep(stripe: StripeFixture, api: Stripe, order: Order, step: Step, n: number): Promise<boolean> {
  const sub = stripe.subscriptions.get(order.subscriptionId);
  if (!sub) throw new Error(`webhooks: the fixture lost subscription ${order.subscriptionId}`);
  const status = sub.status;
  const live = status !== 'canceled';
  const update = async (changes: Parameters<StripeFixture['updateSubscription']>[1]) => {
    await stripe.updateSubscription(order.subscriptionId, changes);
    return true;
  };
  switch (step) {
    case 'trial-ends':
      if (status !== 'trialing') return false;
      // A trial without a card pauses (trial_settings); with one, the first invoice is paid.
      return update(sub.default_payment_method ? { status: 'active', trial_end: nowSeconds() } : { status: 'paused' });
    case 'past-due':
      return status === 'active' ? update({ status: 'past_due' }) : false;
    case 'unpaid':
      return status === 'past_due' ? update({ status: 'unpaid' }) : false;
    case 'recover':
      return status === 'past_due' || status === 'unpaid' ? update({ status: 'active' }) : false;
    case 'switch-price': {
      const current = sub.items.data[0]?.price.id;
      const other = order.prices.find((p) => p !== current);
      if (!other || !stripe.prices.get(other)?.active || (status !== 'active' && status !== 'trialing')) return false;
      return update({ price: other });
    }
    case 'cancel-at-period-end':
      return live && !sub.cancel_at_period_end && status !== 'paused' ? update({ cancel_at_period_end: true }) : false;
    case 'keep':
      return live && sub.cancel_at !== null ? update({ cancel_at_period_end: false }) : false;
    case 'drop-card':
      return live && sub.default_payment_method ? update({ default_payment_method: null }) : false;
    case 'restore-card':
      return live && order.card && !sub.default_payment_method ? update({ default_payment_method: order.card }) : false;
    case 'resume':
      if (status !== 'paused') return false;
      await api.subscriptions.resume(order.subscriptionId);
      await stripe.settle();
      return true;
    case 'cancel':
      if (!live) return false;
      await api.subscriptions.cancel(order.subscriptionId);
      await stripe.settle();
      return true;
    case 'metadata':
      return update({ metadata: { step: String(n) } });
    case 'rename-product':
      await stripe.updateProduct(order.productId, { name: `Resilience plan renamed ${n}` }, { emit: true });
      return true;
    case 'retire-other-price': {
      const other = order.prices.find((p) => p !== sub.items.data[0]?.price.id);
      if (!other || !stripe.prices.get(other)?.active) return false;
      await stripe.updatePrice(other, { active: false }, { emit: true });
      return true;
    }
    case 'customer-event': {
      const customer = stripe.customers.get(order.customerId);
      if (!customer) return false;
      await stripe.emit('customer.updated', customer);
      return true;
    }
  }
}

/** The mirror rows Stripe's final state calls for, in the mirror's columns. */
export function expectedMirror(stripe: StripeFixture, order: Order) {
  const sub = stripe.subscriptions.get(order.subscriptionId);
  const item = sub?.items.data[0];
  const product = stripe.products.get(order.productId);
  const customer = stripe.customers.get(order.customerId);
  if (!sub || !item || !product || !customer) throw new Error(`webhooks: order of ${order.userId} is missing from the fixture`);
  return {
    subscription: {
      user_id: order.userId,
      customer_id: order.customerId,
      status: sub.status,
      item_id: item.id,
      price_id: item.price.id,
      unit_amount: item.price.unit_amount,
      recurring_interval: item.price.recurring?.interval ?? null,
      product_id: product.id,
      product_name: product.name,
      cancel_at: sub.cancel_at,
      cancel_at_period_end: sub.cancel_at_period_end ? 1 : 0,
      trial_end: sub.trial_end,
      current_period_end: item.current_period_end,
      default_payment_method: sub.default_payment_method,
    },
    customer: { customer_id: order.customerId, default_payment_method: customer.invoice_settings.default_payment_method },
    product: { name: product.name, active: product.active ? 1 : 0 },
    prices: Object.fromEntries(order.prices.map((id) => [id, stripe.prices.get(id)?.active ? 1 : 0])),
  };
}
export type MirrorState = ReturnType<typeof expectedMirror>;
