import { createHash } from 'node:crypto';
import type { UpdateCheck } from '../../contract/builds';
import type { PluginPayload } from '../../contract/epic';
import { ACCOUNT_SUSPENDED, isSuspended } from '../../contract/suspension';
import type { UsageRemaining } from '../../contract/usage';
import type { Db } from '../db';
import type { SignInFlowsTable, UsersTable } from '../db/schema';
import { badRequest, forbidden } from '../errors';
import type { PluginVersions } from './account/pluginInstalls';
import type { HandOffOutcome } from './metrics';
import { hashToken, newToken, safeEqual } from './tokens';

/** A hand-off code must be exchanged this soon (docs/plugin-sign-in.md). */
export const HAND_OFF_CODE_TTL_MS = 5 * 60_000;

const NO_HAND_OFF = 'No plugin sign-in is waiting for this account in this browser';
const INVALID_CODE = 'The code is invalid or has already been used';
const EXPIRED_CODE = 'The code has expired';
const WRONG_VERIFIER = 'The code verifier does not match the code challenge';

/** RFC 7636 S256: BASE64URL(SHA256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** The loopback address with the code and the plugin's own state added to its query. */
export function handOffRedirect(redirectUri: string, code: string, state: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  url.searchParams.set('state', state);
  return url.href;
}

/**
 * The plugin hand-off (RFC 8252 loopback + PKCE): the signed-in browser stores a one-time code for
 * the plugin's request; the plugin exchanges it, with the verifier only it knows, for the license.
 */
export function createPluginHandOffService(deps: {
  db: Db;
  subscriptionSummary: (userId: string) => Promise<PluginPayload['subscription']>;
  /** What the user has left to spend now (metering): the payload's `remaining`, and its `credits`. */
  remaining: (userId: string) => Promise<UsageRemaining>;
  /** Records the install an exchange signs in (issue 27), or keeps the plugin's `previousId` of this user; answers its id. */
  recordInstall: (userId: string, versions: PluginVersions, previousId: string | undefined) => Promise<string>;
  /** The update check for the versions the plugin said at sign-in (issue 41); null when they say none. */
  updateFor: (engineVersion: string | null, pluginVersion: string | null) => Promise<UpdateCheck | null>;
  /** Counts each issue and exchange by outcome (metrics). */
  onHandOff?: (outcome: HandOffOutcome) => void;
}) {
  const { db } = deps;
  const count = deps.onHandOff ?? (() => undefined);
  /** The exchange's refusal, counted. */
  const refuse = (outcome: HandOffOutcome, message: string) => {
    count(outcome);
    return badRequest('invalid_grant', message);
  };
  return {
    /** `POST /api/auth/ue-store-payload`: a fresh code replaces any unused one of this flow. */
    async issueCode(flow: SignInFlowsTable | null, user: UsersTable): Promise<{ code: string; redirectUrl: string }> {
      if (
        flow?.client !== 'ue' ||
        !flow.plugin_redirect_uri ||
        !flow.plugin_state ||
        !flow.plugin_code_challenge ||
        flow.user_id !== user.id
      ) {
        count('refused');
        throw forbidden('no_plugin_sign_in', NO_HAND_OFF);
      }
      const code = newToken();
      const now = Date.now();
      const { plugin_code_challenge: codeChallenge, plugin_redirect_uri: redirectUri } = flow;
      // The new code replaces the unused one in one transaction: a failure leaves the earlier code.
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('plugin_hand_off_codes').where('flow_id', '=', flow.id).where('used_at', 'is', null).execute();
        await trx
          .insertInto('plugin_hand_off_codes')
          .values({
            code_hash: hashToken(code),
            flow_id: flow.id,
            user_id: user.id,
            code_challenge: codeChallenge,
            redirect_uri: redirectUri,
            created_at: now,
            expires_at: now + HAND_OFF_CODE_TTL_MS,
            used_at: null,
            engine_version: flow.plugin_engine_version,
            plugin_version: flow.plugin_version,
          })
          .execute();
      });
      count('issued');
      return { code, redirectUrl: handOffRedirect(flow.plugin_redirect_uri, code, flow.plugin_state) };
    },

    /**
     * `GET /api/auth/ue-payload`: the code is spent by its first presentation, right or wrong, so
     * whoever intercepted it cannot try verifiers against it. A good one records the plugin's
     * install (`previousInstallId`: the one it says it already is, if any).
     */
    async redeem(code: string, codeVerifier: string, previousInstallId?: string): Promise<PluginPayload> {
      const codeHash = hashToken(code);
      const row = await db.selectFrom('plugin_hand_off_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
      if (!row || row.used_at !== null) throw refuse('invalid_code', INVALID_CODE);
      const now = Date.now();
      const claimed = await db
        .updateTable('plugin_hand_off_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw refuse('invalid_code', INVALID_CODE);
      if (row.expires_at <= now) throw refuse('expired_code', EXPIRED_CODE);
      if (!safeEqual(row.code_challenge, s256(codeVerifier))) throw refuse('wrong_verifier', WRONG_VERIFIER);
      const user = await db.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirst();
      if (!user) throw refuse('invalid_code', INVALID_CODE);
      // Suspended after the code was issued: the code is spent, and no token leaves (decision 029).
      if (isSuspended(user.status)) {
        count('refused');
        throw forbidden(ACCOUNT_SUSPENDED.error, ACCOUNT_SUSPENDED.message);
      }
      const versions = { engineVersion: row.engine_version, pluginVersion: row.plugin_version };
      const [subscription, remaining, installId, update] = await Promise.all([
        deps.subscriptionSummary(user.id),
        deps.remaining(user.id),
        deps.recordInstall(user.id, versions, previousInstallId),
        deps.updateFor(row.engine_version, row.plugin_version),
      ]);
      const payload: PluginPayload = {
        token: user.license_token,
        user: { id: user.id, username: user.username, email: user.email },
        subscription,
        // `credits` predates `remaining` and plugins already read it: one reading gives both.
        credits: remaining.credits,
        remaining,
        installId,
        update,
      };
      count('redeemed');
      return payload;
    },

    /** Housekeeping: codes that can no longer be exchanged. */
    async purgeExpired(): Promise<void> {
      await db
        .deleteFrom('plugin_hand_off_codes')
        .where((eb) => eb.or([eb('expires_at', '<=', Date.now()), eb('used_at', 'is not', null)]))
        .execute();
    },
  };
}

export type PluginHandOffService = ReturnType<typeof createPluginHandOffService>;
