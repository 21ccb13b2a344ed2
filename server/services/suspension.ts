import type { AdminUser } from '../../contract/admin';
import { SUSPENSION_MESSAGES } from '../../contract/suspension';
import type { Db } from '../db';
import type { UsersTable } from '../db/schema';
import { badRequest, conflict } from '../errors';
import { findUser, toAdminUser } from './adminUsers';
import type { Actor, AuditService } from './audit';
import type { Mail, Mailer } from './mailer';
import { voidPendingCredentials } from './pendingCredentials';
import type { SessionService } from './sessions';
import { checkStaffAuthority } from './staffAuthority';

export interface SuspensionDeps {
  db: Db;
  sessions: SessionService;
  audit: AuditService;
  mailer: Mailer;
  publicUrl: string;
  supportEmail: string;
  onMailError: (err: unknown) => void;
}

const escapeHtml = (line: string) => line.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const asMail = (subject: string, lines: string[]): Omit<Mail, 'to'> => ({
  subject,
  text: `${lines.join('\n\n')}\n`,
  html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
});

/** What the user is told: that, why, what stops, that billing does not, and whom to write to. */
export function suspendedMail(user: Pick<UsersTable, 'username'>, reason: string, deps: Pick<SuspensionDeps, 'supportEmail'>) {
  return asMail('Your Sage account has been suspended', [
    `Your Sage account ${user.username} was suspended by Sage staff on ${new Date().toUTCString()}.`,
    `Reason: ${reason}`,
    'While it is suspended you cannot sign in, and the Sage plugin and the AI cannot be used with your license. Your subscription has not been changed.',
    `If you think this is a mistake, or to resolve it, write to ${deps.supportEmail}.`,
  ]);
}

export function reinstatedMail(user: Pick<UsersTable, 'username'>, deps: Pick<SuspensionDeps, 'publicUrl' | 'supportEmail'>) {
  return asMail('Your Sage account is active again', [
    `Your Sage account ${user.username} is active again: Sage staff lifted its suspension on ${new Date().toUTCString()}.`,
    `You can sign in again at ${deps.publicUrl}, and the Sage plugin works again with your license.`,
    `Questions? Write to ${deps.supportEmail}.`,
  ]);
}

/**
 * Suspending and reinstating an account (issue 28, decision 029). The status, the reason, the ended
 * sessions, the voided pending links and codes (issue 36) and the audit entry are one transaction; the mail follows it. Stripe is never called:
 * a suspension leaves the subscription as it is.
 */
export function createSuspensionService(deps: SuspensionDeps) {
  const { db, sessions, audit } = deps;

  function tell(user: UsersTable, mail: Omit<Mail, 'to'>): void {
    if (user.email) deps.mailer.send({ to: user.email, ...mail }).catch(deps.onMailError);
  }

  return {
    async suspend(actor: Actor, userId: string, reason: string): Promise<AdminUser> {
      if (userId === actor.id) throw badRequest('self_suspension', SUSPENSION_MESSAGES.selfSuspension);
      const after = await db.transaction().execute(async (trx) => {
        const before = await checkStaffAuthority(trx, { actor, action: 'suspend', targetId: userId, change: 'suspended' });
        // Only an account not yet suspended: of two suspensions at once, one is recorded.
        const updated = await trx
          .updateTable('users')
          .set({ status: 'Suspended', suspended_at: Date.now(), suspension_reason: reason, updated_at: Date.now() })
          .where('id', '=', userId)
          .where('status', '<>', 'Suspended')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw conflict('already_suspended', SUSPENSION_MESSAGES.alreadySuspended);
        const ended = await sessions.endAllForUser(userId, trx);
        await voidPendingCredentials(trx, userId);
        await audit.record(
          actor,
          {
            action: 'user.suspend',
            targetType: 'user',
            targetId: userId,
            before: { status: before.status },
            after: { status: 'Suspended', reason, ended },
          },
          trx,
        );
        return findUser(trx, userId);
      });
      tell(after, suspendedMail(after, reason, deps));
      return toAdminUser(after);
    },

    async reinstate(actor: Actor, userId: string): Promise<AdminUser> {
      const after = await db.transaction().execute(async (trx) => {
        const before = await checkStaffAuthority(trx, { actor, action: 'suspend', targetId: userId });
        const updated = await trx
          .updateTable('users')
          .set({ status: 'Active', suspended_at: null, suspension_reason: null, updated_at: Date.now() })
          .where('id', '=', userId)
          .where('status', '=', 'Suspended')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw conflict('not_suspended', SUSPENSION_MESSAGES.notSuspended);
        await audit.record(
          actor,
          {
            action: 'user.reinstate',
            targetType: 'user',
            targetId: userId,
            before: { status: before.status, reason: before.suspension_reason ?? null },
            after: { status: 'Active' },
          },
          trx,
        );
        return findUser(trx, userId);
      });
      tell(after, reinstatedMail(after, deps));
      return toAdminUser(after);
    },
  };
}

export type SuspensionService = ReturnType<typeof createSuspensionService>;
