import { INVOICE_LIST_LIMIT, type AccountInvoices } from '../../../contract/accountInvoices';
import { BILLING_MESSAGES, isLiveStatus } from '../../../contract/billing';
import {
  ORG_BILLING_ERRORS,
  TAX_ID_TYPES,
  seatCountRefusal,
  type BillingDetails,
  type OrgBilling,
  type OrgCheckout,
} from '../../../contract/orgBilling';
import { queriesOf } from '../../../contract/usage';
import type { Db } from '../../db';
import type { OrgBillingTable } from '../../db/schema';
import { badRequest } from '../../errors';
import type { Actor, AuditService } from '../audit';
import { lockPool } from '../metering/orgSeat';
import { lockOrg, refused, roleFor } from '../orgs';
import { seatMeter, seatsAssigned } from '../orgSeats';
import { createBillingMirror, writeToMirror } from './mirror';
import { billingNotConfigured } from './notConfigured';
import { createReturnUrls, redirectOf, withSessionId } from './returnUrls';
import type { CompanyDetails, StripeGateway } from './stripeGateway';

const ORG_PAGE = '/dashboard#organisations';

const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

function companyOf(row: OrgBillingTable, email: string | null): CompanyDetails {
  return {
    name: row.company_name,
    email,
    address: {
      line1: row.address_line1,
      line2: row.address_line2,
      city: row.city,
      postalCode: row.postal_code,
      state: row.region,
      country: row.country,
    },
    taxId: row.tax_id ? { type: TAX_ID_TYPES[row.country] ?? 'eu_vat', value: row.tax_id } : null,
  };
}

/** The organisation's newest live subscription, if any: its plan. */
async function liveSubscription(db: Db, orgId: string) {
  const rows = await db.selectFrom('org_subscriptions').selectAll().where('org_id', '=', orgId).orderBy('created', 'desc').execute();
  return rows.find((row) => isLiveStatus(row.status));
}

/** The organisation's bill as its owner and billing managers read it, and staff: details, plan, seats and pool. */
export async function readOrgBilling(db: Db, orgId: string): Promise<OrgBilling> {
  const [details, live, seats, pool] = await Promise.all([
    db.selectFrom('org_billing').selectAll().where('org_id', '=', orgId).executeTakeFirst(),
    liveSubscription(db, orgId),
    seatMeter(db, orgId),
    db.selectFrom('org_pools').select('credits').where('org_id', '=', orgId).executeTakeFirst(),
  ]);
  const product = live
    ? await db.selectFrom('billing_products').select('metadata').where('id', '=', live.product_id).executeTakeFirst()
    : undefined;
  const creditsAmount = product ? ((JSON.parse(product.metadata) as Record<string, string>).credits_amount ?? undefined) : undefined;
  return {
    details: details
      ? {
          companyName: details.company_name,
          addressLine1: details.address_line1,
          addressLine2: details.address_line2,
          city: details.city,
          postalCode: details.postal_code,
          region: details.region,
          country: details.country,
          taxId: details.tax_id,
        }
      : null,
    subscription: live
      ? {
          id: live.id,
          status: live.status,
          plan: live.product_name,
          seats: Number(live.seats),
          unitAmount: live.unit_amount === null ? null : Number(live.unit_amount),
          currency: live.currency,
          allowancePerSeat: queriesOf(creditsAmount),
          currentPeriodEnd: iso(live.current_period_end === null ? null : Number(live.current_period_end)),
          cancelAtPeriodEnd: live.cancel_at_period_end === 1,
        }
      : null,
    seats,
    pool: Number(pool?.credits ?? 0),
  };
}

/**
 * An organisation's bill (issue 38, decision 041): its company details on its own Stripe
 * customer, a plan bought for N seats, the seat count changed later (prorated by Stripe, never
 * below the seats given), credit packs for its shared pool, and its invoices. Owner and billing.
 */
export function createOrgBillingService(deps: {
  db: Db;
  gateway: StripeGateway | null;
  audit: AuditService;
  publicUrl: string;
  extraOrigins: string[];
}) {
  const { db, gateway, audit } = deps;
  const mirror = createBillingMirror(db);
  const returnUrl = createReturnUrls(deps.publicUrl, deps.extraOrigins);

  function requireGateway(): StripeGateway {
    if (!gateway) throw billingNotConfigured();
    return gateway;
  }

  const detailsOf = (orgId: string) => db.selectFrom('org_billing').selectAll().where('org_id', '=', orgId).executeTakeFirst();

  /** The organisation's customer, made with its company details the first time it buys. */
  async function customerFor(orgId: string, actor: Actor): Promise<string> {
    const details = await detailsOf(orgId);
    if (!details) throw refused(ORG_BILLING_ERRORS.detailsRequired);
    if (details.customer_id) return details.customer_id;
    const customerId = await requireGateway().createOrgCustomer(orgId, companyOf(details, actor.email));
    // Two first checkouts at once: Stripe's idempotency key made them one customer; the first write stands.
    await db
      .updateTable('org_billing')
      .set({ customer_id: customerId })
      .where('org_id', '=', orgId)
      .where('customer_id', 'is', null)
      .execute();
    return (await detailsOf(orgId))?.customer_id ?? customerId;
  }

  /**
   * Reads the organisation's subscriptions from Stripe into the mirror (after a change, on return
   * from Checkout), and a returning pack's Checkout, credited once whether this or its webhook comes first.
   */
  async function refresh(orgId: string, sessionId?: string): Promise<void> {
    const details = await detailsOf(orgId);
    if (!gateway || !details?.customer_id) return;
    const customerId = details.customer_id;
    for (const sub of await gateway.listCustomerSubscriptions(customerId)) await mirror.upsertOrgSubscription(orgId, sub);
    const session = sessionId ? await gateway.retrieveCheckoutSession(sessionId) : null;
    const credits = Number(session?.metadata.credits_amount);
    if (session?.customerId === customerId && session.mode === 'payment' && session.complete && session.paid && credits > 0) {
      const reason = `Credit pack ${session.metadata.price_id ?? ''}`.trim();
      await writeToMirror(db, [(m) => m.addOrgCredits(orgId, credits, reason, `checkout:${session.id}`)]);
    }
  }

  return {
    /** `POST /api/orgs/{id}/billing/refresh`: the return from Checkout applied at once. */
    async refreshFor(userId: string, orgId: string, sessionId?: string): Promise<void> {
      await roleFor(db, orgId, userId, 'manageBilling');
      await refresh(orgId, sessionId);
    },

    /** `GET /api/orgs/{id}/billing`. */
    async billing(userId: string, orgId: string): Promise<OrgBilling> {
      await roleFor(db, orgId, userId, 'manageBilling');
      return readOrgBilling(db, orgId);
    },

    /** `PUT /api/orgs/{id}/billing-details`: stored, and sent on to the customer so the next invoices carry them. Audited. */
    async saveDetails(actor: Actor, orgId: string, details: BillingDetails, now = Date.now()): Promise<void> {
      await roleFor(db, orgId, actor.id, 'manageBilling');
      const existing = await detailsOf(orgId);
      const row: OrgBillingTable = {
        org_id: orgId,
        customer_id: existing?.customer_id ?? null,
        company_name: details.companyName,
        address_line1: details.addressLine1,
        address_line2: details.addressLine2,
        city: details.city,
        postal_code: details.postalCode,
        region: details.region,
        country: details.country,
        tax_id: details.taxId,
        updated_at: now,
      };
      // Stripe first: details it refused are not kept as if every invoice carried them.
      if (row.customer_id) await requireGateway().updateCompany(row.customer_id, companyOf(row, null));
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('org_billing')
          .values(row)
          .onConflict((oc) => oc.column('org_id').doUpdateSet({ ...row, customer_id: undefined }))
          .execute();
        await audit.record(
          actor,
          {
            action: 'org.billing.details',
            targetType: 'org',
            targetId: orgId,
            before: existing ? { companyName: existing.company_name, country: existing.country, taxId: existing.tax_id } : null,
            after: { companyName: row.company_name, country: row.country, taxId: row.tax_id },
          },
          trx,
        );
      });
    },

    /**
     * `POST /api/orgs/{id}/checkout`: a plan for `seats` seats (no plan yet), or a credit pack for
     * the shared pool. Answers the Checkout page's address.
     */
    async checkout(actor: Actor, orgId: string, request: OrgCheckout): Promise<string> {
      await roleFor(db, orgId, actor.id, 'manageBilling');
      const stripe = requireGateway();
      const price = await mirror.activePrice(request.priceId);
      if (!price) throw badRequest('unknown_price', BILLING_MESSAGES.unknownPrice);
      const back = returnUrl(request.successUrl, ORG_PAGE);
      const cancel = returnUrl(request.cancelUrl, ORG_PAGE);
      const customer = await customerFor(orgId, actor);
      const metadata = { org_id: orgId, product_id: price.product_id, price_id: price.id };
      if (price.recurring_interval === null) {
        const credits = (JSON.parse(price.metadata) as Record<string, string>).credits_amount ?? '';
        return redirectOf(
          await stripe.createCheckoutSession({
            mode: 'payment',
            customer,
            client_reference_id: orgId,
            line_items: [{ price: price.id, quantity: 1 }],
            success_url: withSessionId(back),
            cancel_url: cancel,
            metadata: { ...metadata, credits_amount: credits },
            // The card is kept on the organisation's customer for its automatic top-up (decision 045).
            payment_intent_data: { setup_future_usage: 'off_session' },
          }),
        );
      }
      await refresh(orgId);
      if (await liveSubscription(db, orgId)) throw refused(ORG_BILLING_ERRORS.alreadySubscribed);
      return redirectOf(
        await stripe.createCheckoutSession({
          mode: 'subscription',
          customer,
          client_reference_id: orgId,
          line_items: [{ price: price.id, quantity: request.seats }],
          success_url: withSessionId(back),
          cancel_url: cancel,
          metadata,
          subscription_data: { metadata },
        }),
      );
    },

    /**
     * `PATCH /api/orgs/{id}/subscription {seats}`: never below the seats given. A decrease is
     * written first under the organisation's locks, so no seat can be given meanwhile; an increase
     * only once Stripe has it, so no seat is given before it is bought. Audited.
     */
    async changeSeats(actor: Actor, orgId: string, seats: number): Promise<void> {
      await roleFor(db, orgId, actor.id, 'manageBilling');
      const stripe = requireGateway();
      await refresh(orgId);
      const live = await liveSubscription(db, orgId);
      if (!live) throw refused(ORG_BILLING_ERRORS.notSubscribed);
      const before = Number(live.seats);
      if (before === seats) return;
      if (seats < before) {
        await db.transaction().execute(async (trx) => {
          await lockOrg(trx, orgId);
          await lockPool(trx, orgId);
          const refusal = seatCountRefusal(seats, await seatsAssigned(trx, orgId));
          if (refusal) throw refused(refusal);
          await trx.updateTable('org_subscriptions').set({ seats }).where('id', '=', live.id).execute();
        });
      }
      try {
        await stripe.setSubscriptionQuantity(live.id, live.item_id, seats);
      } finally {
        // Whatever Stripe did, the mirror says what it has now (a refused decrease is undone here).
        const sub = await stripe.retrieveSubscription(live.id);
        if (sub)
          await db
            .updateTable('org_subscriptions')
            .set({ seats: sub.quantity, synced_at: sub.fetchedAt })
            .where('id', '=', live.id)
            .execute();
      }
      await audit.record(actor, {
        action: 'org.seats.change',
        targetType: 'org',
        targetId: orgId,
        before: { seats: before },
        after: { seats },
      });
    },

    /** `GET /api/orgs/{id}/invoices`: Stripe's invoices of the organisation, newest first. */
    async invoices(userId: string, orgId: string): Promise<AccountInvoices> {
      await roleFor(db, orgId, userId, 'manageBilling');
      const stripe = requireGateway();
      const details = await detailsOf(orgId);
      if (!details?.customer_id) return { invoices: [], hasMore: false };
      const { invoices, hasMore } = await stripe.listInvoices(details.customer_id, INVOICE_LIST_LIMIT);
      return { hasMore, invoices: invoices.map((invoice) => ({ ...invoice, created: new Date(invoice.created * 1000).toISOString() })) };
    },

    /** Ends the organisation's live plans at Stripe now: its deletion does this first, as an account's does. */
    async cancelAll(orgId: string): Promise<void> {
      const details = await detailsOf(orgId);
      if (!gateway || !details?.customer_id) return;
      for (const sub of await gateway.listCustomerSubscriptions(details.customer_id)) {
        if (isLiveStatus(sub.status)) await gateway.cancelSubscriptionNow(sub.id);
      }
    },
  };
}

export type OrgBillingService = ReturnType<typeof createOrgBillingService>;
