import { randomUUID } from 'node:crypto';
import {
  TOP_UP_ERRORS,
  TOP_UP_MESSAGES,
  type TopUp,
  type TopUpPack,
  type TopUpPauseReason,
  type TopUpSettings,
  type TopUpStatus,
} from '../../../contract/topUp';
import type { Db } from '../../db';
import type { TopUpsTable, UsersTable } from '../../db/schema';
import { badRequest, conflict } from '../../errors';
import type { AuditService } from '../audit';
import { createBillingMirror } from '../billing/mirror';
import { billingNotConfigured } from '../billing/notConfigured';
import type { StripeGateway } from '../billing/stripeGateway';
import type { Mailer } from '../mailer';
import type { CreditsTaken } from '../metering';
import { creditsOf } from '../metering/standing';
import type { TopUpInvoiceMetadata } from './credit';
import { moneyText, topUpPausedMail } from './mail';
import { capAllows, crossesThreshold, monthOf, pauseReasonOf, saveSetsOff } from './rules';
import {
  lastTopUp,
  lockSettings,
  packsOnSale,
  pause,
  readSettings,
  recordTopUp,
  settingsOf,
  settleTopUp,
  spentIn,
  triggerOf,
} from './store';
import { retryPending } from './pending';

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

/**
 * Automatic top-up (issue 39, decision 045): the user's settings, and the purchase a crossing of
 * their threshold sets off. A crossing is recorded once (`top_ups.crossing` is unique) under the
 * user's settings row, so one crossing buys one pack however many uses and instances saw it, and
 * the month's cap counts every top-up before it. The purchase runs after the use has answered;
 * its credits land with Stripe's webhook (creditTopUp), as a bought pack's do.
 */
export function createTopUpService(deps: TopUpDeps) {
  const { db } = deps;
  const mirror = createBillingMirror(db);
  const inFlight = new Set<Promise<void>>();

  /** Runs `work` after the caller has answered; `settle` waits for it. */
  function inBackground(step: string, work: () => Promise<void>): void {
    const running = work()
      .catch((err: unknown) => deps.onError(err, step))
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  }

  /** The card Stripe charges without its holder: the customer's default, asked of Stripe now. */
  async function savedCard(userId: string): Promise<{ customerId: string; paymentMethod: string } | null> {
    const customer = await mirror.customerOf(userId);
    if (!customer || !deps.gateway) return null;
    const paymentMethod = (await deps.gateway.retrieveCustomer(customer.customer_id))?.defaultPaymentMethod;
    return paymentMethod ? { customerId: customer.customer_id, paymentMethod } : null;
  }

  /**
   * Records the top-up `crossing` sets off, under the user's settings row: refused by the cap, or
   * failed when the pack is off sale, or to be bought. Null when top-up no longer runs or the
   * crossing was recorded already.
   */
  async function claim(userId: string, crossing: string, now: number): Promise<TopUpsTable | null> {
    return db.transaction().execute(async (trx) => {
      const settings = await lockSettings(trx, userId);
      if (!settings || settings.enabled !== 1 || settings.paused_at !== null) return null;
      const pack = (await packsOnSale(trx)).find((p) => p.priceId === settings.price_id);
      const row: TopUpsTable = {
        id: randomUUID(),
        user_id: userId,
        crossing,
        month: monthOf(now),
        price_id: settings.price_id,
        credits: pack?.credits ?? 0,
        amount: pack?.amount ?? 0,
        currency: settings.currency,
        status: 'pending',
        invoice_id: null,
        failure: null,
        created_at: now,
        updated_at: now,
      };
      if (!pack) {
        await recordTopUp(trx, { ...row, status: 'failed', failure: 'The credit pack is no longer on sale' });
        return null;
      }
      const spent = await spentIn(trx, userId, row.month, settings.currency);
      if (!capAllows(spent, pack.amount, Number(settings.monthly_cap))) {
        await recordTopUp(trx, { ...row, status: 'capped' });
        return null;
      }
      return (await recordTopUp(trx, row)) ? row : null;
    });
  }

  /** Pauses top-up after a card failed, audits it and mails the user once. */
  async function pauseFor(topUp: TopUpsTable, reason: TopUpPauseReason, now: number): Promise<void> {
    const paused = await db.transaction().execute(async (trx) => {
      if (!(await pause(trx, topUp.user_id, reason, now))) return false;
      await deps.audit.record(
        null,
        { action: 'user.top_up.pause', targetType: 'user', targetId: topUp.user_id, after: { reason, topUpId: topUp.id } },
        trx,
      );
      return true;
    });
    if (!paused) return;
    const [user, settings, pack] = await Promise.all([
      db.selectFrom('users').select('email').where('id', '=', topUp.user_id).executeTakeFirst(),
      readSettings(db, topUp.user_id),
      packsOnSale(db).then((packs) => packs.find((p) => p.priceId === topUp.price_id)),
    ]);
    if (!user?.email) return;
    const purchase = {
      packName: pack?.name ?? 'a credit pack',
      price: moneyText(Number(topUp.amount), topUp.currency),
      threshold: Number(settings?.threshold ?? 0),
    };
    deps.mailer.send({ to: user.email, ...topUpPausedMail(reason, purchase, deps.publicUrl) }).catch(deps.onMailError);
  }

  /**
   * Buys a recorded top-up: an invoice of the pack paid off session with the saved card (the
   * crossing's idempotency key). Paid: its credits come with the webhook. Refused by the card:
   * top-up pauses. Stripe unreachable: it stays pending, and housekeeping tries it again.
   */
  async function buy(topUp: TopUpsTable, now: number): Promise<void> {
    const gateway = deps.gateway;
    if (!gateway) return;
    const card = await savedCard(topUp.user_id);
    if (!card) {
      await settleTopUp(db, topUp.id, 'pending', { status: 'failed', failure: 'No card is saved' }, now);
      await pauseFor(topUp, 'no_saved_card', now);
      return;
    }
    const pack = (await packsOnSale(db)).find((p) => p.priceId === topUp.price_id);
    const metadata: TopUpInvoiceMetadata = {
      top_up_id: topUp.id,
      user_id: topUp.user_id,
      price_id: topUp.price_id,
      credits_amount: String(topUp.credits),
    };
    const charge = await gateway.chargeTopUp({
      key: `top-up:${topUp.crossing}`,
      customerId: card.customerId,
      paymentMethod: card.paymentMethod,
      priceId: topUp.price_id,
      currency: topUp.currency,
      description: `Automatic top-up: ${pack?.name ?? 'credit pack'}`,
      metadata: { ...metadata },
    });
    if (charge.paid) {
      await settleTopUp(db, topUp.id, 'pending', { status: 'paid', invoiceId: charge.invoiceId }, Date.now());
      return;
    }
    const reason = pauseReasonOf(charge.code);
    const status = reason === 'authentication_required' ? 'authentication_required' : 'declined';
    await settleTopUp(db, topUp.id, 'pending', { status, invoiceId: charge.invoiceId, failure: charge.message }, Date.now());
    await pauseFor(topUp, reason, Date.now());
  }

  /** Records the top-up `crossing` sets off and buys it. */
  async function setOff(userId: string, crossing: string, now: number): Promise<void> {
    const topUp = await claim(userId, crossing, now);
    if (topUp) await buy(topUp, now);
  }

  async function view(userId: string, now = Date.now()): Promise<TopUp> {
    const [row, packs, last, customer] = await Promise.all([
      readSettings(db, userId),
      packsOnSale(db),
      lastTopUp(db, userId),
      mirror.customerOf(userId),
    ]);
    return {
      settings: row ? settingsOf(row) : null,
      paused:
        row?.paused_at != null
          ? { at: new Date(Number(row.paused_at)).toISOString(), reason: (row.paused_reason ?? 'card_declined') as TopUpPauseReason }
          : null,
      thisMonth: row ? { spent: await spentIn(db, userId, monthOf(now), row.currency), currency: row.currency } : null,
      last: last
        ? {
            at: new Date(Number(last.created_at)).toISOString(),
            status: last.status as TopUpStatus,
            credits: Number(last.credits),
            amount: Number(last.amount),
            currency: last.currency,
          }
        : null,
      savedCard: Boolean(customer?.default_payment_method),
      packs,
    };
  }

  return {
    view,

    /**
     * `PUT /api/usage/top-up`: only a pack on sale, a cap of at least its price, and (to turn it on)
     * a saved card. Saving with top-up on turns a paused top-up back on. Settings that leave it
     * running with the credits already under the threshold set off a top-up now.
     */
    async save(user: UsersTable, input: TopUpSettings, now = Date.now()): Promise<TopUp> {
      if (!deps.gateway) throw billingNotConfigured();
      const pack: TopUpPack | undefined = (await packsOnSale(db)).find((p) => p.priceId === input.priceId);
      if (!pack) throw badRequest(TOP_UP_ERRORS.unknownPack, TOP_UP_MESSAGES.unknownPack);
      if (input.monthlyCap < pack.amount) throw badRequest(TOP_UP_ERRORS.capBelowPack, TOP_UP_MESSAGES.capBelowPack);
      if (input.enabled && !(await savedCard(user.id))) throw conflict(TOP_UP_ERRORS.noSavedCard, TOP_UP_MESSAGES.noSavedCard);
      const setsOff = await db.transaction().execute(async (trx) => {
        const before = await lockSettings(trx, user.id);
        const values = {
          enabled: input.enabled ? 1 : 0,
          threshold: input.threshold,
          price_id: pack.priceId,
          monthly_cap: input.monthlyCap,
          currency: pack.currency,
          paused_at: null,
          paused_reason: null,
          updated_at: now,
        };
        await trx
          .insertInto('top_up_settings')
          .values({ user_id: user.id, ...values })
          .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
          .execute();
        await deps.audit.record(
          { id: user.id, email: user.email },
          {
            action: 'account.top_up.change',
            targetType: 'user',
            targetId: user.id,
            before: before ? { ...settingsOf(before), paused: before.paused_reason } : null,
            after: input,
          },
          trx,
        );
        const after = { enabled: input.enabled, paused: false, threshold: input.threshold };
        return saveSetsOff(triggerOf(before), after, await creditsOf(trx, user.id));
      });
      if (setsOff) inBackground('automatic top-up', () => setOff(user.id, `saved:${randomUUID()}`, now));
      return view(user.id, now);
    },

    /** Metering's hook (`onCreditsTaken`), after a use's commit: a use that crossed the threshold sets off a top-up. */
    creditsTaken(taken: CreditsTaken): void {
      inBackground('automatic top-up', async () => {
        const trigger = triggerOf(await readSettings(db, taken.userId));
        if (crossesThreshold(trigger, taken.before, taken.after)) await setOff(taken.userId, `use:${taken.useId}`, taken.at);
      });
    },

    /**
     * Housekeeping: top-ups left pending (a process stopped mid-purchase, Stripe unreachable) are
     * bought again with their keys (the same invoice and payment at Stripe), once each, whichever
     * instance gets there; those older than Stripe keeps keys for are given up.
     */
    async retryPending(now = Date.now()): Promise<number> {
      return retryPending(db, 'top_ups', buy, (err) => deps.onError(err, 'automatic top-up retry'), now);
    },

    /** Waits for the purchases under way (the server closing, a test). */
    async settle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

export type TopUpService = ReturnType<typeof createTopUpService>;
