import type { Db } from '../../db';
import type { StripeGateway } from './stripeGateway';

/**
 * The account's e-mail at Stripe (issue 27): Stripe mails receipts and invoices to the customer's
 * e-mail, so a confirmed change is sent on to the user's customer. Our change never waits on Stripe:
 * its transaction marks the customer (`billing_customers.email_outdated_since`), the update is sent
 * after the commit, and one that fails stays marked until the hourly retry or `stripe-sync` gets
 * it through. Each send reads the account's address as it is then, so the latest change wins.
 */
export function createCustomerEmails(deps: { db: Db; gateway: StripeGateway | null; onError: (err: unknown, step: string) => void }) {
  const { db, gateway } = deps;
  const inFlight = new Set<Promise<void>>();

  function outdated(userId?: string) {
    let query = db
      .selectFrom('billing_customers')
      .innerJoin('users', 'users.id', 'billing_customers.user_id')
      .select(['billing_customers.customer_id', 'billing_customers.email_outdated_since', 'users.email'])
      .where('billing_customers.email_outdated_since', 'is not', null);
    if (userId !== undefined) query = query.where('billing_customers.user_id', '=', userId);
    return query.execute();
  }

  /** True once Stripe has the address (or no longer has the customer); false when it failed. */
  async function send(
    stripe: StripeGateway,
    row: { customer_id: string; email_outdated_since: number | null; email: string | null },
  ): Promise<boolean> {
    const since = Number(row.email_outdated_since);
    try {
      // One key per change and hour: sends of it within the hour (two servers, a retry) are one
      // request to Stripe; the hour, because Stripe answers a key with its first answer, a 500 too.
      const hour = Math.floor(Date.now() / 3_600_000);
      await stripe.setCustomerEmail(row.customer_id, row.email, `sage-customer-email-${row.customer_id}-${since}-${hour}`);
    } catch (err) {
      deps.onError(err, `sending the account's new e-mail to Stripe customer ${row.customer_id} (retried hourly)`);
      return false;
    }
    // Cleared for this change only: one made meanwhile stays marked and is sent in turn.
    await db
      .updateTable('billing_customers')
      .set({ email_outdated_since: null })
      .where('customer_id', '=', row.customer_id)
      .where('email_outdated_since', '=', since)
      .execute();
    return true;
  }

  async function sendFor(userId: string): Promise<void> {
    if (!gateway) return;
    for (const row of await outdated(userId)) await send(gateway, row);
  }

  return {
    /** Within the change's transaction: whether the user has a customer that must be told. */
    async markOutdated(trx: Db, userId: string, now: number): Promise<boolean> {
      const marked = await trx
        .updateTable('billing_customers')
        .set({ email_outdated_since: now })
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(marked.numUpdatedRows) > 0;
    },

    /** After the commit: sends the user's address to Stripe in the background (`settle` waits for it). */
    sendSoon(userId: string): void {
      const work = sendFor(userId)
        .catch((err: unknown) => deps.onError(err, 'sending the account e-mail to Stripe'))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    },

    /** The hourly retry and `stripe-sync`: every customer still behind its account's address. */
    async sendOutdated(): Promise<{ sent: number; failed: number }> {
      const counts = { sent: 0, failed: 0 };
      if (!gateway) return counts;
      for (const row of await outdated()) counts[(await send(gateway, row)) ? 'sent' : 'failed'] += 1;
      return counts;
    },

    /** Waits for the sends still under way (the server closing, a test). */
    async settle(): Promise<void> {
      await Promise.all([...inFlight]);
    },
  };
}

export type CustomerEmails = ReturnType<typeof createCustomerEmails>;
