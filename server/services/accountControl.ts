import type { AccountDetails, AdminSubscription, AdminUser } from '../../contract/admin';
import { isSuspended } from '../../contract/suspension';
import type { Db } from '../db';
import type { BillingSubscriptionsTable } from '../db/schema';
import { findUser, toAdminUser } from './adminUsers';
import type { Actor, AuditService } from './audit';
import type { SessionService } from './sessions';
import { replaceLicenseToken } from './licenseTokens';
import { voidPendingCredentials } from './pendingCredentials';
import { checkStaffAuthority } from './staffAuthority';
import { roleOf } from './orgs';

/** Subscriptions the account view lists, newest first. */
const SUBSCRIPTIONS_SHOWN = 20;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** Stripe's times are unix seconds. */
const fromUnix = (seconds: number | null) => (seconds === null ? null : iso(seconds * 1000));

type SubscriptionRow = Pick<
  BillingSubscriptionsTable,
  | 'id'
  | 'product_name'
  | 'status'
  | 'unit_amount'
  | 'currency'
  | 'recurring_interval'
  | 'recurring_interval_count'
  | 'current_period_end'
  | 'trial_end'
  | 'cancel_at'
>;

function toAdminSubscription(row: SubscriptionRow): AdminSubscription {
  return {
    id: row.id,
    productName: row.product_name,
    status: row.status,
    unitAmount: row.unit_amount === null ? null : Number(row.unit_amount),
    currency: row.currency,
    interval: row.recurring_interval,
    intervalCount: row.recurring_interval_count,
    currentPeriodEnd: fromUnix(row.current_period_end),
    trialEnd: fromUnix(row.trial_end),
    cancelAt: fromUnix(row.cancel_at),
  };
}

export interface AccountControlDeps {
  db: Db;
  sessions: SessionService;
  audit: AuditService;
  /** The billing service's balance of the credit ledger. */
  creditBalance: (userId: string) => Promise<number>;
}

/**
 * What an admin does to a user's access (issue 14): replace their license token, end their sessions,
 * and see the account's state (sessions, last sign-in, subscriptions, credits, stored messages).
 */
export function createAccountControlService(deps: AccountControlDeps) {
  const { db, sessions, audit } = deps;

  const find = (id: string, trx: Db = db) => findUser(trx, id);

  return {
    /**
     * Gives the user a new license token. The old one stops working at once: its hash is kept so
     * that whoever still presents it is told to sign in again. The audit entry names no token.
     */
    async reissueLicense(actor: Actor, userId: string): Promise<AdminUser> {
      return db.transaction().execute(async (trx) => {
        await checkStaffAuthority(trx, { actor, action: 'reissueLicense', targetId: userId });
        await replaceLicenseToken(trx, userId);
        await audit.record(actor, { action: 'license.reissue', targetType: 'user', targetId: userId }, trx);
        return toAdminUser(await find(userId, trx));
      });
    },

    /** Ends every session of the user (each browser is signed out at its next request); answers how many. */
    async revokeSessions(actor: Actor, userId: string): Promise<{ ended: number }> {
      return db.transaction().execute(async (trx) => {
        await checkStaffAuthority(trx, { actor, action: 'signOutEverywhere', targetId: userId });
        const ended = await sessions.endAllForUser(userId, trx);
        await voidPendingCredentials(trx, userId);
        await audit.record(actor, { action: 'user.sessions.revoke', targetType: 'user', targetId: userId, after: { ended } }, trx);
        return { ended };
      });
    },

    /** The account's state for the admin view; each figure is one indexed read. */
    async details(userId: string): Promise<AccountDetails> {
      const user = await find(userId);
      const [activeSessions, subscriptions, creditBalance, messages, memberships] = await Promise.all([
        sessions.countActiveForUser(userId),
        // The Stripe mirror's rows as they stand, every status, so admins see lapsed ones too.
        db
          .selectFrom('billing_subscriptions')
          .select([
            'id',
            'product_name',
            'status',
            'unit_amount',
            'currency',
            'recurring_interval',
            'recurring_interval_count',
            'current_period_end',
            'trial_end',
            'cancel_at',
          ])
          .where('user_id', '=', userId)
          .orderBy('created', 'desc')
          .orderBy('id', 'desc')
          .limit(SUBSCRIPTIONS_SHOWN)
          .execute(),
        deps.creditBalance(userId),
        db
          .selectFrom('stored_messages')
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('org_members')
          .innerJoin('orgs', 'orgs.id', 'org_members.org_id')
          .select(['orgs.id', 'orgs.name', 'org_members.role', 'org_members.joined_at'])
          .where('org_members.user_id', '=', userId)
          .orderBy('orgs.name')
          .execute(),
      ]);
      return {
        activeSessions,
        lastSignInAt: iso(user.last_sign_in_at),
        lastSignInMethod: user.last_sign_in_method,
        subscriptions: subscriptions.map(toAdminSubscription),
        creditBalance,
        storedMessages: Number(messages.total),
        memberships: memberships.map((m) => ({
          orgId: m.id,
          name: m.name,
          role: roleOf(m.role),
          joinedAt: iso(Number(m.joined_at)) ?? '',
        })),
        ...(isSuspended(user.status)
          ? { suspension: { suspendedAt: iso(user.suspended_at ?? user.updated_at) ?? '', reason: user.suspension_reason ?? '' } }
          : {}),
      };
    },
  };
}

export type AccountControlService = ReturnType<typeof createAccountControlService>;
