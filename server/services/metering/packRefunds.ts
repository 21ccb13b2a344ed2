import { randomUUID } from 'node:crypto';
import { CREDIT_PACK_REFUND_ERRORS, type CreditPackPurchase, type CreditPackRefunded } from '../../../contract/usage';
import type { Db } from '../../db';
import type { CreditLedgerTable } from '../../db/schema';
import { conflict, notFound } from '../../errors';
import type { Actor, AuditService } from '../audit';
import { billingNotConfigured } from '../billing/notConfigured';
import type { StripeGateway } from '../billing/stripeGateway';
import { checkStaffAuthority } from '../staffAuthority';
import { creditsOf, lockAccount } from './standing';

/** A pack bought through Checkout is credited with this source (billing's readCheckoutSession). */
const PACK_SOURCE = 'checkout:';
/** Its reversal: the ledger's unique `source` lets a purchase be reversed once. */
const reversalSource = (purchaseId: string) => `refund:${purchaseId}`;

/**
 * How many of a pack's credits its refund takes back, given the balance now. Credits are fungible:
 * a use does not say which pack paid for it, so the refunded pack is taken to be the last spent —
 * what the balance still holds, up to the pack's size. What it cannot take back was used.
 */
export function refundableCredits(packCredits: number, balance: number): number {
  return Math.max(0, Math.min(packCredits, balance));
}

const PURCHASE_NOT_FOUND = 'No such credit pack purchase for this user';
const alreadyRefunded = () => conflict(CREDIT_PACK_REFUND_ERRORS.alreadyRefunded, 'This credit pack has already been refunded');

type LedgerEntry = Pick<CreditLedgerTable, 'id' | 'amount' | 'reason' | 'created_at' | 'source'>;

function toPurchase(entry: LedgerEntry, unspent: number, refundedAt: number | null): CreditPackPurchase {
  return {
    id: entry.id,
    credits: Number(entry.amount),
    reason: entry.reason,
    createdAt: new Date(Number(entry.created_at)).toISOString(),
    unspent,
    refundedAt: refundedAt === null ? null : new Date(refundedAt).toISOString(),
  };
}

/**
 * Staff's refunds of credit packs (issue 26): Stripe refunds the payment, then one transaction, under
 * the lock every use of the user's credits takes, takes back the pack's unspent credits and audits it.
 *
 * Stripe comes first: a failure after it leaves the purchase unrefunded here, and trying again
 * converges (the same idempotency key is the same refund at Stripe; the ledger's unique source takes
 * the credits back once). The other order could take the credits and then fail to refund the money.
 */
export function createPackRefundService(deps: { db: Db; audit: AuditService; gateway: StripeGateway | null }) {
  const { db } = deps;

  const ledger = (trx: Db) => trx.selectFrom('credit_ledger').select(['id', 'amount', 'reason', 'created_at', 'source']);

  async function reversalOf(trx: Db, purchaseId: string) {
    return ledger(trx).where('source', '=', reversalSource(purchaseId)).executeTakeFirst();
  }

  return {
    /** The user's packs bought through Checkout, newest first, with what a refund would take back now. */
    async list(userId: string): Promise<{ purchases: CreditPackPurchase[] }> {
      const [entries, balance] = await Promise.all([
        ledger(db)
          .where('user_id', '=', userId)
          .where('source', 'like', `${PACK_SOURCE}%`)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute(),
        creditsOf(db, userId),
      ]);
      const reversalSources = entries.map((e) => reversalSource(e.id));
      const reversals = reversalSources.length === 0 ? [] : await ledger(db).where('source', 'in', reversalSources).execute();
      const refundedAt = new Map(reversals.map((r) => [r.source, Number(r.created_at)]));
      return {
        purchases: entries.map((entry) => {
          const refunded = refundedAt.get(reversalSource(entry.id)) ?? null;
          return toPurchase(entry, refunded === null ? refundableCredits(Number(entry.amount), balance) : 0, refunded);
        }),
      };
    },

    /** Refunds the purchase's payment through Stripe and takes back its unspent credits; 409 once refunded. */
    async refund(actor: Actor, userId: string, purchaseId: string): Promise<CreditPackRefunded> {
      // Checked before Stripe is asked, so no money moves for a refusal, and again with the write.
      await db.transaction().execute((trx) => checkStaffAuthority(trx, { actor, action: 'refundCredits', targetId: userId }));
      const purchase = await ledger(db)
        .where('id', '=', purchaseId)
        .where('user_id', '=', userId)
        .where('source', 'like', `${PACK_SOURCE}%`)
        .executeTakeFirst();
      if (!purchase) throw notFound(PURCHASE_NOT_FOUND);
      // Refused before Stripe is asked: a refund already done is not sent again.
      if (await reversalOf(db, purchase.id)) throw alreadyRefunded();
      if (!deps.gateway) throw billingNotConfigured();

      const payment = await deps.gateway.refundCheckoutPayment(
        purchase.source.slice(PACK_SOURCE.length),
        `sage-credit-pack-refund-${purchase.id}`,
        { user_id: userId, credit_purchase_id: purchase.id },
      );
      if (!payment) throw conflict(CREDIT_PACK_REFUND_ERRORS.notRefundable, 'Stripe has no payment for this purchase to refund');

      return db.transaction().execute(async (trx) => {
        await checkStaffAuthority(trx, { actor, action: 'refundCredits', targetId: userId });
        const before = await lockAccount(trx, userId);
        // Another refund of this purchase that finished while Stripe answered this one.
        if (await reversalOf(trx, purchase.id)) throw alreadyRefunded();
        const credits = Number(purchase.amount);
        const reversed = refundableCredits(credits, before);
        const used = credits - reversed;
        const now = Date.now();
        await trx
          .insertInto('credit_ledger')
          .values({
            id: randomUUID(),
            user_id: userId,
            // An entry even when nothing is left to take back: it is what marks the purchase refunded.
            amount: reversed === 0 ? 0 : -reversed,
            reason: `Refund of ${purchase.reason}`,
            source: reversalSource(purchase.id),
            created_at: now,
          })
          .execute();
        const after = before - reversed;
        await deps.audit.record(
          actor,
          {
            action: 'user.credits.refund',
            targetType: 'user',
            targetId: userId,
            before: { credits: before },
            after: {
              credits: after,
              purchaseId: purchase.id,
              packCredits: credits,
              reversed,
              used,
              paymentIntent: payment.paymentIntentId,
              refund: payment.refundId,
            },
          },
          trx,
        );
        return { purchase: toPurchase(purchase, 0, now), credits: after, reversed, used };
      });
    },
  };
}

export type PackRefundService = ReturnType<typeof createPackRefundService>;
