import { randomUUID } from 'node:crypto';
import type { CreditAdjustment } from '../../../contract/usage';
import type { Db } from '../../db';
import { conflict } from '../../errors';
import type { Actor, AuditService } from '../audit';
import { checkStaffAuthority } from '../staffAuthority';
import { lockAccount } from './standing';

/**
 * Staff's changes to a user's credits (issue 26): a grant or a deduction, with a reason, is a
 * ledger entry and an audit entry in one transaction, under the same lock as the user's uses, so a
 * deduction never takes the balance below zero however uses and other deductions interleave.
 */
export function createCreditService(deps: { db: Db; audit: AuditService }) {
  return {
    async adjust(actor: Actor, userId: string, { amount, reason }: CreditAdjustment): Promise<{ credits: number }> {
      return deps.db.transaction().execute(async (trx) => {
        await checkStaffAuthority(trx, { actor, action: 'adjustCredits', targetId: userId });
        const before = await lockAccount(trx, userId);
        if (before + amount < 0)
          throw conflict('insufficient_credits', `The balance is ${before}: a deduction can take at most that many credits`);
        const id = randomUUID();
        const kind = amount > 0 ? 'grant' : 'deduction';
        await trx
          .insertInto('credit_ledger')
          .values({ id, user_id: userId, amount, reason, source: `${kind}:${id}`, created_at: Date.now() })
          .execute();
        const credits = before + amount;
        await deps.audit.record(
          actor,
          {
            action: amount > 0 ? 'user.credits.grant' : 'user.credits.deduct',
            targetType: 'user',
            targetId: userId,
            before: { credits: before },
            after: { credits, amount, reason },
          },
          trx,
        );
        return { credits };
      });
    },
  };
}

export type CreditService = ReturnType<typeof createCreditService>;
