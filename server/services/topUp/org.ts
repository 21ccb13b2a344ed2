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
import { isPostgres, type Db } from '../../db';
import type { OrgTopUpSettingsTable, OrgTopUpsTable } from '../../db/schema';
import { badRequest, conflict } from '../../errors';
import type { Actor } from '../audit';
import { billingNotConfigured } from '../billing/notConfigured';
import type { PoolTaken } from '../metering';
import { roleFor } from '../orgs';
import type { TopUpInvoiceMetadata } from './credit';
import type { TopUpDeps } from './index';
import { moneyText, topUpPausedMail } from './mail';
import { capAllows, crossesThreshold, monthOf, pauseReasonOf, saveSetsOff } from './rules';
import { retryPending } from './pending';
import { packsOnSale, SPENDING } from './store';

/**
 * Automatic top-up of a studio's shared pool (issue 39, decision 045): a user's top-up (index.ts)
 * with the organisation in the user's place. The same rules, packs, mail and Stripe purchase; its
 * rows are migration 028's, keyed by the organisation; the card is the one its pack's Checkout
 * saved on the organisation's customer; the credits land in the pool with Stripe's webhook
 * (creditTopUp). Its owner and billing members set it.
 */

const triggerOf = (row: OrgTopUpSettingsTable | undefined) =>
  row ? { enabled: row.enabled === 1, paused: row.paused_at !== null, threshold: Number(row.threshold) } : null;

const settingsOf = (row: OrgTopUpSettingsTable): TopUpSettings => ({
  enabled: row.enabled === 1,
  threshold: Number(row.threshold),
  priceId: row.price_id,
  monthlyCap: Number(row.monthly_cap),
});

const readSettings = (db: Db, orgId: string) =>
  db.selectFrom('org_top_up_settings').selectAll().where('org_id', '=', orgId).executeTakeFirst();

/** The studio's settings, taken for the transaction: its top-ups and saves queue here (see store.ts lockSettings). */
function lockSettings(trx: Db, orgId: string) {
  const query = trx.selectFrom('org_top_up_settings').selectAll().where('org_id', '=', orgId);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

async function spentIn(db: Db, orgId: string, month: string, currency: string): Promise<number> {
  const row = await db
    .selectFrom('org_top_ups')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('spent'))
    .where('org_id', '=', orgId)
    .where('month', '=', month)
    .where('currency', '=', currency)
    .where('status', 'in', SPENDING)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}

async function settle(
  db: Db,
  id: string,
  to: { status: TopUpStatus; invoiceId?: string | null; failure?: string | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('org_top_ups')
    .set({
      status: to.status,
      ...(to.invoiceId !== undefined ? { invoice_id: to.invoiceId } : {}),
      ...(to.failure !== undefined ? { failure: to.failure } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

const customerOf = async (db: Db, orgId: string) =>
  (await db.selectFrom('org_billing').select('customer_id').where('org_id', '=', orgId).executeTakeFirst())?.customer_id ?? null;

export function createOrgTopUpService(deps: TopUpDeps) {
  const { db } = deps;
  const inFlight = new Set<Promise<void>>();

  function inBackground(step: string, work: () => Promise<void>): void {
    const running = work()
      .catch((err: unknown) => deps.onError(err, step))
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  }

  /** The organisation customer's default card, asked of Stripe: the one its pack's Checkout saved. */
  async function savedCard(orgId: string): Promise<{ customerId: string; paymentMethod: string } | null> {
    const customerId = await customerOf(db, orgId);
    if (!customerId || !deps.gateway) return null;
    const paymentMethod = (await deps.gateway.retrieveCustomer(customerId))?.defaultPaymentMethod;
    return paymentMethod ? { customerId, paymentMethod } : null;
  }

  /** Records the top-up `crossing` sets off, under the studio's settings row (as a user's claim). */
  async function claim(orgId: string, crossing: string, now: number): Promise<OrgTopUpsTable | null> {
    return db.transaction().execute(async (trx) => {
      const settings = await lockSettings(trx, orgId);
      if (!settings || settings.enabled !== 1 || settings.paused_at !== null) return null;
      const pack = (await packsOnSale(trx)).find((p) => p.priceId === settings.price_id);
      const row: OrgTopUpsTable = {
        id: randomUUID(),
        org_id: orgId,
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
      const record = async (values: OrgTopUpsTable) =>
        Number(
          (
            await trx
              .insertInto('org_top_ups')
              .values(values)
              .onConflict((oc) => oc.column('crossing').doNothing())
              .executeTakeFirst()
          ).numInsertedOrUpdatedRows ?? 0,
        ) === 1;
      if (!pack) {
        await record({ ...row, status: 'failed', failure: 'The credit pack is no longer on sale' });
        return null;
      }
      if (!capAllows(await spentIn(trx, orgId, row.month, settings.currency), pack.amount, Number(settings.monthly_cap))) {
        await record({ ...row, status: 'capped' });
        return null;
      }
      return (await record(row)) ? row : null;
    });
  }

  /** Pauses the studio's top-up, audits it and mails its owner and billing members once. */
  async function pauseFor(topUp: OrgTopUpsTable, reason: TopUpPauseReason, now: number): Promise<void> {
    const paused = await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('org_top_up_settings')
        .set({ paused_at: now, paused_reason: reason })
        .where('org_id', '=', topUp.org_id)
        .where('enabled', '=', 1)
        .where('paused_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await deps.audit.record(
        null,
        { action: 'org.top_up.pause', targetType: 'org', targetId: topUp.org_id, after: { reason, topUpId: topUp.id } },
        trx,
      );
      return true;
    });
    if (!paused) return;
    const [org, people, settings, pack] = await Promise.all([
      db.selectFrom('orgs').select('name').where('id', '=', topUp.org_id).executeTakeFirst(),
      db
        .selectFrom('org_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('u.email')
        .where('m.org_id', '=', topUp.org_id)
        .where('m.role', 'in', ['owner', 'billing'])
        .execute(),
      readSettings(db, topUp.org_id),
      packsOnSale(db).then((packs) => packs.find((p) => p.priceId === topUp.price_id)),
    ]);
    const purchase = {
      packName: pack?.name ?? 'a credit pack',
      price: moneyText(Number(topUp.amount), topUp.currency),
      threshold: Number(settings?.threshold ?? 0),
    };
    const mail = topUpPausedMail(reason, purchase, deps.publicUrl, { name: org?.name ?? 'Your studio' });
    for (const { email } of people) if (email) deps.mailer.send({ to: email, ...mail }).catch(deps.onMailError);
  }

  /** Buys a recorded top-up off session on the organisation's customer: its key is the crossing's. */
  async function buy(topUp: OrgTopUpsTable, now: number): Promise<void> {
    const gateway = deps.gateway;
    if (!gateway) return;
    const card = await savedCard(topUp.org_id);
    if (!card) {
      await settle(db, topUp.id, { status: 'failed', failure: 'No card is saved' }, now);
      await pauseFor(topUp, 'no_saved_card', now);
      return;
    }
    const pack = (await packsOnSale(db)).find((p) => p.priceId === topUp.price_id);
    const metadata: TopUpInvoiceMetadata = {
      top_up_id: topUp.id,
      org_id: topUp.org_id,
      price_id: topUp.price_id,
      credits_amount: String(topUp.credits),
    };
    const charge = await gateway.chargeTopUp({
      key: `top-up:${topUp.crossing}`,
      customerId: card.customerId,
      paymentMethod: card.paymentMethod,
      priceId: topUp.price_id,
      currency: topUp.currency,
      description: `Automatic top-up of the shared pool: ${pack?.name ?? 'credit pack'}`,
      metadata: { ...metadata },
    });
    if (charge.paid) {
      await settle(db, topUp.id, { status: 'paid', invoiceId: charge.invoiceId }, Date.now());
      return;
    }
    const reason = pauseReasonOf(charge.code);
    const status = reason === 'authentication_required' ? 'authentication_required' : 'declined';
    await settle(db, topUp.id, { status, invoiceId: charge.invoiceId, failure: charge.message }, Date.now());
    await pauseFor(topUp, reason, Date.now());
  }

  async function setOff(orgId: string, crossing: string, now: number): Promise<void> {
    const topUp = await claim(orgId, crossing, now);
    if (topUp) await buy(topUp, now);
  }

  async function poolOf(db: Db, orgId: string): Promise<number> {
    const row = await db.selectFrom('org_pools').select('credits').where('org_id', '=', orgId).executeTakeFirst();
    return Number(row?.credits ?? 0);
  }

  async function read(orgId: string, now: number): Promise<TopUp> {
    const [row, packs, last, card] = await Promise.all([
      readSettings(db, orgId),
      packsOnSale(db),
      db
        .selectFrom('org_top_ups')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst(),
      savedCard(orgId).catch(() => null),
    ]);
    return {
      settings: row ? settingsOf(row) : null,
      paused:
        row?.paused_at != null
          ? { at: new Date(Number(row.paused_at)).toISOString(), reason: (row.paused_reason ?? 'card_declined') as TopUpPauseReason }
          : null,
      thisMonth: row ? { spent: await spentIn(db, orgId, monthOf(now), row.currency), currency: row.currency } : null,
      last: last
        ? {
            at: new Date(Number(last.created_at)).toISOString(),
            status: last.status as TopUpStatus,
            credits: Number(last.credits),
            amount: Number(last.amount),
            currency: last.currency,
          }
        : null,
      savedCard: card !== null,
      packs,
    };
  }

  return {
    /** `GET /api/orgs/{id}/top-up`: owner and billing members. */
    async view(userId: string, orgId: string, now = Date.now()): Promise<TopUp> {
      await roleFor(db, orgId, userId, 'manageBilling');
      return read(orgId, now);
    },

    /** `PUT /api/orgs/{id}/top-up`: the user's rules (see index.ts save), for the studio's pool. Audited. */
    async save(actor: Actor, orgId: string, input: TopUpSettings, now = Date.now()): Promise<TopUp> {
      await roleFor(db, orgId, actor.id, 'manageBilling');
      if (!deps.gateway) throw billingNotConfigured();
      const pack: TopUpPack | undefined = (await packsOnSale(db)).find((p) => p.priceId === input.priceId);
      if (!pack) throw badRequest(TOP_UP_ERRORS.unknownPack, TOP_UP_MESSAGES.unknownPack);
      if (input.monthlyCap < pack.amount) throw badRequest(TOP_UP_ERRORS.capBelowPack, TOP_UP_MESSAGES.capBelowPack);
      if (input.enabled && !(await savedCard(orgId))) throw conflict(TOP_UP_ERRORS.noSavedCard, TOP_UP_MESSAGES.noSavedCardOrg);
      const setsOff = await db.transaction().execute(async (trx) => {
        const before = await lockSettings(trx, orgId);
        const values = {
          enabled: input.enabled ? 1 : 0,
          threshold: input.threshold,
          price_id: pack.priceId,
          monthly_cap: input.monthlyCap,
          currency: pack.currency,
          paused_at: null,
          paused_reason: null,
          updated_by: actor.id,
          updated_at: now,
        };
        await trx
          .insertInto('org_top_up_settings')
          .values({ org_id: orgId, ...values })
          .onConflict((oc) => oc.column('org_id').doUpdateSet(values))
          .execute();
        await deps.audit.record(
          actor,
          {
            action: 'org.top_up.change',
            targetType: 'org',
            targetId: orgId,
            before: before ? { ...settingsOf(before), paused: before.paused_reason } : null,
            after: input,
          },
          trx,
        );
        const after = { enabled: input.enabled, paused: false, threshold: input.threshold };
        return saveSetsOff(triggerOf(before), after, await poolOf(trx, orgId));
      });
      if (setsOff) inBackground('automatic top-up of a pool', () => setOff(orgId, `org-saved:${randomUUID()}`, now));
      return read(orgId, now);
    },

    /** Metering's hook (`onPoolTaken`), after a use's commit: a use that took the pool under the threshold sets off a top-up. */
    poolTaken(taken: PoolTaken): void {
      inBackground('automatic top-up of a pool', async () => {
        const trigger = triggerOf(await readSettings(db, taken.orgId));
        if (crossesThreshold(trigger, taken.before, taken.after)) await setOff(taken.orgId, `org-use:${taken.useId}`, taken.at);
      });
    },

    /** Waits for the purchases under way (the server closing, a test). */
    /** Housekeeping: the studio's top-ups left pending, bought again with their keys (pending.ts). */
    async retryPending(now = Date.now()): Promise<number> {
      return retryPending(db, 'org_top_ups', buy, (err) => deps.onError(err, 'automatic top-up of a pool, retry'), now);
    },

    async settle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

export type OrgTopUpService = ReturnType<typeof createOrgTopUpService>;
