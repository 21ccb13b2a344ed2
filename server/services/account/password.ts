import { PASSWORD_CHANGE_ERRORS, SIGN_OUT_PLUGIN_DEFAULT } from '../../../contract/accountPassword';
import type { PasswordStatus } from '../../../contract/accountPassword';
import type { Db } from '../../db';
import { AppError, badRequest, conflict } from '../../errors';
import type { AuditService } from '../audit';
import { replaceLicenseToken } from '../licenseTokens';
import { escapeHtml, type Mailer } from '../mailer';
import { verifyPassword } from '../passwords';
import { voidPendingCredentials } from '../pendingCredentials';
import type { SessionService } from '../sessions';
import type { User, UserService } from '../users';

const WRONG_PASSWORD = 'The current password is not correct.';
const NO_PASSWORD = 'This account signs in with Epic Games and has no password to change.';
const CHANGED_MEANWHILE = 'Your password was changed at the same time elsewhere. Please sign in again with the new one.';

/** The mail that tells the owner, wherever they are signed in, that their password changed. */
export function passwordChangedMail(signInLink: string) {
  return {
    subject: 'Your Sage password was changed',
    text:
      `The password of your Sage account was just changed, and every other browser signed in to it was signed out.\n\n` +
      `If it was you, there is nothing else to do.\n\n` +
      `If it was not you, reset your password at once with Forgot password on the sign-in page:\n${signInLink}\n`,
    html:
      `<p>The password of your Sage account was just changed, and every other browser signed in to it was signed out.</p>` +
      `<p>If it was you, there is nothing else to do.</p>` +
      `<p>If it was not you, reset your password at once with Forgot password on the <a href="${escapeHtml(signInLink)}">sign-in page</a>.</p>`,
  };
}

export function createAccountPasswordService(deps: {
  db: Db;
  users: UserService;
  sessions: SessionService;
  audit: AuditService;
  mailer: Mailer;
  publicUrl: string;
  onMailError: (err: unknown) => void;
}) {
  const { db, users, sessions, audit, mailer } = deps;

  return {
    /** Whether the account signs in with a password (Epic accounts have none). */
    status(user: User): PasswordStatus {
      return { hasPassword: user.password_hash !== null };
    },

    /**
     * Changes the signed-in user's password, given the current one: the new hash, the end of every
     * other session (the one of `keepSession`, the browser asking, stays), the voided pending links
     * and codes, the new license token when `signOutPlugin` (the default) and the audit entry are one
     * transaction (issue 36); then a mail tells the owner. Answers how many other sessions ended.
     */
    async change(
      user: User,
      keepSession: string,
      currentPassword: string,
      newPassword: string,
      signOutPlugin = SIGN_OUT_PLUGIN_DEFAULT,
    ): Promise<{ otherSessionsEnded: number }> {
      const stored = user.password_hash;
      if (stored === null) throw conflict(PASSWORD_CHANGE_ERRORS.noPassword, NO_PASSWORD);
      if (!(await verifyPassword(currentPassword, stored))) throw badRequest(PASSWORD_CHANGE_ERRORS.wrongPassword, WRONG_PASSWORD);
      // Hashed before the transaction: scrypt takes its time, and SQLite's one connection would wait.
      const passwordHash = await users.passwordHash(newPassword);
      const otherSessionsEnded = await db.transaction().execute(async (trx) => {
        if (!(await users.replacePasswordHash(user.id, stored, passwordHash, trx))) throw new AppError(409, 'conflict', CHANGED_MEANWHILE);
        const ended = await sessions.endOthers(user.id, keepSession, trx);
        await voidPendingCredentials(trx, user.id);
        if (signOutPlugin) await replaceLicenseToken(trx, user.id);
        await audit.record(
          { id: user.id, email: user.email },
          { action: 'account.password.change', targetType: 'user', targetId: user.id, after: { otherSessionsEnded: ended, signOutPlugin } },
          trx,
        );
        return ended;
      });
      if (user.email) mailer.send({ to: user.email, ...passwordChangedMail(`${deps.publicUrl}/login`) }).catch(deps.onMailError);
      return { otherSessionsEnded };
    },
  };
}

export type AccountPasswordService = ReturnType<typeof createAccountPasswordService>;
