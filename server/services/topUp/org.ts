import { TOP_UP_MESSAGES, type TopUp, type TopUpSettings } from '../../../contract/topUp';
import type { Db } from '../../db';
import type { Actor } from '../audit';
import type { PoolTaken } from '../metering';
import { roleFor } from '../orgs';
import { createAccountTopUp, type TopUpAccount } from './account';
import type { TopUpDeps } from './index';
import { ORG_TOP_UPS } from './store';

async function poolOf(db: Db, orgId: string): Promise<number> {
  const row = await db.selectFrom('org_pools').select('credits').where('org_id', '=', orgId).executeTakeFirst();
  return Number(row?.credits ?? 0);
}

/**
 * A studio's shared pool: the card its pack's Checkout saved on the organisation's customer (asked
 * of Stripe), mail to its owner and billing members in the studio's name, audited as the studio's.
 */
const ORG_ACCOUNT: TopUpAccount = {
  tables: ORG_TOP_UPS,
  customerOf: async (db, orgId) =>
    (await db.selectFrom('org_billing').select('customer_id').where('org_id', '=', orgId).executeTakeFirst())?.customer_id ?? null,
  balanceOf: poolOf,
  pausedMailTo: async (db, orgId) => {
    const [org, people] = await Promise.all([
      db.selectFrom('orgs').select('name').where('id', '=', orgId).executeTakeFirst(),
      db
        .selectFrom('org_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('u.email')
        .where('m.org_id', '=', orgId)
        .where('m.role', 'in', ['owner', 'billing'])
        .execute(),
    ]);
    return { to: people.flatMap(({ email }) => (email ? [email] : [])), studio: { name: org?.name ?? 'Your studio' } };
  },
  audit: { targetType: 'org', change: 'org.top_up.change', pause: 'org.top_up.pause' },
  invoiceTitle: 'Automatic top-up of the shared pool',
  crossingPrefix: 'org-',
  noSavedCard: TOP_UP_MESSAGES.noSavedCardOrg,
  steps: { buy: 'automatic top-up of a pool', retry: 'automatic top-up of a pool, retry' },
};

/**
 * Automatic top-up of a studio's shared pool (issue 39, decision 045): the account engine
 * (account.ts) with the organisation in the user's place, over migration 028's rows. A crossing is
 * `org-use:<use>` or `org-saved:<id>`; the credits land in the pool with Stripe's webhook
 * (creditTopUp). Its owner and billing members see and set it.
 */
export function createOrgTopUpService(deps: TopUpDeps) {
  const { db } = deps;
  const engine = createAccountTopUp(deps, ORG_ACCOUNT);
  return {
    /** `GET /api/orgs/{id}/top-up`: owner and billing members. */
    async view(userId: string, orgId: string, now = Date.now()): Promise<TopUp> {
      await roleFor(db, orgId, userId, 'manageBilling');
      return engine.view(orgId, now);
    },

    /** `PUT /api/orgs/{id}/top-up`: owner and billing members; the rules in account.ts save. Audited. */
    async save(actor: Actor, orgId: string, input: TopUpSettings, now = Date.now()): Promise<TopUp> {
      await roleFor(db, orgId, actor.id, 'manageBilling');
      return engine.save(actor, orgId, input, now);
    },

    /** Metering's hook (`onPoolTaken`), after a use's commit: a use that took the pool under the threshold sets off a top-up. */
    poolTaken: (taken: PoolTaken): void => engine.taken(taken.orgId, taken),

    /** Housekeeping: the studio's top-ups left pending, bought again with their keys (pending.ts). */
    retryPending: engine.retryPending,

    /** Waits for the purchases under way (the server closing, a test). */
    settle: engine.settle,
  };
}

export type OrgTopUpService = ReturnType<typeof createOrgTopUpService>;
