import { ACCOUNT_SUSPENDED, isSuspended } from '../../contract/suspension';
import type { Db } from '../db';
import { badRequest, forbidden } from '../errors';
import { replaceLicenseToken } from './licenseTokens';
import { escapeHtml, type Mailer } from './mailer';
import { voidPendingCredentials } from './pendingCredentials';
import type { SessionService } from './sessions';
import { hashToken, newToken } from './tokens';
import type { UserService } from './users';
import type { UsersTable } from '../db/schema';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

const INVALID_LINK = 'This password reset link is invalid or has already been used.';
const EXPIRED_LINK = 'This password reset link has expired. Please request a new one.';
/** A reset ends every sign-in, the plugin's too: the mail says so before the owner opens the link. */
export const RESET_SIGNS_PLUGIN_OUT = 'Resetting your password also signs the Sage plugin out: sign in again from the plugin afterwards.';

export function passwordResetMail(link: string) {
  return {
    subject: 'Reset your Sage password',
    text:
      `Someone asked to reset the password of your Sage account.\n\n` +
      `To choose a new password, open this link within one hour:\n${link}\n\n` +
      `${RESET_SIGNS_PLUGIN_OUT}\n\n` +
      `If it was not you, ignore this mail: your password stays as it is.\n`,
    html:
      `<p>Someone asked to reset the password of your Sage account.</p>` +
      `<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works for one hour).</p>` +
      `<p>${RESET_SIGNS_PLUGIN_OUT}</p>` +
      `<p>If it was not you, ignore this mail: your password stays as it is.</p>`,
  };
}

export function createPasswordResetService(deps: {
  db: Db;
  users: UserService;
  sessions: SessionService;
  mailer: Mailer;
  publicUrl: string;
  /** Whether this account's password may be reset (LEGACY_LOGIN, decision 048); all by default. */
  resetAllowed?: (user: UsersTable) => boolean;
  onMailError: (err: unknown) => void;
  onError: (err: unknown, step: string) => void;
}) {
  const { db, users, sessions, mailer, publicUrl } = deps;
  const inFlight = new Set<Promise<void>>();

  /** Sends a reset link when the e-mail has an account that is not suspended; nothing otherwise. */
  async function sendLinkIfAccount(email: string): Promise<void> {
    const user = await users.findByEmail(email);
    // A suspended account gets no link (issue 36): its owner is told to write to support instead.
    if (!user?.email || isSuspended(user.status)) return;
    if (deps.resetAllowed && !deps.resetAllowed(user)) return;
    const token = newToken();
    const now = Date.now();
    await db
      .insertInto('password_reset_tokens')
      .values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: now + RESET_TOKEN_TTL_MS, used_at: null })
      .execute();
    const link = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    mailer.send({ to: user.email, ...passwordResetMail(link) }).catch(deps.onMailError);
  }

  return {
    /**
     * Asks for a reset link for `email` and returns at once, before anything about the address is
     * looked up: the answer, and its timing, are the same whether or not an account exists. The
     * lookup, the token and the mail follow in the background; `settle` waits for them.
     */
    request(email: string): void {
      const work = sendLinkIfAccount(email)
        .catch((err: unknown) => deps.onError(err, 'password reset request'))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    },

    /** Waits for the reset requests still being handled (the server closing, a test). */
    async settle(): Promise<void> {
      await Promise.all([...inFlight]);
    },

    /**
     * Sets the new password once per token, ends every session of the user, voids every other pending
     * link and code, and replaces the license token (the plugin signs in again): one transaction
     * (issue 36, decision 003). 403 for a suspended account, the link left as it was.
     */
    async reset(token: string, newPassword: string): Promise<void> {
      const tokenHash = hashToken(token);
      const row = await db.selectFrom('password_reset_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      if (!row || row.used_at !== null) throw badRequest('invalid_token', INVALID_LINK);
      const now = Date.now();
      if (row.expires_at <= now) throw badRequest('expired_token', EXPIRED_LINK);
      // Hashed before the transaction: scrypt takes its time, and SQLite's one connection would wait.
      const passwordHash = await users.passwordHash(newPassword);
      await db.transaction().execute(async (trx) => {
        // Claim the token first: of two concurrent resets only one updates the row.
        const claimed = await trx
          .updateTable('password_reset_tokens')
          .set({ used_at: now })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw badRequest('invalid_token', INVALID_LINK);
        // Read after the claim, in its transaction: a suspension racing the link wins.
        const owner = await trx.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirst();
        // A link mailed before the switch turned resets off for this account spends nothing.
        if (!owner || (deps.resetAllowed && !deps.resetAllowed(owner))) throw badRequest('invalid_token', INVALID_LINK);
        if (isSuspended(owner.status)) throw forbidden(ACCOUNT_SUSPENDED.error, ACCOUNT_SUSPENDED.message);
        await users.setPasswordHash(row.user_id, passwordHash, trx);
        await sessions.endAllForUser(row.user_id, trx);
        await voidPendingCredentials(trx, row.user_id);
        await replaceLicenseToken(trx, row.user_id);
      });
    },

    /** Housekeeping: drops tokens that can no longer be used, expired or spent. */
    async purgeExpired(): Promise<void> {
      await db
        .deleteFrom('password_reset_tokens')
        .where((eb) => eb.or([eb('expires_at', '<=', Date.now()), eb('used_at', 'is not', null)]))
        .execute();
    },
  };
}
