import type { AuthFailureReason, AuthStatus, LinkResponse, SignInClient } from '../../contract/epic';
import { ACCOUNT_SUSPENDED, isSuspended } from '../../contract/suspension';
import { ACCOUNT_EXISTS_MESSAGE } from '../../contract/user';
import type { Db } from '../db';
import type { SignInFlowsTable, UsersTable } from '../db/schema';
import { AppError, conflict, forbidden } from '../errors';
import { EpicSignInError, type EpicOAuth } from './epicOAuth';
import type { NewSession, SessionOrigin, SessionService } from './sessions';
import type { EpicLinkingService } from './epicLinking';
import { hashToken, newToken, safeEqual } from './tokens';
import { normalizeEmail, type UserService } from './users';

/** From `/api/auth/login` to `/login_completed`: Epic, linking an e-mail and verifying it. */
export const SIGN_IN_FLOW_TTL_MS = 30 * 60_000;

/** The plugin's side of a hand-off (client=ue), already checked by the route. */
export interface PluginRequest {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** What the plugin says it runs in and is, if it says (recorded with its install, issue 27). */
  engineVersion: string | null;
  pluginVersion: string | null;
}

/** Where an Epic callback leaves the browser: signed in, with the session for its cookie. */
export type CallbackOutcome =
  | { kind: 'signed_in'; user: UsersTable; client: SignInClient; session: NewSession }
  | { kind: 'link_email'; client: SignInClient }
  /** An Epic account linked to an existing account (decision 047); `session` when this step signed the browser in. */
  | { kind: 'linked'; user: UsersTable; client: SignInClient; session: NewSession | null }
  | { kind: 'failed'; reason: AuthFailureReason };

const NO_PENDING_SIGN_IN = 'No Epic sign-in is waiting for an email here. Please sign in with Epic again.';
const EMAIL_TAKEN = ACCOUNT_EXISTS_MESSAGE;

export const loginCompletedPath = (client: SignInClient) => `/login_completed?client=${client}`;

export function createEpicSignInService(deps: {
  db: Db;
  users: UserService;
  sessions: SessionService;
  /** Null when Epic is not configured: sign-in is unavailable. */
  epic: EpicOAuth | null;
  /** Links the Epic account of a sign-in started for linking (epicLinking.ts). */
  linking?: Pick<EpicLinkingService, 'linkFromCallback'>;
  onError: (err: unknown, step: string) => void;
}) {
  const { db, users, sessions, epic } = deps;

  /** `trx`, here and below: within the caller's transaction. */
  async function update(flow: SignInFlowsTable, changes: Partial<SignInFlowsTable>, trx: Db = db): Promise<void> {
    await trx.updateTable('sign_in_flows').set(changes).where('id', '=', flow.id).execute();
  }

  /**
   * A sign-in's last writes, in the transaction of the step that completes the flow. No Remember me
   * box on this path: an Epic sign-in keeps its session like Remember me does.
   */
  const signIn = (trx: Db, userId: string, previousSession: string | undefined, origin?: SessionOrigin): Promise<NewSession> =>
    sessions.signIn(previousSession, userId, true, 'epic', trx, origin);

  /**
   * A suspended account signs nobody in (decision 029): the browser lands on
   * `/authentication_failed?reason=account_suspended`, and a plugin waiting on this flow is told why.
   */
  async function refuseSuspended(flow: SignInFlowsTable, user: UsersTable): Promise<CallbackOutcome | null> {
    if (!isSuspended(user.status)) return null;
    await update(flow, { ue_status: 'failed', ue_message: ACCOUNT_SUSPENDED.message });
    return { kind: 'failed', reason: 'account_suspended' };
  }

  const service = {
    available: epic !== null,

    /** Starts a sign-in; the token goes into the browser's sign-in cookie and nowhere else. */
    async start(
      client: SignInClient,
      plugin: PluginRequest | null,
      /** A sign-in for linking the Epic account to this user (decision 047); `signsIn` when an e-mailed link proved it. */
      link?: { userId: string; signsIn: boolean },
    ): Promise<{ token: string; authorizeUrl: string; expiresAt: number }> {
      if (!epic) throw new AppError(503, 'epic_unavailable', 'Sign in with Epic is not configured on this server');
      const token = newToken();
      const state = epic.newState();
      const codeVerifier = epic.newCodeVerifier();
      const now = Date.now();
      const expiresAt = now + SIGN_IN_FLOW_TTL_MS;
      await db
        .insertInto('sign_in_flows')
        .values({
          id: hashToken(token),
          client,
          oauth_state: state,
          oauth_code_verifier: codeVerifier,
          plugin_redirect_uri: plugin?.redirectUri ?? null,
          plugin_state: plugin?.state ?? null,
          plugin_code_challenge: plugin?.codeChallenge ?? null,
          plugin_engine_version: plugin?.engineVersion ?? null,
          plugin_version: plugin?.pluginVersion ?? null,
          link_user_id: link?.userId ?? null,
          link_signs_in: link?.signsIn ? 1 : 0,
          epic_account_id: null,
          epic_display_name: null,
          link_email: null,
          user_id: null,
          ue_status: null,
          ue_message: null,
          created_at: now,
          expires_at: expiresAt,
        })
        .execute();
      return { token, authorizeUrl: await epic.authorizationUrl(state, codeVerifier), expiresAt };
    },

    /** The browser's sign-in in progress, or null when there is none or it has expired. */
    async flow(token: string | undefined): Promise<SignInFlowsTable | null> {
      if (!token) return null;
      const flow = await db.selectFrom('sign_in_flows').selectAll().where('id', '=', hashToken(token)).executeTakeFirst();
      return flow && flow.expires_at > Date.now() ? flow : null;
    },

    /** A flow whose Epic account waits for an e-mail; 403 otherwise. */
    async pendingFlow(token: string | undefined): Promise<SignInFlowsTable & { epic_account_id: string; epic_display_name: string }> {
      const flow = await service.flow(token);
      if (!flow?.epic_account_id || !flow.epic_display_name) throw forbidden('no_pending_sign_in', NO_PENDING_SIGN_IN);
      return { ...flow, epic_account_id: flow.epic_account_id, epic_display_name: flow.epic_display_name };
    },

    /**
     * Handles Epic's redirect back: checks the state, exchanges the code and resolves the user. A
     * known user is signed in, ending this browser's `previousSession`; `origin` is kept with the new one.
     */
    async finishCallback(
      token: string | undefined,
      query: URLSearchParams,
      previousSession?: string,
      origin?: SessionOrigin,
    ): Promise<CallbackOutcome> {
      const flow = await service.flow(token);
      // A callback that is not this browser's own (no flow, spent or wrong state) changes nothing:
      // another site must not be able to end a sign-in in progress.
      const mismatch: CallbackOutcome = { kind: 'failed', reason: 'state_mismatch' };
      if (!flow?.oauth_state || !flow.oauth_code_verifier || !epic) return mismatch;
      if (!safeEqual(query.get('state') ?? '', flow.oauth_state)) return mismatch;
      // Spend the state first, so a replayed (or concurrent) callback finds nothing to use. A write
      // of its own: Epic is asked next, and no transaction waits on the network.
      const spent = await db
        .updateTable('sign_in_flows')
        .set({ oauth_state: null, oauth_code_verifier: null })
        .where('id', '=', flow.id)
        .where('oauth_state', '=', flow.oauth_state)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) return mismatch;
      const fail = async (reason: AuthFailureReason): Promise<CallbackOutcome> => {
        await update(flow, {
          ue_status: reason === 'canceled' ? 'canceled' : 'failed',
          ue_message: reason === 'canceled' ? 'Epic sign-in was canceled' : `Epic sign-in failed (${reason})`,
        });
        return { kind: 'failed', reason };
      };
      const error = query.get('error');
      if (error) return fail(error === 'access_denied' ? 'canceled' : 'server_error');

      let account;
      try {
        account = await epic.accountFromCallback(query, { state: flow.oauth_state, codeVerifier: flow.oauth_code_verifier });
      } catch (err) {
        deps.onError(err, 'epic callback');
        return fail(err instanceof EpicSignInError ? err.reason : 'server_error');
      }
      if (flow.link_user_id && deps.linking) {
        const sessionUser = previousSession ? await sessions.userFor(previousSession) : null;
        const linked = await deps.linking.linkFromCallback(flow, account, sessionUser?.id ?? null, previousSession, origin);
        // Started from a session that is no longer this browser's: nothing is linked.
        if (!linked) return fail('state_mismatch');
        return linked.kind === 'linked' ? linked : { kind: 'failed', reason: linked.reason };
      }
      const user = await users.findByEpicAccount(account.accountId);
      if (user?.email) {
        const refused = await refuseSuspended(flow, user);
        if (refused) return refused;
        // The display name, the flow's success and the session land together or not at all.
        const session = await db.transaction().execute(async (trx) => {
          await users.recordEpicDisplayName(user.id, account.displayName, trx);
          await update(flow, { user_id: user.id, ue_status: 'success', ue_message: 'Signed in' }, trx);
          return signIn(trx, user.id, previousSession, origin);
        });
        return { kind: 'signed_in', user, client: flow.client, session };
      }
      await update(flow, { epic_account_id: account.accountId, epic_display_name: account.displayName, link_email: null });
      return { kind: 'link_email', client: flow.client };
    },

    /** `POST /api/user/check-exists`: only for a browser whose Epic account waits for an e-mail. */
    async emailExists(token: string | undefined, email: string): Promise<boolean> {
      const flow = await service.pendingFlow(token);
      const owner = await users.findByEmail(email);
      // This Epic account's own address (verified in another tab) is not "another account": link finishes it.
      return owner !== undefined && owner.epic_account_id !== flow.epic_account_id;
    },

    /** `POST /api/epic/link`: remembers the e-mail to verify, or signs in when it already is. */
    async link(token: string | undefined, email: string): Promise<LinkResponse> {
      const flow = await service.pendingFlow(token);
      const normalized = normalizeEmail(email);
      if (await users.findByEmail(normalized)) {
        const linked = await users.findByEpicAccount(flow.epic_account_id);
        if (linked?.email !== normalized) throw conflict('email_exists', EMAIL_TAKEN);
        // The address was verified for this very Epic account (in another tab): finish now.
        await update(flow, { link_email: normalized });
        return { ok: true, message: 'Email already verified', requiresVerification: false, next: '/api/auth/callback-internal' };
      }
      await update(flow, { link_email: normalized });
      return {
        ok: true,
        message: 'Email Verification Required',
        requiresVerification: true,
        next: `/email-verification?email=${encodeURIComponent(normalized)}&client=${flow.client}`,
      };
    },

    /** `POST /api/auth/epic/cancel`: abandons the Epic account's linking, its links with it. */
    async cancel(token: string | undefined): Promise<void> {
      const flow = await service.flow(token);
      if (!flow) return;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('email_verifications').where('flow_id', '=', flow.id).execute();
        await update(
          flow,
          {
            epic_account_id: null,
            epic_display_name: null,
            link_email: null,
            ue_status: flow.user_id ? flow.ue_status : 'canceled',
            ue_message: flow.user_id ? flow.ue_message : 'Sign-in was canceled',
          },
          trx,
        );
      });
    },

    /**
     * `GET /api/auth/callback-internal`: after the e-mail is verified, signs this browser in as the
     * Epic account's user, ending its `previousSession` (`origin` is kept with the new one). Refused
     * unless this flow's own linked e-mail was verified.
     */
    async completeVerifiedLink(token: string | undefined, previousSession?: string, origin?: SessionOrigin): Promise<CallbackOutcome> {
      const flow = await service.flow(token);
      if (!flow?.epic_account_id || !flow.link_email) return { kind: 'failed', reason: 'verification_required' };
      const verified = await db
        .selectFrom('email_verifications')
        .select('token_hash')
        .where('flow_id', '=', flow.id)
        .where('email', '=', flow.link_email)
        .where('verified_at', 'is not', null)
        .executeTakeFirst();
      const user = await users.findByEpicAccount(flow.epic_account_id);
      // A verified address of this flow, or one verified for the same Epic account in another flow.
      if (!user || user.email !== flow.link_email || (!verified && user.email_verified_at === null)) {
        return { kind: 'failed', reason: 'verification_required' };
      }
      const refused = await refuseSuspended(flow, user);
      if (refused) return refused;
      // The spent links, the flow's success and the session land together or not at all.
      const session = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('email_verifications').where('flow_id', '=', flow.id).execute();
        await update(
          flow,
          {
            epic_account_id: null,
            epic_display_name: null,
            link_email: null,
            user_id: user.id,
            ue_status: 'success',
            ue_message: 'Signed in',
          },
          trx,
        );
        return signIn(trx, user.id, previousSession, origin);
      });
      return { kind: 'signed_in', user, client: flow.client, session };
    },

    /** `GET /api/auth/status` (product §3 Auth status). */
    async status(token: string | undefined, user: UsersTable | null): Promise<AuthStatus> {
      const flow = await service.flow(token);
      const base = { authenticated: user !== null, user: user ? { email: user.email } : null };
      if (flow?.client !== 'ue') return { ...base, ue: { enabled: false, status: null, message: null } };
      const deliverable = flow.plugin_redirect_uri !== null && user !== null && flow.user_id === user.id;
      return { ...base, ue: { enabled: deliverable, status: flow.ue_status, message: flow.ue_message } };
    },

    /** `POST /api/auth/ue-clear`: the plugin has its code; this browser's hand-off is over. */
    async clearPluginRequest(token: string | undefined): Promise<void> {
      const flow = await service.flow(token);
      if (flow) await update(flow, { plugin_redirect_uri: null, plugin_state: null, plugin_code_challenge: null });
    },

    /** Housekeeping: drops flows nobody can finish any more (their verifications go with them). */
    async purgeExpired(): Promise<void> {
      await db.deleteFrom('sign_in_flows').where('expires_at', '<=', Date.now()).execute();
    },
  };
  return service;
}

export type EpicSignInService = ReturnType<typeof createEpicSignInService>;
