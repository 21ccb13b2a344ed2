import {
  EMAIL_CHANGE_ERRORS,
  EMAIL_CHANGE_MESSAGES,
  EMAIL_CHANGE_TTL_MS,
  type AccountEmail,
  type EmailChangeOutcome,
  type EmailChangeRequested,
} from '../../../contract/accountEmail';
import { isSuspended } from '../../../contract/suspension';
import { recentSignInRefusal, type SigningInAccount } from '../../../contract/recentSignIn';
import type { Db } from '../../db';
import { AppError, badRequest, conflict, forbidden } from '../../errors';
import type { AuditService } from '../audit';
import type { CustomerEmails } from '../billing/customerEmail';
import { escapeHtml, type Mailer } from '../mailer';
import { verifyPassword } from '../passwords';
import type { SessionService } from '../sessions';
import { hashToken, newToken } from '../tokens';
import { isUniqueViolation, normalizeEmail, type User, type UserService } from '../users';
import { changeLinkState, emailChangeProof } from './emailChangeRules';

/** The mail to the new address: fixed words and the link, nothing the requester wrote. */
export function emailChangeMail(link: string) {
  return {
    subject: 'Confirm your new e-mail for Sage',
    text:
      `Hello,\n\n` +
      `Someone asked to make this address the e-mail of their Sage account. To confirm it, open this link within one hour:\n${link}\n\n` +
      `If it was not you, ignore this mail: nothing will change.\n`,
    html:
      `<p>Hello,</p>` +
      `<p>Someone asked to make this address the e-mail of their Sage account. <a href="${escapeHtml(link)}">Confirm your new e-mail</a> (the link works for one hour).</p>` +
      `<p>If it was not you, ignore this mail: nothing will change.</p>`,
  };
}

/** The mail to the old address once the change is made: the holder of a taken account learns of it. */
export function emailChangedMail(newEmail: string, supportEmail: string) {
  return {
    subject: 'Your Sage e-mail was changed',
    text:
      `Hello,\n\n` +
      `Your Sage e-mail was changed to ${newEmail}. This address no longer signs in or receives mail about your account.\n\n` +
      `If you did not make this change, write to ${supportEmail} at once.\n`,
    html:
      `<p>Hello,</p>` +
      `<p>Your Sage e-mail was changed to ${escapeHtml(newEmail)}. This address no longer signs in or receives mail about your account.</p>` +
      `<p>If you did not make this change, write to ${escapeHtml(supportEmail)} at once.</p>`,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Changing a user's e-mail (issue 27): a single-use, expiring link (stored as its SHA-256, like
 * reset tokens) goes to the new address; opening it switches the address, marks it verified,
 * audits the change and tells the old address. Until then the old address stays the account's.
 * The user's Stripe customer, if any, is sent the new address after the commit (customerEmail.ts).
 */
export function createEmailChangeService(deps: {
  db: Db;
  users: UserService;
  mailer: Mailer;
  audit: AuditService;
  /** Stripe's copy of the address, where receipts and invoices go. */
  customerEmails: Pick<CustomerEmails, 'markOutdated' | 'sendSoon'>;
  /** Where this browser's sign-in is read. */
  sessions: Pick<SessionService, 'startedAt'>;
  publicUrl: string;
  supportEmail: string;
  onMailError: (err: unknown) => void;
}) {
  const { db, users, mailer, audit } = deps;

  /** What the one "recent sign-in" rule reads of the account and this browser. */
  async function signingIn(user: User, sessionToken: string | undefined): Promise<SigningInAccount> {
    return { hasPassword: user.password_hash !== null, sessionStartedAt: await deps.sessions.startedAt(sessionToken) };
  }

  async function proofOf(user: User, sessionToken: string | undefined) {
    return emailChangeProof({ ...(await signingIn(user, sessionToken)), now: Date.now() });
  }

  /** The change waiting for its link, if one is still usable. */
  async function pendingOf(userId: string) {
    const row = await db
      .selectFrom('email_changes')
      .select(['new_email', 'expires_at'])
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', Date.now())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row ? { newEmail: row.new_email, expiresAt: iso(Number(row.expires_at)) } : null;
  }

  /** Refuses the request unless the account passes the one "recent sign-in" rule (decision 034). */
  async function checkProof(user: User, sessionToken: string | undefined, currentPassword: string | undefined): Promise<void> {
    const passwordGiven = Boolean(currentPassword);
    const passwordMatches = passwordGiven && user.password_hash !== null && (await verifyPassword(currentPassword!, user.password_hash));
    const refusal = recentSignInRefusal(await signingIn(user, sessionToken), { passwordGiven, passwordMatches }, Date.now());
    if (refusal === 'sign_in_again') throw forbidden(EMAIL_CHANGE_ERRORS.signInAgain, EMAIL_CHANGE_MESSAGES.signInAgain);
    if (refusal === 'password_required') throw badRequest(EMAIL_CHANGE_ERRORS.passwordRequired, EMAIL_CHANGE_MESSAGES.passwordRequired);
    if (refusal === 'wrong_password') throw badRequest(EMAIL_CHANGE_ERRORS.wrongPassword, EMAIL_CHANGE_MESSAGES.wrongPassword);
  }

  /** Switches the address in one transaction; the old address, or 'taken' when another account has the new one. */
  async function applyChange(row: { token_hash: string; user_id: string; new_email: string }, now: number) {
    return db.transaction().execute(async (trx) => {
      // Claimed first: of two openings at once, one changes the address.
      const claimed = await trx
        .updateTable('email_changes')
        .set({ used_at: now })
        .where('token_hash', '=', row.token_hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return { kind: 'used' as const };
      const owner = await users.findByEmail(row.new_email, trx);
      // Thrown, not returned: the claim rolls back with it, and the link stays as it was.
      if (owner && owner.id !== row.user_id) throw conflict(EMAIL_CHANGE_ERRORS.emailTaken, EMAIL_CHANGE_MESSAGES.emailTaken);
      const user = await trx.selectFrom('users').select(['email', 'status']).where('id', '=', row.user_id).executeTakeFirstOrThrow();
      // Suspended since the link was sent (issue 36): the link is spent, the address stays.
      if (isSuspended(user.status)) return { kind: 'suspended' as const };
      await trx
        .updateTable('users')
        .set({ email: row.new_email, email_verified_at: now, updated_at: now })
        .where('id', '=', row.user_id)
        .execute();
      // Other change links, and reset links mailed to the old address, stop working with it.
      await trx.deleteFrom('email_changes').where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
      await trx.deleteFrom('password_reset_tokens').where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
      // Marked with the change, so a send to Stripe that fails or never starts is retried, not lost.
      const tellStripe = await deps.customerEmails.markOutdated(trx, row.user_id, now);
      await audit.record(
        { id: row.user_id, email: user.email },
        {
          action: 'account.email.change',
          targetType: 'user',
          targetId: row.user_id,
          before: { email: user.email },
          after: { email: row.new_email },
        },
        trx,
      );
      return { kind: 'changed' as const, oldEmail: user.email, tellStripe };
    });
  }

  return {
    /** `GET /api/account/email`: the address, whether verified, the Epic account, and what a change takes. */
    async overview(user: User, sessionToken: string | undefined): Promise<AccountEmail> {
      return {
        email: user.email,
        verified: user.email !== null && user.email_verified_at !== null,
        epicDisplayName: user.epic_account_id !== null ? (user.epic_display_name ?? user.username) : null,
        proof: await proofOf(user, sessionToken),
        pending: await pendingOf(user.id),
      };
    },

    /**
     * `POST /api/account/email`: mails a link to the new address. A new request voids the earlier
     * link; nothing about the account changes until a link is opened.
     */
    async request(
      user: User,
      sessionToken: string | undefined,
      input: { newEmail: string; currentPassword?: string | undefined },
    ): Promise<EmailChangeRequested> {
      const newEmail = normalizeEmail(input.newEmail);
      if (newEmail === user.email) throw badRequest(EMAIL_CHANGE_ERRORS.sameEmail, EMAIL_CHANGE_MESSAGES.sameEmail);
      await checkProof(user, sessionToken, input.currentPassword);
      // Asked now so the form says so at once; asked again when the link is opened.
      if (await users.findByEmail(newEmail)) throw conflict(EMAIL_CHANGE_ERRORS.emailTaken, EMAIL_CHANGE_MESSAGES.emailTaken);
      const token = newToken();
      const now = Date.now();
      const expiresAt = now + EMAIL_CHANGE_TTL_MS;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('email_changes').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
        await trx
          .insertInto('email_changes')
          .values({
            token_hash: hashToken(token),
            user_id: user.id,
            new_email: newEmail,
            created_at: now,
            expires_at: expiresAt,
            used_at: null,
          })
          .execute();
      });
      const link = `${deps.publicUrl}/api/account/email/confirm?token=${encodeURIComponent(token)}`;
      try {
        await mailer.send({ to: newEmail, ...emailChangeMail(link) });
      } catch (err) {
        // Nothing was sent: a link nobody can open would only show as pending.
        await db.deleteFrom('email_changes').where('token_hash', '=', hashToken(token)).execute();
        throw new AppError(502, 'mail_failed', EMAIL_CHANGE_MESSAGES.mailFailed, { cause: err });
      }
      return {
        ok: true,
        message: `We sent a link to ${newEmail}. Open it within an hour to confirm the change; until then your e-mail stays as it is.`,
        pending: { newEmail, expiresAt: iso(expiresAt) },
      };
    },

    /** `GET /api/account/email/confirm`: the mail's link, opened in any browser. */
    async confirm(token: string): Promise<EmailChangeOutcome> {
      const tokenHash = hashToken(token);
      const row = await db.selectFrom('email_changes').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      if (!row) return 'invalid_token';
      const now = Date.now();
      const state = changeLinkState(row, now);
      if (state !== 'usable') return state;
      let applied;
      try {
        applied = await applyChange(row, now);
      } catch (err) {
        // Taken since the request: by a look-up in the transaction, or by a race the unique index decided.
        if (isUniqueViolation(err) || (err instanceof AppError && err.code === EMAIL_CHANGE_ERRORS.emailTaken)) return 'email_taken';
        throw err;
      }
      if (applied.kind === 'used') return 'invalid_token';
      if (applied.kind === 'suspended') return 'account_suspended';
      if (applied.tellStripe) deps.customerEmails.sendSoon(row.user_id);
      if (applied.oldEmail && applied.oldEmail !== row.new_email) {
        mailer.send({ to: applied.oldEmail, ...emailChangedMail(row.new_email, deps.supportEmail) }).catch(deps.onMailError);
      }
      return 'changed';
    },

    /** Housekeeping: links that can no longer be used, expired or spent. */
    async purgeExpired(): Promise<void> {
      await db
        .deleteFrom('email_changes')
        .where((eb) => eb.or([eb('expires_at', '<=', Date.now()), eb('used_at', 'is not', null)]))
        .execute();
    },
  };
}

export type EmailChangeService = ReturnType<typeof createEmailChangeService>;
