import { randomUUID } from 'node:crypto';
import type { Product, RecurringInterval, Subscription } from '../../../contract/billing';
import type { Db } from '../../db';
import type { BillingSubscriptionsTable } from '../../db/schema';
import type { CatalogueProduct, CataloguePrice, SubscriptionState } from './stripeGateway';
import { lockPool } from '../metering/orgSeat';

/**
 * The local copy of what Stripe knows, kept current by webhooks and `stripe-sync`: every read the
 * screens make is answered from here, so showing the dashboard never waits on Stripe.
 */

/** Rows shown to the user per list; more is history nobody acts on. */
const LIST_LIMIT = 20;

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const recurringOf = (interval: string | null, count: number | null) =>
  interval ? { interval: interval as RecurringInterval, interval_count: count ?? 1 } : null;

function toSubscription(row: BillingSubscriptionsTable, customerDefault: string | null): Subscription {
  return {
    id: row.id,
    status: row.status,
    cancel_at: row.cancel_at,
    cancel_at_period_end: row.cancel_at_period_end === 1,
    // Stripe keeps a finished trial's end; past, it would read as the next billing date (§2 card).
    trial_end: row.trial_end !== null && row.trial_end * 1000 > Date.now() ? row.trial_end : null,
    current_period_end: row.current_period_end,
    // The card the next invoice is charged to: the subscription's own, else the customer's default.
    default_payment_method: row.default_payment_method ?? customerDefault,
    created: row.created,
    items: {
      data: [
        {
          id: row.item_id,
          price: {
            id: row.price_id,
            unit_amount: row.unit_amount,
            currency: row.currency,
            recurring: recurringOf(row.recurring_interval, row.recurring_interval_count),
            product: { id: row.product_id, name: row.product_name, description: row.product_description },
          },
        },
      ],
    },
  };
}

export function createBillingMirror(db: Db) {
  return {
    async upsertProduct(product: CatalogueProduct): Promise<void> {
      const values = {
        name: product.name,
        description: product.description,
        images: JSON.stringify(product.images),
        active: product.active ? 1 : 0,
        metadata: JSON.stringify(product.metadata),
        synced_at: Date.now(),
      };
      await db
        .insertInto('billing_products')
        .values({ id: product.id, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
      // Subscriptions carry a copy of their product's name: a rename reaches them with its own event,
      // which may be the last one Stripe sends about them.
      await db
        .updateTable('billing_subscriptions')
        .set({ product_name: product.name, product_description: product.description })
        .where('product_id', '=', product.id)
        .execute();
    },

    /** A product deleted at Stripe leaves the catalogue with its prices. */
    async removeProduct(id: string): Promise<void> {
      await db.deleteFrom('billing_prices').where('product_id', '=', id).execute();
      await db.deleteFrom('billing_products').where('id', '=', id).execute();
    },

    async upsertPrice(price: CataloguePrice): Promise<void> {
      const values = {
        product_id: price.productId,
        active: price.active ? 1 : 0,
        unit_amount: price.unitAmount,
        currency: price.currency,
        recurring_interval: price.recurring?.interval ?? null,
        recurring_interval_count: price.recurring?.intervalCount ?? null,
        synced_at: Date.now(),
      };
      await db
        .insertInto('billing_prices')
        .values({ id: price.id, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    },

    async removePrice(id: string): Promise<void> {
      await db.deleteFrom('billing_prices').where('id', '=', id).execute();
    },

    /** Active products that have an active price, each with its active prices (§3). */
    async activeProducts(): Promise<Product[]> {
      const products = await db.selectFrom('billing_products').selectAll().where('active', '=', 1).orderBy('name').execute();
      const prices = await db
        .selectFrom('billing_prices')
        .selectAll()
        .where('active', '=', 1)
        .where('unit_amount', 'is not', null)
        .execute();
      return products
        .map((p) => ({
          id: p.id,
          name: p.name,
          description: p.description,
          images: parseJson<string[]>(p.images, []),
          active: true,
          metadata: parseJson<Record<string, string>>(p.metadata, {}),
          prices: prices
            .filter((price) => price.product_id === p.id)
            .map((price) => ({
              id: price.id,
              active: true,
              unit_amount: price.unit_amount,
              currency: price.currency,
              recurring: recurringOf(price.recurring_interval, price.recurring_interval_count),
            })),
        }))
        .filter((p) => p.prices.length > 0);
    },

    async activePrice(priceId: string) {
      return db
        .selectFrom('billing_prices')
        .innerJoin('billing_products', 'billing_products.id', 'billing_prices.product_id')
        .select([
          'billing_prices.id',
          'billing_prices.product_id',
          'billing_prices.recurring_interval',
          'billing_prices.currency',
          'billing_products.metadata',
        ])
        .where('billing_prices.id', '=', priceId)
        .where('billing_prices.active', '=', 1)
        .where('billing_products.active', '=', 1)
        .executeTakeFirst();
    },

    customerOf(userId: string) {
      return db.selectFrom('billing_customers').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    userOfCustomer(customerId: string) {
      return db.selectFrom('billing_customers').selectAll().where('customer_id', '=', customerId).executeTakeFirst();
    },

    /** Records the user's customer unless one is already recorded; answers the recorded one. */
    async recordCustomer(userId: string, customerId: string): Promise<string> {
      await db
        .insertInto('billing_customers')
        .values({ user_id: userId, customer_id: customerId, default_payment_method: null, created_at: Date.now() })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const row = await db.selectFrom('billing_customers').select('customer_id').where('user_id', '=', userId).executeTakeFirstOrThrow();
      return row.customer_id;
    },

    async forgetCustomer(customerId: string): Promise<void> {
      await db.deleteFrom('billing_customers').where('customer_id', '=', customerId).execute();
    },

    async setCustomerDefault(customerId: string, paymentMethod: string | null): Promise<void> {
      await db
        .updateTable('billing_customers')
        .set({ default_payment_method: paymentMethod })
        .where('customer_id', '=', customerId)
        .execute();
    },

    async upsertSubscription(userId: string, sub: SubscriptionState): Promise<void> {
      const values = {
        user_id: userId,
        customer_id: sub.customerId,
        status: sub.status,
        item_id: sub.itemId,
        price_id: sub.price.id,
        unit_amount: sub.price.unitAmount,
        currency: sub.price.currency,
        recurring_interval: sub.price.recurring?.interval ?? null,
        recurring_interval_count: sub.price.recurring?.intervalCount ?? null,
        product_id: sub.product.id,
        product_name: sub.product.name,
        product_description: sub.product.description,
        cancel_at: sub.cancelAt,
        cancel_at_period_end: sub.cancelAtPeriodEnd ? 1 : 0,
        trial_end: sub.trialEnd,
        current_period_start: sub.currentPeriodStart,
        current_period_end: sub.currentPeriodEnd,
        default_payment_method: sub.defaultPaymentMethod,
        created: sub.created,
        synced_at: sub.fetchedAt,
      };
      await db
        .insertInto('billing_subscriptions')
        .values({ id: sub.id, ...values })
        // Two refreshes at once: the one that read Stripe later wins, whichever writes last.
        .onConflict((oc) => oc.column('id').doUpdateSet(values).where('billing_subscriptions.synced_at', '<=', sub.fetchedAt))
        .execute();
    },

    /** The user's subscriptions, newest first, without the ones that expired before starting. */
    async subscriptionsOf(userId: string): Promise<Subscription[]> {
      const customer = await this.customerOf(userId);
      const rows = await db
        .selectFrom('billing_subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '!=', 'incomplete_expired')
        .orderBy('created', 'desc')
        .limit(LIST_LIMIT)
        .execute();
      return rows.map((row) => toSubscription(row, customer?.default_payment_method ?? null));
    },

    /** True once the user has had any subscription: the free trial is for the first one. */
    async hasEverSubscribed(userId: string): Promise<boolean> {
      const row = await db.selectFrom('billing_subscriptions').select('id').where('user_id', '=', userId).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Credits a pack once: `source` names what paid for it, and a second entry for it is ignored.
     * One INSERT: the daily roll-up (migration 008's trigger) is written by the same statement.
     */
    async addCredits(userId: string, amount: number, reason: string, source: string): Promise<boolean> {
      const result = await db
        .insertInto('credit_ledger')
        .values({ id: randomUUID(), user_id: userId, amount, reason, source, created_at: Date.now() })
        .onConflict((oc) => oc.column('source').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** The ledger's sum, as credit_balances keeps it (migration 012's trigger). */
    async creditBalance(userId: string): Promise<number> {
      const row = await db.selectFrom('credit_balances').select('credits').where('user_id', '=', userId).executeTakeFirst();
      return Number(row?.credits ?? 0);
    },

    /** The organisation whose customer this is (decision 041), if any. */
    async orgOfCustomer(customerId: string): Promise<string | null> {
      const row = await db.selectFrom('org_billing').select('org_id').where('customer_id', '=', customerId).executeTakeFirst();
      return row?.org_id ?? null;
    },

    async upsertOrgSubscription(orgId: string, sub: SubscriptionState): Promise<void> {
      const values = {
        org_id: orgId,
        customer_id: sub.customerId,
        status: sub.status,
        item_id: sub.itemId,
        price_id: sub.price.id,
        product_id: sub.product.id,
        product_name: sub.product.name,
        seats: sub.quantity,
        unit_amount: sub.price.unitAmount,
        currency: sub.price.currency,
        cancel_at_period_end: sub.cancelAtPeriodEnd ? 1 : 0,
        current_period_start: sub.currentPeriodStart,
        current_period_end: sub.currentPeriodEnd,
        created: sub.created,
        synced_at: sub.fetchedAt,
      };
      await db
        .insertInto('org_subscriptions')
        .values({ id: sub.id, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values).where('org_subscriptions.synced_at', '<=', sub.fetchedAt))
        .execute();
    },

    /**
     * Adds credits to an organisation's pool once per `source` (a pack's Checkout, a staff grant).
     * The pool's row is locked first, as its uses lock it; a top-up raises its high-water mark and
     * clears its low notice once it is above a tenth again.
     */
    async addOrgCredits(orgId: string, amount: number, reason: string, source: string, now = Date.now()): Promise<boolean> {
      const pool = await lockPool(db, orgId);
      const result = await db
        .insertInto('org_credit_ledger')
        .values({ id: randomUUID(), org_id: orgId, amount, reason, source, created_at: now })
        .onConflict((oc) => oc.column('source').doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      const credits = pool.credits + amount;
      const highWater = Math.max(pool.highWater, credits);
      await db
        .updateTable('org_pools')
        .set({ credits, high_water: highWater, ...(credits * 10 >= highWater ? { low_notified_at: null } : {}) })
        .where('org_id', '=', orgId)
        .execute();
      return true;
    },

    async eventSeen(id: string): Promise<boolean> {
      return (await db.selectFrom('billing_events').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    async recordEvent(id: string, type: string, created: number): Promise<void> {
      await db
        .insertInto('billing_events')
        .values({ id, type, created, processed_at: Date.now() })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },
  };
}

export type BillingMirror = ReturnType<typeof createBillingMirror>;

/**
 * Mirror writes decided from what Stripe said: Stripe is read before, never during, the transaction.
 * `trx` is the transaction, for writes beyond the mirror's (a top-up's audit entry).
 */
export type MirrorWrite = (mirror: BillingMirror, trx: Db) => Promise<unknown>;

/** Makes the writes in one transaction, all of them or none (a webhook's with its event's record). */
export async function writeToMirror(db: Db, writes: (MirrorWrite | undefined)[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const within = createBillingMirror(trx);
    for (const write of writes) await write?.(within, trx);
  });
}
