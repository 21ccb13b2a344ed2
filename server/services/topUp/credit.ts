import type { Db } from '../../db';
import { createAuditService } from '../audit';
import { createBillingMirror } from '../billing/mirror';
import type { InvoiceState } from '../billing/stripeGateway';
import { lockAccount } from '../metering/standing';
import { markCredited, ORG_TOP_UPS, USER_TOP_UPS } from './store';

/** The metadata automatic top-up puts on its invoices (and reads back from Stripe's webhook). */
export interface TopUpInvoiceMetadata {
  top_up_id: string;
  /** The user whose credits it buys, or (a studio's pool, migration 028) the organisation. */
  user_id?: string;
  org_id?: string;
  price_id: string;
  credits_amount: string;
}

/** An invoice the product made for a top-up (its metadata says so). */
export const isTopUpInvoice = (invoice: InvoiceState): boolean => invoice.subscriptionId === null && Boolean(invoice.metadata.top_up_id);

/** The ledger's source of a top-up's credits: one entry per invoice, however often Stripe tells of it. */
export const topUpSource = (invoiceId: string) => `top-up:${invoiceId}`;

/**
 * A paid top-up invoice's credits, within the webhook's transaction (billing's readSubject), as a
 * bought pack's land: one ledger entry per invoice (its unique source), taken in turn with the
 * user's uses, with an audit entry, and the top-up marked credited. An invoice not yet paid, of no
 * user of ours, or delivered again adds nothing.
 */
export async function creditTopUp(trx: Db, invoice: InvoiceState, now = Date.now()): Promise<boolean> {
  if (invoice.status !== 'paid' || !isTopUpInvoice(invoice)) return false;
  const metadata = invoice.metadata as Partial<TopUpInvoiceMetadata>;
  const credits = Number(metadata.credits_amount);
  if (metadata.org_id) return creditOrgTopUp(trx, invoice, metadata, credits, now);
  const owner = await trx
    .selectFrom('billing_customers')
    .select('user_id')
    .where('customer_id', '=', invoice.customerId)
    .executeTakeFirst();
  if (!owner || !Number.isInteger(credits) || credits <= 0) return false;
  const userId = owner.user_id;
  const before = await lockAccount(trx, userId);
  const reason = `Automatic top-up: credit pack ${metadata.price_id ?? ''}`.trim();
  if (!(await createBillingMirror(trx).addCredits(userId, credits, reason, topUpSource(invoice.id)))) return false;
  await createAuditService(trx).record(
    null,
    {
      action: 'user.credits.top_up',
      targetType: 'user',
      targetId: userId,
      before: { credits: before },
      after: { credits: before + credits, amount: credits, reason, invoiceId: invoice.id },
    },
    trx,
  );
  await markCredited(trx, USER_TOP_UPS, metadata.top_up_id ?? '', userId, invoice.id, now);
  return true;
}

/**
 * A studio's paid top-up (migration 028): its credits into the pool as a bought pool pack's land
 * (addOrgCredits, once per invoice), audited, the top-up marked credited. Only an invoice of the
 * organisation's own customer counts.
 */
async function creditOrgTopUp(
  trx: Db,
  invoice: InvoiceState,
  metadata: Partial<TopUpInvoiceMetadata>,
  credits: number,
  now: number,
): Promise<boolean> {
  const orgId = metadata.org_id ?? '';
  const billing = await trx.selectFrom('org_billing').select('customer_id').where('org_id', '=', orgId).executeTakeFirst();
  if (!billing || billing.customer_id !== invoice.customerId || !Number.isInteger(credits) || credits <= 0) return false;
  const before = Number((await trx.selectFrom('org_pools').select('credits').where('org_id', '=', orgId).executeTakeFirst())?.credits ?? 0);
  const reason = `Automatic top-up: credit pack ${metadata.price_id ?? ''}`.trim();
  if (!(await createBillingMirror(trx).addOrgCredits(orgId, credits, reason, topUpSource(invoice.id), now))) return false;
  await createAuditService(trx).record(
    null,
    {
      action: 'org.credits.top_up',
      targetType: 'org',
      targetId: orgId,
      before: { pool: before },
      after: { amount: credits, reason, invoiceId: invoice.id },
    },
    trx,
  );
  await markCredited(trx, ORG_TOP_UPS, metadata.top_up_id ?? '', orgId, invoice.id, now);
  return true;
}
