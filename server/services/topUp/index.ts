import { TOP_UP_MESSAGES, type TopUp, type TopUpSettings } from '../../../contract/topUp';
import type { Db } from '../../db';
import type { UsersTable } from '../../db/schema';
import type { AuditService } from '../audit';
import { createBillingMirror } from '../billing/mirror';
import type { StripeGateway } from '../billing/stripeGateway';
import type { Mailer } from '../mailer';
import type { CreditsTaken } from '../metering';
import { creditsOf } from '../metering/standing';
import { createAccountTopUp, type TopUpAccount } from './account';
import { USER_TOP_UPS } from './store';

export interface TopUpDeps {
  db: Db;
  /** Null while billing is off. */
  gateway: StripeGateway | null;
  audit: AuditService;
  mailer: Mailer;
  publicUrl: string;
  onMailError: (err: unknown) => void;
  onError: (err: unknown, step: string) => void;
}

/** A user's own credits: the card of their billing customer, mail to them, audited as the user's. */
const USER_ACCOUNT: TopUpAccount = {
  tables: USER_TOP_UPS,
  customerOf: async (db, userId) => (await createBillingMirror(db).customerOf(userId))?.customer_id ?? null,
  // The mirror keeps the customer's default card: the dashboard's answer need not ask Stripe.
  cardOnRecord: async (db, userId) => Boolean((await createBillingMirror(db).customerOf(userId))?.default_payment_method),
  balanceOf: creditsOf,
  pausedMailTo: async (db, userId) => {
    const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    return { to: user?.email ? [user.email] : [] };
  },
  audit: { targetType: 'user', change: 'account.top_up.change', pause: 'user.top_up.pause' },
  invoiceTitle: 'Automatic top-up',
  crossingPrefix: '',
  noSavedCard: TOP_UP_MESSAGES.noSavedCard,
  steps: { buy: 'automatic top-up', retry: 'automatic top-up retry' },
};

/**
 * Automatic top-up of a user's own credits (issue 39, decision 045): the account engine
 * (account.ts) over the user's rows (migration 027). A crossing is `use:<use>` or `saved:<id>`.
 */
export function createTopUpService(deps: TopUpDeps) {
  const engine = createAccountTopUp(deps, USER_ACCOUNT);
  return {
    /** `GET /api/usage/top-up`. */
    view: (userId: string, now = Date.now()): Promise<TopUp> => engine.view(userId, now),

    /** `PUT /api/usage/top-up`: the rules in account.ts save, audited as the user's change. */
    save: (user: UsersTable, input: TopUpSettings, now = Date.now()): Promise<TopUp> =>
      engine.save({ id: user.id, email: user.email }, user.id, input, now),

    /** Metering's hook (`onCreditsTaken`), after a use's commit: a use that crossed the threshold sets off a top-up. */
    creditsTaken: (taken: CreditsTaken): void => engine.taken(taken.userId, taken),

    /** Housekeeping: the user's top-ups left pending, bought again with their keys (pending.ts). */
    retryPending: engine.retryPending,

    /** Waits for the purchases under way (the server closing, a test). */
    settle: engine.settle,
  };
}

export type TopUpService = ReturnType<typeof createTopUpService>;
