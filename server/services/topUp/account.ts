import { randomUUID } from 'node:crypto';
import type { AuditAction } from '../../../contract/admin';
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
import { badRequest, conflict } from '../../errors';
import type { Actor } from '../audit';
import { billingNotConfigured } from '../billing/notConfigured';
import type { TopUpInvoiceMetadata } from './credit';
import type { TopUpDeps } from './index';
import { moneyText, topUpPausedMail } from './mail';
import { retryPending } from './pending';
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
  writeSettings,
  type AccountTopUp,
  type TopUpTables,
} from './store';

/** What a kind of account (a user, a studio's shared pool) brings to automatic top-up; the rest is the same. */
export interface TopUpAccount {
  tables: TopUpTables;
  /** Its Stripe customer, whose default card a top-up is charged to. */
  customerOf(db: Db, owner: string): Promise<string | null>;
  /** Whether a card is saved, as billing's mirror records it, where it does (a user's); else Stripe is asked. */
  cardOnRecord?: (db: Db, owner: string) => Promise<boolean>;
  /** The balance its threshold is of: the user's credits, the studio's pool. */
  balanceOf(db: Db, owner: string): Promise<number>;
  /** Whom the mail of a paused top-up goes to, and the studio it speaks of (a user's speaks to them). */
  pausedMailTo(db: Db, owner: string): Promise<{ to: string[]; studio?: { name: string } }>;
  audit: { targetType: 'user' | 'org'; change: AuditAction; pause: AuditAction };
  /** The invoice's description before the pack's name. */
  invoiceTitle: string;
  /** Before `use:` and `saved:` in a crossing's key. */
  crossingPrefix: '' | 'org-';
  /** What a save that turns top-up on without a saved card answers. */
  noSavedCard: string;
  /** The steps its background work's errors are told under: a purchase, housekeeping's retry. */
  steps: { buy: string; retry: string };
}

/** A use that took an account's balance from `before` to `after`, as committed. */
export interface BalanceTaken {
  useId: string;
  before: number;
  after: number;
  at: number;
}

/**
 * Automatic top-up of one kind of account (issue 39, decision 045): its settings, and the purchase
 * a crossing of its threshold sets off. A crossing is recorded once (`crossing` is unique) under the
 * account's settings row, so one crossing buys one pack however many uses and instances saw it, and
 * the month's cap counts every top-up before it. The purchase runs after the use has answered; its
 * credits land with Stripe's webhook (creditTopUp), as a bought pack's do.
 */
export function createAccountTopUp(deps: TopUpDeps, account: TopUpAccount) {
  const { db } = deps;
  const { tables } = account;
  const inFlight = new Set<Promise<void>>();

  /** Runs `work` after the caller has answered; `settle` waits for it. */
  function inBackground(work: () => Promise<void>): void {
    const running = work()
      .catch((err: unknown) => deps.onError(err, account.steps.buy))
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  }

  /** The card Stripe charges without its holder: the customer's default, asked of Stripe now. */
  async function savedCard(owner: string): Promise<{ customerId: string; paymentMethod: string } | null> {
    const customerId = await account.customerOf(db, owner);
    if (!customerId || !deps.gateway) return null;
    const paymentMethod = (await deps.gateway.retrieveCustomer(customerId))?.defaultPaymentMethod;
    return paymentMethod ? { customerId, paymentMethod } : null;
  }

  /**
   * Records the top-up `crossing` sets off, under the account's settings row: refused by the cap,
   * or failed when the pack is off sale, or to be bought. Null when top-up no longer runs or the
   * crossing was recorded already.
   */
  async function claim(owner: string, crossing: string, now: number): Promise<AccountTopUp | null> {
    return db.transaction().execute(async (trx) => {
      const settings = await lockSettings(trx, tables, owner);
      if (!settings || settings.enabled !== 1 || settings.paused_at !== null) return null;
      const pack = (await packsOnSale(trx)).find((p) => p.priceId === settings.price_id);
      const row: AccountTopUp = {
        id: randomUUID(),
        owner,
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
        await recordTopUp(trx, tables, { ...row, status: 'failed', failure: 'The credit pack is no longer on sale' });
        return null;
      }
      const spent = await spentIn(trx, tables, owner, row.month, settings.currency);
      if (!capAllows(spent, pack.amount, Number(settings.monthly_cap))) {
        await recordTopUp(trx, tables, { ...row, status: 'capped' });
        return null;
      }
      return (await recordTopUp(trx, tables, row)) ? row : null;
    });
  }

  /** Pauses top-up after a card failed, audits it and mails the account's people once. */
  async function pauseFor(topUp: AccountTopUp, reason: TopUpPauseReason, now: number): Promise<void> {
    const paused = await db.transaction().execute(async (trx) => {
      if (!(await pause(trx, tables, topUp.owner, reason, now))) return false;
      await deps.audit.record(
        null,
        { action: account.audit.pause, targetType: account.audit.targetType, targetId: topUp.owner, after: { reason, topUpId: topUp.id } },
        trx,
      );
      return true;
    });
    if (!paused) return;
    const [people, settings, pack] = await Promise.all([
      account.pausedMailTo(db, topUp.owner),
      readSettings(db, tables, topUp.owner),
      packsOnSale(db).then((packs) => packs.find((p) => p.priceId === topUp.price_id)),
    ]);
    const purchase = {
      packName: pack?.name ?? 'a credit pack',
      price: moneyText(Number(topUp.amount), topUp.currency),
      threshold: Number(settings?.threshold ?? 0),
    };
    const mail = topUpPausedMail(reason, purchase, deps.publicUrl, people.studio);
    for (const to of people.to) deps.mailer.send({ to, ...mail }).catch(deps.onMailError);
  }

  /**
   * Buys a recorded top-up: an invoice of the pack paid off session with the saved card (the
   * crossing's idempotency key). Paid: its credits come with the webhook. Refused by the card:
   * top-up pauses. Stripe unreachable: it stays pending, and housekeeping tries it again.
   */
  async function buy(topUp: AccountTopUp, now: number): Promise<void> {
    const gateway = deps.gateway;
    if (!gateway) return;
    const card = await savedCard(topUp.owner);
    if (!card) {
      await settleTopUp(db, tables, topUp.id, 'pending', { status: 'failed', failure: 'No card is saved' }, now);
      await pauseFor(topUp, 'no_saved_card', now);
      return;
    }
    const pack = (await packsOnSale(db)).find((p) => p.priceId === topUp.price_id);
    const metadata: TopUpInvoiceMetadata = {
      top_up_id: topUp.id,
      [tables.owner]: topUp.owner,
      price_id: topUp.price_id,
      credits_amount: String(topUp.credits),
    };
    const charge = await gateway.chargeTopUp({
      key: `top-up:${topUp.crossing}`,
      customerId: card.customerId,
      paymentMethod: card.paymentMethod,
      priceId: topUp.price_id,
      currency: topUp.currency,
      description: `${account.invoiceTitle}: ${pack?.name ?? 'credit pack'}`,
      metadata: { ...metadata },
    });
    if (charge.paid) {
      await settleTopUp(db, tables, topUp.id, 'pending', { status: 'paid', invoiceId: charge.invoiceId }, Date.now());
      return;
    }
    const reason = pauseReasonOf(charge.code);
    const status = reason === 'authentication_required' ? 'authentication_required' : 'declined';
    await settleTopUp(db, tables, topUp.id, 'pending', { status, invoiceId: charge.invoiceId, failure: charge.message }, Date.now());
    await pauseFor(topUp, reason, Date.now());
  }

  /** Records the top-up `crossing` sets off and buys it. */
  async function setOff(owner: string, crossing: string, now: number): Promise<void> {
    const topUp = await claim(owner, crossing, now);
    if (topUp) await buy(topUp, now);
  }

  /** Whether the answer shows a saved card: billing's record where it keeps one, else Stripe's word. */
  const showsCard = (owner: string): Promise<boolean> =>
    account.cardOnRecord
      ? account.cardOnRecord(db, owner)
      : savedCard(owner).then(
          (card) => card !== null,
          () => false,
        );

  /** The account's top-up as the dashboard shows it. */
  async function view(owner: string, now = Date.now()): Promise<TopUp> {
    const [row, packs, last, card] = await Promise.all([
      readSettings(db, tables, owner),
      packsOnSale(db),
      lastTopUp(db, tables, owner),
      showsCard(owner),
    ]);
    return {
      settings: row ? settingsOf(row) : null,
      paused:
        row?.paused_at != null
          ? { at: new Date(Number(row.paused_at)).toISOString(), reason: (row.paused_reason ?? 'card_declined') as TopUpPauseReason }
          : null,
      thisMonth: row ? { spent: await spentIn(db, tables, owner, monthOf(now), row.currency), currency: row.currency } : null,
      last: last
        ? {
            at: new Date(Number(last.created_at)).toISOString(),
            status: last.status as TopUpStatus,
            credits: Number(last.credits),
            amount: Number(last.amount),
            currency: last.currency,
          }
        : null,
      savedCard: card,
      packs,
    };
  }

  return {
    view,

    /**
     * Saves the account's settings, audited: only a pack on sale, a cap of at least its price, and
     * (to turn it on) a saved card. Saving with top-up on turns a paused top-up back on. Settings
     * that leave it running with the balance already under the threshold set off a top-up now.
     */
    async save(actor: Actor, owner: string, input: TopUpSettings, now = Date.now()): Promise<TopUp> {
      if (!deps.gateway) throw billingNotConfigured();
      const pack: TopUpPack | undefined = (await packsOnSale(db)).find((p) => p.priceId === input.priceId);
      if (!pack) throw badRequest(TOP_UP_ERRORS.unknownPack, TOP_UP_MESSAGES.unknownPack);
      if (input.monthlyCap < pack.amount) throw badRequest(TOP_UP_ERRORS.capBelowPack, TOP_UP_MESSAGES.capBelowPack);
      if (input.enabled && !(await savedCard(owner))) throw conflict(TOP_UP_ERRORS.noSavedCard, account.noSavedCard);
      const setsOff = await db.transaction().execute(async (trx) => {
        const before = await lockSettings(trx, tables, owner);
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
        await writeSettings(trx, tables, owner, values, actor.id);
        await deps.audit.record(
          actor,
          {
            action: account.audit.change,
            targetType: account.audit.targetType,
            targetId: owner,
            before: before ? { ...settingsOf(before), paused: before.paused_reason } : null,
            after: input,
          },
          trx,
        );
        const after = { enabled: input.enabled, paused: false, threshold: input.threshold };
        return saveSetsOff(triggerOf(before), after, await account.balanceOf(trx, owner));
      });
      if (setsOff) inBackground(() => setOff(owner, `${account.crossingPrefix}saved:${randomUUID()}`, now));
      return view(owner, now);
    },

    /** Metering's hook, after a use's commit: a use that crossed the threshold sets off a top-up. */
    taken(owner: string, taken: BalanceTaken): void {
      inBackground(async () => {
        const trigger = triggerOf(await readSettings(db, tables, owner));
        if (crossesThreshold(trigger, taken.before, taken.after)) {
          await setOff(owner, `${account.crossingPrefix}use:${taken.useId}`, taken.at);
        }
      });
    },

    /**
     * Housekeeping: top-ups left pending (a process stopped mid-purchase, Stripe unreachable) are
     * bought again with their keys (the same invoice and payment at Stripe), once each, whichever
     * instance gets there; those older than Stripe keeps keys for are given up (pending.ts).
     */
    async retryPending(now = Date.now()): Promise<number> {
      return retryPending(db, tables, buy, (err) => deps.onError(err, account.steps.retry), now);
    },

    /** Waits for the purchases under way (the server closing, a test). */
    async settle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
