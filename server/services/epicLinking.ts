import type { SignInClient } from '../../contract/epic';
import { EPIC_LINK_TOKEN_TTL_MS, EPIC_LINKING_TEXT as TEXT, type EpicLinkStatus } from '../../contract/epicLinking';
import { passwordSignInAllowed, unlinkAllowed, type LegacyLoginMode } from '../../contract/legacyLogin';
import { isSuspended } from '../../contract/suspension';
import type { Db } from '../db';
import type { SignInFlowsTable, UsersTable } from '../db/schema';
import { AppError, badRequest, conflict, forbidden } from '../errors';
import type { AuditService } from './audit';
import { escapeHtml, type Mailer } from './mailer';
import { verifyPassword } from './passwords';
import { hasSecondFactor } from './secondFactor';
import type { NewSession, SessionOrigin, SessionService } from './sessions';
import { hashToken, newToken } from './tokens';
import { accountSuspended, isUniqueViolation, type UserService } from './users';

/** The Epic account a sign-in brought back. */
export interface EpicAccount {
  accountId: string;
  displayName: string;
}

/** How the account an Epic id is linked to was proved (kept in the audit entry). */
export type LinkProof = 'session' | 'session_password' | 'password' | 'emailed_link';

/** Where linking from an Epic callback or a link step leaves the browser. */
export type LinkOutcome =
  | { kind: 'linked'; user: UsersTable; client: SignInClient; session: NewSession | null }
  | { kind: 'refused'; reason: 'epic_account_taken' | 'epic_already_linked' | 'account_suspended' };

/** What an opened e-mailed link leads to. */
export type EmailedLinkOutcome =
  | LinkOutcome
  /** Not the browser whose sign-in waits for it (or none waits): a fresh Epic sign-in for linking to this user. */
  | { kind: 'start_link'; userId: string }
  | { kind: 'invalid' };

const facts = (user: Pick<UsersTable, 'password_hash' | 'epic_account_id'>) => ({
  hasPassword: user.password_hash !== null,
  hasEpic: user.epic_account_id !== null,
});

/**
 * Whether `user` may prove itself by password to link Epic: the one place the password path is
 * decided. It needs a password the switch still takes for an account without Epic, and no second
 * factor (an authenticator app or a passkey, decisions 046 and 049): such an account proves itself
 * by the e-mailed link instead, which a password alone cannot reach.
 */
export function passwordCheckAllowed(
  user: Pick<UsersTable, 'password_hash' | 'epic_account_id'>,
  mode: LegacyLoginMode,
  secondFactor: boolean,
): boolean {
  return !secondFactor && passwordSignInAllowed(mode, { hasPassword: user.password_hash !== null, hasEpic: false });
}

export function epicLinkedMail(displayName: string, accountLink: string) {
  return {
    subject: 'An Epic Games account was linked to your Sage account',
    text:
      `The Epic Games account "${displayName}" was just linked to your Sage account: it signs in to Sage from now on.\n\n` +
      `If it was not you, unlink it in the Account section and change your password at once:\n${accountLink}\n`,
    html:
      `<p>The Epic Games account “${escapeHtml(displayName)}” was just linked to your Sage account: it signs in to Sage from now on.</p>` +
      `<p>If it was not you, unlink it in the <a href="${escapeHtml(accountLink)}">Account section</a> and change your password at once.</p>`,
  };
}

export function epicUnlinkedMail(displayName: string, accountLink: string) {
  return {
    subject: 'An Epic Games account was unlinked from your Sage account',
    text:
      `The Epic Games account "${displayName}" was just unlinked from your Sage account: it no longer signs in to Sage.\n\n` +
      `If it was not you, change your password and link your Epic Games account again:\n${accountLink}\n`,
    html:
      `<p>The Epic Games account “${escapeHtml(displayName)}” was just unlinked from your Sage account: it no longer signs in to Sage.</p>` +
      `<p>If it was not you, change your password and link your Epic Games account again in the <a href="${escapeHtml(accountLink)}">Account section</a>.</p>`,
  };
}

export function epicLinkRequestMail(link: string, forSignIn: boolean) {
  const why = forSignIn
    ? 'Signing in to Sage with an email and password has been retired. Open this link to sign in with Epic Games and link it to your Sage account'
    : 'Someone asked to link an Epic Games account to your Sage account. Open this link in the browser where you were signing in to link it';
  return {
    subject: forSignIn ? 'Your link to sign in to Sage' : 'Link your Epic Games account to Sage',
    text: `${why} (it works once, for 30 minutes):\n${link}\n\nIf it was not you, ignore this mail: nothing changes.\n`,
    html:
      `<p>${escapeHtml(why)} (it works once, for 30 minutes):</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
      `<p>If it was not you, ignore this mail: nothing changes.</p>`,
  };
}

/**
 * Linking an Epic Games account to an existing Sage account (issue 40, decision 047). Every path
 * proves the account first; none merges two accounts (the Epic id goes only to an account that has
 * none, and never away from one that has it); each link and unlink is audited and mailed.
 */
export function createEpicLinkingService(deps: {
  db: Db;
  users: UserService;
  sessions: SessionService;
  audit: AuditService;
  mailer: Mailer;
  publicUrl: string;
  legacyLogin: LegacyLoginMode;
  onMailError: (err: unknown) => void;
  onError: (err: unknown, step: string) => void;
}) {
  const { db, users, sessions, audit, mailer, publicUrl } = deps;
  const accountLink = `${publicUrl}/dashboard#account`;
  const inFlight = new Set<Promise<void>>();

  /** Runs mail work after the answer: the answer and its timing say nothing of the address. */
  function inBackground(work: () => Promise<void>, step: string) {
    const running = work()
      .catch((err: unknown) => deps.onError(err, step))
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  }

  async function flowOf(token: string | undefined): Promise<SignInFlowsTable | null> {
    if (!token) return null;
    const flow = await db.selectFrom('sign_in_flows').selectAll().where('id', '=', hashToken(token)).executeTakeFirst();
    return flow && flow.expires_at > Date.now() ? flow : null;
  }

  /** The flow whose new Epic account waits on the link page; 403 otherwise. */
  async function pendingFlow(
    token: string | undefined,
  ): Promise<SignInFlowsTable & { epic_account_id: string; epic_display_name: string }> {
    const flow = await flowOf(token);
    if (!flow?.epic_account_id || !flow.epic_display_name) {
      throw forbidden('no_pending_sign_in', 'No Epic sign-in is waiting for an email here. Please sign in with Epic again.');
    }
    return { ...flow, epic_account_id: flow.epic_account_id, epic_display_name: flow.epic_display_name };
  }

  /**
   * Attaches `account` to `userId` in one transaction with the flow's success (when there is one),
   * the audit entry and, when `signIn`, the browser's new session. Refused, changing nothing, when
   * the Epic account belongs to another user or the user already has another Epic account.
   */
  async function attach(opts: {
    userId: string;
    account: EpicAccount;
    proof: LinkProof;
    flow: SignInFlowsTable | null;
    client: SignInClient;
    signIn: { previousSession: string | undefined; origin: SessionOrigin | undefined } | null;
  }): Promise<LinkOutcome> {
    const { userId, account, flow } = opts;
    let result: LinkOutcome;
    // Mailed once the link has landed, never from within its transaction.
    let mailTo: string | null = null;
    try {
      result = await db.transaction().execute(async (trx): Promise<LinkOutcome> => {
        const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
        if (!user || isSuspended(user.status)) return { kind: 'refused', reason: 'account_suspended' };
        const owner = await users.findByEpicAccount(account.accountId, trx);
        if (owner && owner.id !== user.id) return { kind: 'refused', reason: 'epic_account_taken' };
        if (user.epic_account_id !== null && user.epic_account_id !== account.accountId)
          return { kind: 'refused', reason: 'epic_already_linked' };
        const fresh = user.epic_account_id === null;
        if (fresh) {
          // Only onto an account that still has none: of two links at once, one wins.
          const updated = await trx
            .updateTable('users')
            .set({ epic_account_id: account.accountId, epic_display_name: account.displayName, updated_at: Date.now() })
            .where('id', '=', user.id)
            .where('epic_account_id', 'is', null)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) !== 1) return { kind: 'refused', reason: 'epic_already_linked' };
          await audit.record(
            { id: user.id, email: user.email },
            {
              action: 'account.epic.link',
              targetType: 'user',
              targetId: user.id,
              after: { epicAccountId: account.accountId, epicDisplayName: account.displayName, proof: opts.proof },
            },
            trx,
          );
        }
        if (flow) {
          await trx
            .updateTable('sign_in_flows')
            .set({
              epic_account_id: null,
              epic_display_name: null,
              link_email: null,
              link_user_id: null,
              user_id: user.id,
              ue_status: 'success',
              ue_message: 'Signed in',
            })
            .where('id', '=', flow.id)
            .execute();
        }
        const session = opts.signIn
          ? await sessions.signIn(opts.signIn.previousSession, user.id, true, 'epic', trx, opts.signIn.origin)
          : null;
        const linked = { ...user, epic_account_id: account.accountId, epic_display_name: account.displayName };
        if (fresh && user.email) mailTo = user.email;
        return { kind: 'linked', user: linked, client: opts.client, session };
      });
    } catch (err) {
      // Another user took this Epic id between the look-up and the write (the unique index).
      if (isUniqueViolation(err)) return { kind: 'refused', reason: 'epic_account_taken' };
      throw err;
    }
    if (mailTo) mailer.send({ to: mailTo, ...epicLinkedMail(account.displayName, accountLink) }).catch(deps.onMailError);
    if (result.kind === 'refused' && flow) {
      const message =
        result.reason === 'account_suspended'
          ? 'Account suspended'
          : TEXT[result.reason === 'epic_account_taken' ? 'taken' : 'alreadyLinked'].message;
      await db
        .updateTable('sign_in_flows')
        .set({ ue_status: 'failed', ue_message: message, link_user_id: null })
        .where('id', '=', flow.id)
        .execute();
    }
    return result;
  }

  /** Answers 409 for a refused link, with the words of its reason. */
  function linkedOrThrow(outcome: LinkOutcome): Extract<LinkOutcome, { kind: 'linked' }> {
    if (outcome.kind === 'linked') return outcome;
    if (outcome.reason === 'account_suspended') throw accountSuspended();
    const text = outcome.reason === 'epic_account_taken' ? TEXT.taken : TEXT.alreadyLinked;
    throw conflict(text.error, text.message);
  }

  /** A proof by password must come from an account that may use it, else 403 (the e-mailed link is the way). */
  async function requirePasswordPath(user: UsersTable) {
    if (!passwordCheckAllowed(user, deps.legacyLogin, await hasSecondFactor(db, user.id)))
      throw forbidden(TEXT.passwordNotAccepted.error, TEXT.passwordNotAccepted.message);
  }

  /** Creates the e-mailed link for `user` (and the flow that waits for it, if any) and mails it. */
  async function mailLink(user: UsersTable, flowId: string | null) {
    if (!user.email || isSuspended(user.status) || user.epic_account_id !== null) return;
    const token = newToken();
    const now = Date.now();
    await db
      .insertInto('epic_link_tokens')
      .values({
        token_hash: hashToken(token),
        user_id: user.id,
        flow_id: flowId,
        created_at: now,
        expires_at: now + EPIC_LINK_TOKEN_TTL_MS,
        used_at: null,
      })
      .execute();
    const link = `${publicUrl}/api/auth/link-email?token=${encodeURIComponent(token)}`;
    mailer.send({ to: user.email, ...epicLinkRequestMail(link, flowId === null) }).catch(deps.onMailError);
  }

  return {
    /** `GET /api/account/epic`. */
    status(user: UsersTable): EpicLinkStatus {
      return {
        linked: user.epic_account_id !== null,
        displayName: user.epic_display_name,
        hasPassword: user.password_hash !== null,
        canUnlink: unlinkAllowed(deps.legacyLogin, facts(user)),
      };
    },

    /**
     * The Epic callback of a sign-in started for linking (`flow.link_user_id`). From the Account
     * section it must still be that user's browser (`sessionUserId`); from an e-mailed link
     * (`link_signs_in`) the link was the proof, and the browser is signed in once linked.
     */
    async linkFromCallback(
      flow: SignInFlowsTable,
      account: EpicAccount,
      sessionUserId: string | null,
      previousSession: string | undefined,
      origin: SessionOrigin | undefined,
    ): Promise<LinkOutcome | null> {
      const userId = flow.link_user_id;
      if (!userId) return null;
      const signsIn = flow.link_signs_in === 1;
      if (!signsIn && sessionUserId !== userId) return null;
      return attach({
        userId,
        account,
        proof: signsIn ? 'emailed_link' : 'session',
        flow,
        client: flow.client,
        signIn: signsIn ? { previousSession, origin } : null,
      });
    },

    /** `POST /api/epic/link-signed-in`: the browser's own account, its password checked again. */
    async linkSignedIn(
      user: UsersTable,
      signInToken: string | undefined,
      password: string,
      previousSession: string | undefined,
      origin: SessionOrigin,
    ): Promise<Extract<LinkOutcome, { kind: 'linked' }>> {
      const flow = await pendingFlow(signInToken);
      await requirePasswordPath(user);
      if (!user.password_hash || !(await verifyPassword(password, user.password_hash))) {
        throw badRequest(TEXT.wrongPassword.error, TEXT.wrongPassword.message);
      }
      const account = { accountId: flow.epic_account_id, displayName: flow.epic_display_name };
      return linkedOrThrow(
        await attach({
          userId: user.id,
          account,
          proof: 'session_password',
          flow,
          client: flow.client,
          signIn: { previousSession, origin },
        }),
      );
    },

    /**
     * `POST /api/epic/link-sign-in`: another (or no) account in this browser, proved by its e-mail
     * and password. Null when they do not match: the route answers 401 as the login does.
     */
    async linkSignIn(
      signInToken: string | undefined,
      email: string,
      password: string,
      previousSession: string | undefined,
      origin: SessionOrigin,
    ): Promise<Extract<LinkOutcome, { kind: 'linked' }> | null> {
      const flow = await pendingFlow(signInToken);
      const user = await users.authenticate(email, password);
      if (!user) return null;
      await requirePasswordPath(user);
      const account = { accountId: flow.epic_account_id, displayName: flow.epic_display_name };
      return linkedOrThrow(
        await attach({ userId: user.id, account, proof: 'password', flow, client: flow.client, signIn: { previousSession, origin } }),
      );
    },

    /**
     * `POST /api/epic/link-by-email`: mails the address's account a link that links this browser's
     * waiting Epic account to it. Checks the flow, then answers at once; the rest runs after.
     */
    async requestLinkByEmail(signInToken: string | undefined, email: string): Promise<void> {
      const flow = await pendingFlow(signInToken);
      inBackground(async () => {
        const user = await users.findByEmail(email);
        if (user) await mailLink(user, flow.id);
      }, 'epic link request');
    },

    /** With LEGACY_LOGIN=off, an account without Epic asks for its way in: a link whose only destination is linking Epic. */
    requestSignInLink(email: string): void {
      inBackground(async () => {
        const user = await users.findByEmail(email);
        if (user) await mailLink(user, null);
      }, 'sign-in link request');
    },

    /** Waits for the mail work still being done (the server closing, a test). */
    async settle(): Promise<void> {
      await Promise.all([...inFlight]);
    },

    /**
     * `GET /api/auth/link-email?token=…`: spends the mailed link once. In the browser whose sign-in
     * waits for it, the waiting Epic account is linked and the browser signed in; anywhere else (or
     * for the login page's link) a fresh Epic sign-in for linking to that user starts.
     */
    async openEmailedLink(
      token: string,
      signInToken: string | undefined,
      previousSession: string | undefined,
      origin: SessionOrigin,
    ): Promise<EmailedLinkOutcome> {
      const tokenHash = hashToken(token);
      const now = Date.now();
      const claimed = await db
        .updateTable('epic_link_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return { kind: 'invalid' };
      const row = await db.selectFrom('epic_link_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirstOrThrow();
      const flow = await flowOf(signInToken);
      if (row.flow_id !== null && flow?.id === row.flow_id && flow.epic_account_id && flow.epic_display_name) {
        const account = { accountId: flow.epic_account_id, displayName: flow.epic_display_name };
        return attach({
          userId: row.user_id,
          account,
          proof: 'emailed_link',
          flow,
          client: flow.client,
          signIn: { previousSession, origin },
        });
      }
      return { kind: 'start_link', userId: row.user_id };
    },

    /** `DELETE /api/account/epic`: only while the password would still sign the account in. */
    async unlink(user: UsersTable, password: string): Promise<void> {
      if (user.epic_account_id === null) throw conflict(TEXT.notLinked.error, TEXT.notLinked.message);
      if (!unlinkAllowed(deps.legacyLogin, facts(user)) || !user.password_hash)
        throw conflict(TEXT.cannotUnlink.error, TEXT.cannotUnlink.message);
      if (!(await verifyPassword(password, user.password_hash))) throw badRequest(TEXT.wrongPassword.error, TEXT.wrongPassword.message);
      const epicAccountId = user.epic_account_id;
      const displayName = user.epic_display_name ?? epicAccountId;
      await db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('users')
          .set({ epic_account_id: null, epic_display_name: null, updated_at: Date.now() })
          .where('id', '=', user.id)
          .where('epic_account_id', '=', epicAccountId)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new AppError(409, TEXT.notLinked.error, TEXT.notLinked.message);
        await audit.record(
          { id: user.id, email: user.email },
          {
            action: 'account.epic.unlink',
            targetType: 'user',
            targetId: user.id,
            before: { epicAccountId, epicDisplayName: user.epic_display_name },
          },
          trx,
        );
      });
      if (user.email) mailer.send({ to: user.email, ...epicUnlinkedMail(displayName, accountLink) }).catch(deps.onMailError);
    },

    /** Housekeeping: drops links that can no longer be used. */
    async purgeExpired(): Promise<void> {
      await db
        .deleteFrom('epic_link_tokens')
        .where((eb) => eb.or([eb('expires_at', '<=', Date.now()), eb('used_at', 'is not', null)]))
        .execute();
    },
  };
}

export type EpicLinkingService = ReturnType<typeof createEpicLinkingService>;
