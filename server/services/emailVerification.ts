import {
  RESEND_COOLDOWN_MS,
  VERIFICATION_ERROR_CODES,
  VERIFICATION_EXPIRED_MESSAGE,
  VERIFICATION_TTL_MS,
  VERIFY_LINK_MESSAGES,
  type SendVerificationResponse,
  type VerificationStatus,
} from '../../contract/emailVerification';
import { ACCOUNT_SUSPENDED, isSuspended } from '../../contract/suspension';
import type { Db } from '../db';
import { AppError, forbidden, RateLimitedError } from '../errors';
import type { EpicSignInService } from './epicSignIn';
import { escapeHtml, type Mailer } from './mailer';
import { hashToken, newToken } from './tokens';
import { isUniqueViolation, normalizeEmail, type UserService } from './users';

const NOT_LINKING = 'This email is not waiting for verification here. Please link it to your Epic account first.';
const INVALID_LINK = VERIFY_LINK_MESSAGES.invalid;

/**
 * The mail carries no words of the requester's (not even the Epic display name): anyone can ask for
 * it to be sent to any address, so it must not be a way to send people text of one's choosing.
 */
export function verificationMail(link: string) {
  return {
    subject: 'Verify your email for Sage',
    text:
      `Hello,\n\n` +
      `To link this email to your Epic Games account on Sage, open this link within 15 minutes:\n${link}\n\n` +
      `If you did not sign in to Sage, ignore this mail: nothing will be linked.\n`,
    html:
      `<p>Hello,</p>` +
      `<p><a href="${escapeHtml(link)}">Verify your email</a> to link it to your Epic Games account on Sage (the link works for 15 minutes).</p>` +
      `<p>If you did not sign in to Sage, ignore this mail: nothing will be linked.</p>`,
  };
}

/** What `GET /api/email/verify` shows on `/email-verification-completed`. */
export interface VerifyOutcome {
  success: boolean;
  message: string;
}

/**
 * Verification mails for the e-mail an Epic account links. A link is bound to the browser's
 * sign-in flow: only that browser can ask whether it was opened, and only it gets signed in.
 */
export function createEmailVerificationService(deps: {
  db: Db;
  mailer: Mailer;
  users: UserService;
  epicSignIn: EpicSignInService;
  publicUrl: string;
}) {
  const { db, mailer, users, epicSignIn } = deps;

  /** The flow linking exactly this e-mail; 403 for any other browser or address. */
  async function linkingFlow(flowToken: string | undefined, email: string) {
    const flow = await epicSignIn.flow(flowToken);
    const normalized = normalizeEmail(email);
    if (!flow?.epic_account_id || !flow.epic_display_name || flow.link_email !== normalized) {
      throw forbidden('not_linking', NOT_LINKING);
    }
    return { ...flow, email: normalized, epicAccountId: flow.epic_account_id, displayName: flow.epic_display_name };
  }

  async function latest(flowId: string, email: string) {
    return db
      .selectFrom('email_verifications')
      .selectAll()
      .where('flow_id', '=', flowId)
      .where('email', '=', email)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  const service = {
    /** Refuses (403) a browser that is not linking exactly this e-mail. */
    async assertLinking(flowToken: string | undefined, email: string): Promise<void> {
      await linkingFlow(flowToken, email);
    },

    /**
     * Sends a verification mail. `send` is idempotent within the cooldown (a reloaded page does
     * not mail twice); `resend` is refused with 429 within it. A new mail voids the earlier link.
     */
    async send(flowToken: string | undefined, email: string, mode: 'send' | 'resend'): Promise<SendVerificationResponse> {
      const flow = await linkingFlow(flowToken, email);
      const previous = await latest(flow.id, flow.email);
      const now = Date.now();
      if (previous?.verified_at) return { ok: true, code: 'already_verified', message: 'Email already verified' };
      if (previous && previous.created_at + RESEND_COOLDOWN_MS > now) {
        const waitMs = previous.created_at + RESEND_COOLDOWN_MS - now;
        if (mode === 'send') return { ok: true, code: 'already_sent', message: 'Verification email already sent' };
        throw new RateLimitedError(`Please wait ${Math.ceil(waitMs / 1000)} seconds before requesting another email`, waitMs);
      }
      const token = newToken();
      try {
        // The new link replaces the earlier one in one transaction: a failure leaves the earlier one.
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('email_verifications').where('flow_id', '=', flow.id).execute();
          await trx
            .insertInto('email_verifications')
            .values({
              token_hash: hashToken(token),
              flow_id: flow.id,
              email: flow.email,
              epic_account_id: flow.epicAccountId,
              epic_display_name: flow.displayName,
              created_at: now,
              expires_at: now + VERIFICATION_TTL_MS,
              verified_at: null,
            })
            .execute();
        });
      } catch (err) {
        // One link per flow (unique index): a send racing this one got there first and mails it.
        if (isUniqueViolation(err)) return { ok: true, code: 'already_sent', message: 'Verification email already sent' };
        throw err;
      }
      const link = `${deps.publicUrl}/api/email/verify?token=${encodeURIComponent(token)}`;
      try {
        await mailer.send({ to: flow.email, ...verificationMail(link) });
      } catch (err) {
        // Nothing was sent: forget the link so the cooldown does not hold back a retry.
        await db.deleteFrom('email_verifications').where('token_hash', '=', hashToken(token)).execute();
        throw new AppError(502, 'mail_failed', 'Failed to send verification email', { cause: err });
      }
      return { ok: true, code: 'sent', message: mode === 'send' ? 'Verification email sent' : 'Verification email resent' };
    },

    /** `POST /api/email/check-verification-status`: only the browser that is linking may ask. */
    async status(flowToken: string | undefined, email: string): Promise<VerificationStatus> {
      const flow = await linkingFlow(flowToken, email);
      const row = await latest(flow.id, flow.email);
      if (row?.verified_at) return { ok: true, verified: true, message: 'Email verified' };
      if (row && row.expires_at <= Date.now()) throw new AppError(410, VERIFICATION_ERROR_CODES.expired, VERIFICATION_EXPIRED_MESSAGE);
      return { ok: true, verified: false, message: 'Waiting for verification' };
    },

    /**
     * `GET /api/email/verify`: the mail's link. Marks it verified once and creates the Epic user's
     * account with the address; the linking browser then signs in through callback-internal.
     */
    async verify(token: string): Promise<VerifyOutcome> {
      const tokenHash = hashToken(token);
      const row = await db.selectFrom('email_verifications').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      if (!row || row.verified_at !== null) return { success: false, message: INVALID_LINK };
      const now = Date.now();
      if (row.expires_at <= now) return { success: false, message: VERIFICATION_EXPIRED_MESSAGE };
      // The link's use and the account are one transaction: the waiting page, polling meanwhile, sees
      // "verified" only with an account to sign in to. Creating it twice returns the same one.
      try {
        return await db.transaction().execute(async (trx) => {
          const claimed = await trx
            .updateTable('email_verifications')
            .set({ verified_at: now })
            .where('token_hash', '=', tokenHash)
            .where('verified_at', 'is', null)
            .executeTakeFirst();
          // Opened twice at once: one of the two is the link's single use.
          if (Number(claimed.numUpdatedRows) !== 1) return { success: false, message: INVALID_LINK };
          const user = await users.createEpicUser(
            { email: row.email, epicAccountId: row.epic_account_id, displayName: row.epic_display_name },
            trx,
          );
          // The Epic account's user is suspended (issue 36): refused, and nobody is signed in by it.
          if (isSuspended(user.status)) throw forbidden(ACCOUNT_SUSPENDED.error, ACCOUNT_SUSPENDED.message);
          return { success: true, message: VERIFY_LINK_MESSAGES.verified };
        });
      } catch (err) {
        // Refused (the link stays unused): the account is suspended, or the address or the Epic account is another's.
        if (!(err instanceof AppError)) throw err;
        if (err.code === ACCOUNT_SUSPENDED.error) return { success: false, message: ACCOUNT_SUSPENDED.message };
        const taken = err.code === 'epic_account_linked' ? VERIFY_LINK_MESSAGES.epicAccountLinked : VERIFY_LINK_MESSAGES.emailTaken;
        return { success: false, message: taken };
      }
    },

    /**
     * Housekeeping: links that expired unopened. Opened ones stay until their flow ends (it takes
     * them with it), so the waiting page can still read "verified" after the link's 15 minutes.
     */
    async purgeExpired(): Promise<void> {
      await db.deleteFrom('email_verifications').where('expires_at', '<=', Date.now()).where('verified_at', 'is', null).execute();
    },
  };
  return service;
}

export type EmailVerificationService = ReturnType<typeof createEmailVerificationService>;
