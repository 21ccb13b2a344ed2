import { isLiveStatus } from '../../../contract/billing';
import { recentSignInRefusal, recentSignInUntil } from '../../../contract/recentSignIn';
import {
  ACCOUNT_DATA_MESSAGES,
  ACCOUNT_DELETION_ERRORS,
  confirmsUsername,
  type AccountDeletionStatus,
  type DeleteAccountRequest,
} from '../../../contract/accountData';
import { ADMIN_MESSAGES } from '../../../contract/admin';
import { isPostgres, type Db } from '../../db';
import type { UsersTable } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { parseAuditJson, type Actor, type AuditService } from '../audit';
import type { StripeGateway } from '../billing/stripeGateway';
import type { Mailer } from '../mailer';
import { verifyPassword } from '../passwords';
import { voidPendingCredentials } from '../pendingCredentials';
import { transactionRetriedOnDeadlock } from '../userLock';
import { checkStaffAuthority, isLastActiveAdmin } from '../staffAuthority';
import type { SessionService } from '../sessions';
import { eraseIdentity } from './deletionRules';
import { ORG_ERRORS } from '../../../contract/orgs';
import { orgsOwnedBy, refused } from '../orgs';

/**
 * An account's deletion (issue 27, docs/account-data.md): the one path of the user's own
 * `DELETE /api/account` and of the console's delete. Stripe first: live subscriptions are cancelled
 * at once, and if Stripe fails nothing is deleted. Then one transaction deletes the person's data
 * and keeps, without what identifies them, what accounting needs: the credit ledger's entries
 * (user_id cleared, migration 016) and the audit log's entries (names and e-mail addresses erased).
 */

export interface AccountDeletionDeps {
  db: Db;
  audit: AuditService;
  /** Null while billing is off (no Stripe keys). */
  gateway: StripeGateway | null;
  mailer: Mailer;
  /** Where this browser's sign-in is read (the one "recent sign-in" rule, decision 034). */
  sessions: Pick<SessionService, 'startedAt'>;
  publicUrl: string;
  /** Where the confirmation mail tells someone who did not ask for it to write. */
  supportEmail: string;
  onMailError: (err: unknown) => void;
}

/** Who asked: the person themselves (`account.delete`) or staff in the console (`user.delete`). */
export type DeletionRequester = { by: 'self' } | { by: 'staff'; actor: Actor };

const lastAdmin = () => conflict(ACCOUNT_DELETION_ERRORS.lastAdmin, ACCOUNT_DATA_MESSAGES.lastAdmin);
const notCancelled = (status: number, cause?: unknown) =>
  new AppError(status, ACCOUNT_DELETION_ERRORS.subscriptionNotCancelled, ACCOUNT_DATA_MESSAGES.subscriptionNotCancelled, { cause });

function deletedMail(user: UsersTable, by: DeletionRequester['by'], deps: Pick<AccountDeletionDeps, 'publicUrl' | 'supportEmail'>) {
  const when = new Date().toUTCString();
  const who = by === 'self' ? 'as you asked' : 'by Sage staff';
  const lines = [
    `Your Sage account ${user.username} was deleted on ${when}, ${who}.`,
    'Deleted: your profile, sign-ins, plugin installs, AI chat history, stored messages and usage. Your subscriptions were cancelled at once.',
    'Kept, without your name or e-mail address: your credit purchases and spending, and the record of changes to your account, as accounting law requires. Stripe keeps its invoices.',
    `If you did not ask for this, write to ${deps.supportEmail} (or see ${deps.publicUrl}/support).`,
  ];
  return {
    subject: 'Your Sage account has been deleted',
    text: `${lines.join('\n\n')}\n`,
    html: lines.map((line) => `<p>${line.replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</p>`).join(''),
  };
}

export function createAccountDeletionService(deps: AccountDeletionDeps) {
  const { db, audit, gateway } = deps;
  const postgres = isPostgres(db);

  /**
   * `lock`: the row is taken for update on PostgreSQL, the deletion's first lock, in the order every
   * write for the user takes it (userLock.ts): writes under way finish first, later ones are refused.
   */
  async function findUser(trx: Db, id: string, lock = false): Promise<UsersTable> {
    const query = trx.selectFrom('users').selectAll().where('id', '=', id);
    const user = await (lock && postgres ? query.forUpdate() : query).executeTakeFirst();
    if (!user) throw notFound(ADMIN_MESSAGES.userNotFound);
    return user;
  }

  /**
   * Admins (the role that can do everything: a console left with support staff alone could not
   * change a role again) besides `userId`. In the deletion's transaction (`lock`) the admins' rows are locked on
   * PostgreSQL, so two last admins deleting themselves at once cannot both go; SQLite runs one
   * transaction at a time.
   */
  /** Every subscription of the user's customers still live at Stripe, cancelled now. Stripe, not the mirror, says which. */
  async function cancelLiveSubscriptions(userId: string): Promise<void> {
    const customer = await db.selectFrom('billing_customers').select('customer_id').where('user_id', '=', userId).executeTakeFirst();
    const mirrored = await db.selectFrom('billing_subscriptions').select(['customer_id', 'status']).where('user_id', '=', userId).execute();
    const customers = new Set([...(customer ? [customer.customer_id] : []), ...mirrored.map((s) => s.customer_id)]);
    if (customers.size === 0) return;
    if (!gateway) {
      // Billing switched off since: nothing can be cancelled, so nothing is deleted while one looks live.
      if (mirrored.some((s) => isLiveStatus(s.status))) throw notCancelled(503);
      return;
    }
    try {
      for (const customerId of customers) {
        for (const sub of await gateway.listCustomerSubscriptions(customerId)) {
          if (isLiveStatus(sub.status)) await gateway.cancelSubscriptionNow(sub.id);
        }
      }
    } catch (err) {
      throw notCancelled(502, err);
    }
  }

  /** Audit entries about the user lose their name and e-mail; entries by them lose the actor's e-mail. */
  async function eraseFromAudit(trx: Db, user: UsersTable): Promise<void> {
    const identifiers = [user.username, user.email, user.epic_display_name].filter((s): s is string => s !== null);
    const entries = await trx
      .selectFrom('audit_log')
      .select(['id', 'actor_id', 'actor_email', 'target_type', 'target_id', 'before_json', 'after_json'])
      .where((eb) => eb.or([eb('target_id', '=', user.id), eb('actor_id', '=', user.id)]))
      .execute();
    for (const entry of entries) {
      const about = entry.target_type === 'user' && entry.target_id === user.id;
      const erase = (text: string | null) =>
        about && text !== null ? JSON.stringify(eraseIdentity(parseAuditJson(text), identifiers)) : text;
      const values = {
        actor_email: entry.actor_id === user.id ? null : entry.actor_email,
        before_json: erase(entry.before_json),
        after_json: erase(entry.after_json),
      };
      if (values.actor_email === entry.actor_email && values.before_json === entry.before_json && values.after_json === entry.after_json)
        continue;
      await trx.updateTable('audit_log').set(values).where('id', '=', entry.id).execute();
    }
  }

  /**
   * Deletes the user: Stripe first, then one transaction; the audit entry says who asked, without
   * the person's name. Answers the user as they were. 404 unknown, 409 the only admin, 502/503
   * Stripe did not cancel (nothing deleted).
   */
  async function remove(userId: string, requester: DeletionRequester): Promise<UsersTable> {
    const before = await findUser(db, userId);
    // Asked before Stripe is: a refusal must cancel nothing. The write's own check holds under races.
    if (await isLastActiveAdmin(db, before)) throw lastAdmin();
    if ((await orgsOwnedBy(db, userId)).length > 0) throw refused(ORG_ERRORS.ownsOrg);
    await cancelLiveSubscriptions(userId);

    // Run again once should PostgreSQL end it for a deadlock the lock order did not foresee: it was
    // rolled back whole, and the second run decides on what committed meanwhile.
    const removed = await transactionRetriedOnDeadlock(db, async (trx) => {
      await checkStaffAuthority(trx, {
        actor: requester.by === 'staff' ? requester.actor : null,
        action: 'deleteUsers',
        targetId: userId,
        change: 'removed',
        ...(requester.by === 'self' ? { lastAdminMessage: ACCOUNT_DATA_MESSAGES.lastAdmin } : {}),
      });
      const user = await findUser(trx, userId, true);
      // Under the user's lock: a transfer of ownership to them share-locks it, so it is seen here.
      if ((await orgsOwnedBy(trx, userId)).length > 0) throw refused(ORG_ERRORS.ownsOrg);
      await eraseFromAudit(trx, user);
      // The person's data, named here; the rest of what hangs off the user (billing mirror, usage
      // roll-ups, installs, tokens, sign-in flows) goes with the row by ON DELETE CASCADE, and the
      // credit ledger's entries stay with user_id cleared (ON DELETE SET NULL).
      const ownSessions = trx.selectFrom('chat_sessions').select('id').where('user_id', '=', userId);
      await trx
        .deleteFrom('stored_messages')
        .where((eb) => eb.or([eb('user_id', '=', userId), eb.and([eb('user_id', 'is', null), eb('session_id', 'in', ownSessions)])]))
        .execute();
      await trx.deleteFrom('chat_sessions').where('user_id', '=', userId).execute();
      await trx.deleteFrom('ai_threads').where('user_id', '=', userId).execute();
      await trx.deleteFrom('usage_events').where('user_id', '=', userId).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      // Cascades miss another browser's link for the user's Epic account, which would recreate it.
      await voidPendingCredentials(trx, userId);
      await trx.deleteFrom('users').where('id', '=', userId).execute();
      const actor = requester.by === 'staff' ? requester.actor : { id: userId, email: null };
      await audit.record(
        actor,
        {
          action: requester.by === 'staff' ? 'user.delete' : 'account.delete',
          targetType: 'user',
          targetId: userId,
          before: { status: user.status, isAdmin: user.is_admin === 1 },
        },
        trx,
      );
      return user;
    });

    // To the address on file, read before it went; the deletion stands whether or not the mail leaves.
    if (removed.email) deps.mailer.send({ to: removed.email, ...deletedMail(removed, requester.by, deps) }).catch(deps.onMailError);
    return removed;
  }

  return {
    remove,

    /** What the Delete account dialog asks for (contract/accountData.ts), for the browser of `sessionToken`. */
    async status(user: UsersTable, sessionToken: string | undefined, now = Date.now()): Promise<AccountDeletionStatus> {
      const until = recentSignInUntil(await deps.sessions.startedAt(sessionToken), now);
      return {
        username: user.username,
        reauthentication: user.password_hash !== null ? 'password' : 'epic',
        recentSignInUntil: until === null ? null : new Date(until).toISOString(),
        lastAdmin: await isLastActiveAdmin(db, user),
        ownsOrganisation: (await orgsOwnedBy(db, user.id)).length > 0,
      };
    },

    /**
     * The user's own deletion: the username typed as shown, then the one "recent sign-in" rule
     * (decision 034: this browser signed in recently, or the password typed now; 400
     * confirmation_mismatch or wrong_password, 403 reauthentication_required), then `remove`.
     */
    async deleteOwnAccount(
      user: UsersTable,
      sessionToken: string | undefined,
      input: DeleteAccountRequest,
      now = Date.now(),
    ): Promise<UsersTable> {
      if (!confirmsUsername(input.confirm, user.username))
        throw badRequest(ACCOUNT_DELETION_ERRORS.confirmationMismatch, ACCOUNT_DATA_MESSAGES.confirmationMismatch);
      const password = input.password ?? '';
      const passwordMatches = password !== '' && user.password_hash !== null && (await verifyPassword(password, user.password_hash));
      const account = { hasPassword: user.password_hash !== null, sessionStartedAt: await deps.sessions.startedAt(sessionToken) };
      const refusal = recentSignInRefusal(account, { passwordGiven: password !== '', passwordMatches }, now);
      if (refusal === 'wrong_password') throw badRequest(ACCOUNT_DELETION_ERRORS.wrongPassword, ACCOUNT_DATA_MESSAGES.wrongPassword);
      if (refusal === 'password_required')
        throw forbidden(ACCOUNT_DELETION_ERRORS.reauthenticationRequired, ACCOUNT_DATA_MESSAGES.passwordRequired);
      if (refusal === 'sign_in_again')
        throw forbidden(ACCOUNT_DELETION_ERRORS.reauthenticationRequired, ACCOUNT_DATA_MESSAGES.epicSignInRequired);
      return remove(user.id, { by: 'self' });
    },
  };
}

export type AccountDeletionService = ReturnType<typeof createAccountDeletionService>;
