import {
  isAppCode,
  needsSecondFactor,
  SECOND_FACTOR_ERRORS,
  SECOND_FACTOR_MESSAGES,
  SECOND_FACTOR_SIGN_IN_MS,
  TOTP_ISSUER,
  type OwnerProof,
  type SecondFactorStatus,
  type StaffSecondFactorPolicy,
  type TotpEnrolment,
} from '../../../contract/secondFactor';
import { isSuspended } from '../../../contract/suspension';
import type { Db } from '../../db';
import { AppError, badRequest, conflict } from '../../errors';
import type { Actor, AuditService } from '../audit';
import type { Mail, Mailer } from '../mailer';
import { verifyPassword } from '../passwords';
import type { NewSession, SessionService } from '../sessions';
import { checkStaffAuthority } from '../staffAuthority';
import { hashToken, newToken } from '../tokens';
import { accountSuspended, type User } from '../users';
import { secondFactorMails } from './mails';
import { newRecoveryCodes, recoveryCodeHash } from './recoveryCodes';
import { matchTotp, newTotpSecret, otpauthUri } from './totp';

/** Which factor proved the second step: the authenticator app's code, a recovery code, or a passkey. */
export type UsedFactor = 'totp' | 'recovery_code' | 'passkey';

/** Whether the account has a confirmed authenticator app. */
export async function hasTotp(db: Db, userId: string): Promise<boolean> {
  const totp = await db
    .selectFrom('user_totp')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return totp !== undefined;
}

/**
 * Whether the account has a second factor: a confirmed authenticator app, or at least one passkey
 * (decisions 046, 049). `db`: the caller's transaction when within one.
 */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  if (await hasTotp(db, userId)) return true;
  const passkey = await db.selectFrom('passkeys').select('id').where('user_id', '=', userId).executeTakeFirst();
  return passkey !== undefined;
}

/** Replaces the account's recovery codes with ten new ones, in the caller's transaction; answers them, to show once. */
export async function replaceRecoveryCodes(trx: Db, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  const now = Date.now();
  await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ code_hash: recoveryCodeHash(code), user_id: userId, created_at: now, used_at: null })))
    .execute();
  return codes;
}

/**
 * Accepts `code` for the account once: an app code of a step newer than the last one used (one
 * atomic update, so the same code sent twice at once passes once), or an unused recovery code
 * (UPDATE … WHERE used_at IS NULL). Null when it is neither.
 */
export async function useCode(trx: Db, userId: string, code: string, now = Date.now()): Promise<UsedFactor | null> {
  if (isAppCode(code)) {
    const row = await trx
      .selectFrom('user_totp')
      .select('secret')
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirst();
    const step = row ? matchTotp(row.secret, code.replace(/\s/g, ''), now) : null;
    if (step === null) return null;
    const taken = await trx
      .updateTable('user_totp')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? 'totp' : null;
  }
  const used = await trx
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryCodeHash(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1 ? 'recovery_code' : null;
}

export function createSecondFactorService(deps: {
  db: Db;
  sessions: SessionService;
  audit: AuditService;
  mailer: Mailer;
  publicUrl: string;
  supportEmail: string;
  staffPolicy: StaffSecondFactorPolicy;
  onMailError: (err: unknown) => void;
}) {
  const { db, audit } = deps;
  const ctx = { publicUrl: deps.publicUrl, supportEmail: deps.supportEmail };
  const self = (user: User): Actor => ({ id: user.id, email: user.email });
  const tell = (to: string | null, mail: Omit<Mail, 'to'>) => {
    if (to) deps.mailer.send({ to, ...mail }).catch(deps.onMailError);
  };

  async function unusedRecoveryCodes(trx: Db, userId: string): Promise<number> {
    const { n } = await trx
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /**
   * The owner's proof for a change (turn off, new recovery codes): their password, or a fresh code
   * (used up by the proof). 400 `wrong_proof` otherwise.
   */
  async function proveOwner(user: User, proof: OwnerProof): Promise<void> {
    const ok =
      proof.password !== undefined
        ? user.password_hash !== null && (await verifyPassword(proof.password, user.password_hash))
        : proof.code !== undefined && (await useCode(db, user.id, proof.code)) !== null;
    if (!ok) throw badRequest(SECOND_FACTOR_ERRORS.wrongProof, SECOND_FACTOR_MESSAGES.wrongProof);
  }

  const service = {
    hasSecondFactor: (userId: string, trx: Db = db) => hasSecondFactor(trx, userId),

    /** What the Account section shows. */
    async status(user: User): Promise<SecondFactorStatus> {
      const totp = await db
        .selectFrom('user_totp')
        .select('confirmed_at')
        .where('user_id', '=', user.id)
        .where('confirmed_at', 'is not', null)
        .executeTakeFirst();
      return {
        hasPassword: user.password_hash !== null,
        totp: { enrolled: totp !== undefined, since: totp?.confirmed_at == null ? null : Number(totp.confirmed_at) },
        recoveryCodesLeft: await unusedRecoveryCodes(db, user.id),
        requiredForStaff: user.is_admin === 1 && deps.staffPolicy === 'required',
      };
    },

    /**
     * Starts setting up an authenticator app: a new secret, replacing one not yet confirmed (one
     * upsert: of two starts at once the last one written is the one a code confirms). 409 when an
     * app is set up already, or the account has no password (Epic's own sign-in protects it).
     */
    async startTotp(user: User): Promise<TotpEnrolment> {
      if (user.password_hash === null) throw conflict(SECOND_FACTOR_ERRORS.noPassword, SECOND_FACTOR_MESSAGES.noPassword);
      const secret = newTotpSecret();
      const now = Date.now();
      const written = await db
        .insertInto('user_totp')
        .values({ user_id: user.id, secret, created_at: now, confirmed_at: null, last_used_step: null })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({ secret, created_at: now, last_used_step: null }).where('user_totp.confirmed_at', 'is', null),
        )
        .executeTakeFirst();
      if (Number(written.numInsertedOrUpdatedRows ?? 0) !== 1)
        throw conflict(SECOND_FACTOR_ERRORS.enrolled, SECOND_FACTOR_MESSAGES.enrolled);
      return { secret, otpauthUri: otpauthUri(secret, TOTP_ISSUER, user.email ?? user.username) };
    },

    /**
     * Confirms the app with its current code: `confirmed_at` is set only where still null and only
     * for the secret the code belongs to, with ten new recovery codes and the audit entry, in one
     * transaction; then a mail tells the owner. Answers the codes, to show once.
     */
    async confirmTotp(user: User, code: string): Promise<string[]> {
      const pending = await db.selectFrom('user_totp').selectAll().where('user_id', '=', user.id).executeTakeFirst();
      if (pending?.confirmed_at != null) throw conflict(SECOND_FACTOR_ERRORS.enrolled, SECOND_FACTOR_MESSAGES.enrolled);
      if (!pending) throw conflict(SECOND_FACTOR_ERRORS.notStarted, SECOND_FACTOR_MESSAGES.notStarted);
      const now = Date.now();
      const step = isAppCode(code) ? matchTotp(pending.secret, code.replace(/\s/g, ''), now) : null;
      if (step === null) throw badRequest(SECOND_FACTOR_ERRORS.wrongCode, SECOND_FACTOR_MESSAGES.wrongCode);
      const codes = await db.transaction().execute(async (trx) => {
        const confirmed = await trx
          .updateTable('user_totp')
          .set({ confirmed_at: now, last_used_step: step })
          .where('user_id', '=', user.id)
          .where('secret', '=', pending.secret)
          .where('confirmed_at', 'is', null)
          .executeTakeFirst();
        // Another start replaced the secret, or another confirm won: this code proves nothing now.
        if (Number(confirmed.numUpdatedRows) !== 1) throw conflict(SECOND_FACTOR_ERRORS.notStarted, SECOND_FACTOR_MESSAGES.notStarted);
        const fresh = await replaceRecoveryCodes(trx, user.id);
        await audit.record(
          self(user),
          { action: 'account.second_factor.enable', targetType: 'user', targetId: user.id, after: { factor: 'totp' } },
          trx,
        );
        return fresh;
      });
      tell(user.email, secondFactorMails.enabled(ctx));
      return codes;
    },

    /**
     * Turns the authenticator app off, given the password or a fresh code; the recovery codes go
     * too when no other second factor remains. Audited, and the owner is told.
     */
    async removeTotp(user: User, proof: OwnerProof): Promise<void> {
      if (!(await hasTotp(db, user.id))) throw conflict(SECOND_FACTOR_ERRORS.notEnrolled, SECOND_FACTOR_MESSAGES.notEnrolled);
      await proveOwner(user, proof);
      await db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('user_totp').where('user_id', '=', user.id).executeTakeFirst();
        if (Number(removed.numDeletedRows) !== 1) throw conflict(SECOND_FACTOR_ERRORS.notEnrolled, SECOND_FACTOR_MESSAGES.notEnrolled);
        if (!(await hasSecondFactor(trx, user.id))) await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
        await audit.record(
          self(user),
          {
            action: 'account.second_factor.disable',
            targetType: 'user',
            targetId: user.id,
            before: { factor: 'totp' },
            after: { proof: proof.password !== undefined ? 'password' : 'code' },
          },
          trx,
        );
      });
      tell(user.email, secondFactorMails.disabled(ctx));
    },

    /** Ten new recovery codes in place of the old ones, given the password or a fresh code. */
    async regenerateRecoveryCodes(user: User, proof: OwnerProof): Promise<string[]> {
      if (!(await hasSecondFactor(db, user.id))) throw conflict(SECOND_FACTOR_ERRORS.notEnrolled, SECOND_FACTOR_MESSAGES.notEnrolled);
      await proveOwner(user, proof);
      const codes = await db.transaction().execute(async (trx) => {
        const fresh = await replaceRecoveryCodes(trx, user.id);
        await audit.record(
          self(user),
          {
            action: 'account.recovery_codes.regenerate',
            targetType: 'user',
            targetId: user.id,
            after: { proof: proof.password !== undefined ? 'password' : 'code' },
          },
          trx,
        );
        return fresh;
      });
      tell(user.email, secondFactorMails.regenerated(ctx));
      return codes;
    },

    /**
     * A password sign-in of an account with a second factor: no session yet, but a single-use
     * token for this browser's cookie (stored hashed), good for five minutes.
     */
    async startSignIn(userId: string, persistent: boolean): Promise<{ token: string; expiresAt: number }> {
      const token = newToken();
      const now = Date.now();
      const expiresAt = now + SECOND_FACTOR_SIGN_IN_MS;
      await db
        .insertInto('second_factor_sign_ins')
        .values({ token_hash: hashToken(token), user_id: userId, persistent: persistent ? 1 : 0, created_at: now, expires_at: expiresAt })
        .execute();
      return { token, expiresAt };
    },

    /** The e-mail of the account a pending sign-in is for (its sign-in limits' key), or null when there is none or it expired. */
    async pendingSignInEmail(token: string): Promise<string | null> {
      return (await service.pendingSignIn(token))?.email ?? null;
    },

    /** The account a pending sign-in is for (its id, and its e-mail: the limits' key), or null when there is none or it expired. */
    async pendingSignIn(token: string): Promise<{ userId: string; email: string } | null> {
      const row = await db
        .selectFrom('second_factor_sign_ins')
        .innerJoin('users', 'users.id', 'second_factor_sign_ins.user_id')
        .select(['users.id', 'users.email'])
        .where('second_factor_sign_ins.token_hash', '=', hashToken(token))
        .where('second_factor_sign_ins.expires_at', '>', Date.now())
        .executeTakeFirst();
      return row ? { userId: row.id, email: row.email ?? '' } : null;
    },

    /**
     * The second step of a sign-in: the code used, the pending sign-in used up and the session
     * started (by `start`, in the same transaction), all or nothing. Null for a wrong code (nothing
     * written); 401 `second_factor_expired` when the sign-in is unknown, expired or used meanwhile.
     */
    async completeSignIn(
      token: string,
      code: string,
      start: (trx: Db, userId: string, persistent: boolean) => Promise<NewSession>,
    ): Promise<{ session: NewSession; factor: UsedFactor } | null> {
      return service.completeSignInWith(token, (trx, userId) => useCode(trx, userId, code), start);
    },

    /**
     * As `completeSignIn`, with the factor proved by `prove` (within the transaction; null: not
     * proved). A passkey's answer is verified before, for the pending sign-in's user, and `prove`
     * answers 'passkey': the pending sign-in is still used up once, all or nothing.
     */
    async completeSignInWith(
      token: string,
      prove: (trx: Db, userId: string) => Promise<UsedFactor | null>,
      start: (trx: Db, userId: string, persistent: boolean) => Promise<NewSession>,
    ): Promise<{ session: NewSession; factor: UsedFactor } | null> {
      const expired = () => new AppError(401, SECOND_FACTOR_ERRORS.signInExpired, SECOND_FACTOR_MESSAGES.signInExpired);
      const tokenHash = hashToken(token);
      const done = await db.transaction().execute(async (trx) => {
        const pending = await trx
          .selectFrom('second_factor_sign_ins')
          .innerJoin('users', 'users.id', 'second_factor_sign_ins.user_id')
          .select(['users.id', 'users.email', 'users.status', 'second_factor_sign_ins.persistent'])
          .where('second_factor_sign_ins.token_hash', '=', tokenHash)
          .where('second_factor_sign_ins.expires_at', '>', Date.now())
          .executeTakeFirst();
        if (!pending) throw expired();
        if (isSuspended(pending.status)) throw accountSuspended();
        const factor = await prove(trx, pending.id);
        if (!factor) return null;
        const used = await trx.deleteFrom('second_factor_sign_ins').where('token_hash', '=', tokenHash).executeTakeFirst();
        if (Number(used.numDeletedRows) !== 1) throw expired();
        const session = await start(trx, pending.id, pending.persistent === 1);
        const left = factor === 'recovery_code' ? await unusedRecoveryCodes(trx, pending.id) : 0;
        return { session, factor, email: pending.email, left };
      });
      if (!done) return null;
      if (done.factor === 'recovery_code') tell(done.email, secondFactorMails.recoveryCodeUsed(done.left, ctx));
      return { session: done.session, factor: done.factor };
    },

    /** Housekeeping: drops sign-ins that waited past their five minutes. */
    async purgeExpired(): Promise<void> {
      await db.deleteFrom('second_factor_sign_ins').where('expires_at', '<=', Date.now()).execute();
    },

    /** Whether the staff gate refuses this signed-in user on the console's API (decision 046). */
    async staffNeedsSecondFactor(user: User, sessionToken: string | undefined): Promise<boolean> {
      if (user.is_admin !== 1 || deps.staffPolicy !== 'required') return false;
      return needsSecondFactor({
        isStaff: true,
        policy: deps.staffPolicy,
        sessionMethod: sessionToken ? await deps.sessions.methodOf(sessionToken) : null,
        hasSecondFactor: await hasSecondFactor(db, user.id),
      });
    },

    /**
     * The support path (decision 046): staff turn a user's second factor off after checking who
     * asks; `identityCheck` says how, kept in the audit entry. The roles' rules as any write about a
     * user (support: customers only); the owner is told.
     */
    async reset(actor: Actor, userId: string, identityCheck: string): Promise<{ ok: true; message: string }> {
      const target = await db.transaction().execute(async (trx) => {
        const before = await checkStaffAuthority(trx, { actor, action: 'resetSecondFactor', targetId: userId });
        if (!(await hasSecondFactor(trx, userId)))
          throw conflict(SECOND_FACTOR_ERRORS.notEnrolled, 'This user has no two-step sign-in to reset.');
        const totp = await trx.deleteFrom('user_totp').where('user_id', '=', userId).executeTakeFirst();
        const passkeys = await trx.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx.deleteFrom('second_factor_sign_ins').where('user_id', '=', userId).execute();
        await audit.record(
          actor,
          {
            action: 'user.second_factor.reset',
            targetType: 'user',
            targetId: userId,
            before: { totp: Number(totp.numDeletedRows) === 1, passkeys: Number(passkeys.numDeletedRows) },
            after: { identityCheck },
          },
          trx,
        );
        return before;
      });
      tell(target.email, secondFactorMails.reset(ctx));
      return {
        ok: true,
        message:
          'Two-step sign-in was turned off for this user (their authenticator app and passkeys removed), and they were told by e-mail.',
      };
    },
  };
  return service;
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
