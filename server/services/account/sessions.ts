import type { AccountSessions } from '../../../contract/accountSessions';
import type { Db } from '../../db';
import { notFound } from '../../errors';
import type { Actor, AuditService } from '../audit';
import { voidPendingCredentials } from '../pendingCredentials';
import { type BuildService, installUpdateOf, updateCheckFor } from '../builds';
import type { SessionService } from '../sessions';
import type { PluginInstallService } from './pluginInstalls';
import { describeUserAgent } from './sessionDevice';

const NO_SESSION = 'You have no session with this id';
const NO_INSTALL = 'You have no plugin install with this id';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * "Where you're signed in" (issue 27): the customer's own sessions and plugin installs, and
 * ending them. Every end is audited with the customer as its actor, in the transaction that ends.
 */
export function createAccountSessionService(deps: {
  db: Db;
  sessions: SessionService;
  installs: PluginInstallService;
  builds: Pick<BuildService, 'all'>;
  audit: AuditService;
}) {
  const { db, sessions, installs, builds, audit } = deps;

  return {
    /** The user's sessions (the one of `currentToken` marked) and installs, each with its update state (issue 41). */
    async list(userId: string, currentToken: string | undefined): Promise<AccountSessions> {
      const [listed, installed, released] = await Promise.all([
        sessions.listForUser(userId, currentToken),
        installs.list(userId),
        builds.all(),
      ]);
      return {
        sessions: listed.map((s) => ({
          id: s.id,
          kind: 'browser' as const,
          ...describeUserAgent(s.userAgent),
          ipNetwork: s.ipNetwork,
          createdAt: iso(s.createdAt),
          lastSeenAt: iso(s.lastSeenAt),
          current: s.current,
        })),
        installs: installed.map((install) => ({
          ...install,
          update: installUpdateOf(updateCheckFor(released, install.engineVersion, install.pluginVersion)),
        })),
      };
    },

    /** Ends the user's session `id`; `signedOut` when it was the session of `currentToken`. 404 when it is not theirs. */
    async end(user: Actor, id: string, currentToken: string | undefined): Promise<{ signedOut: boolean }> {
      return db.transaction().execute(async (trx) => {
        const ended = await sessions.endById(user.id, id, currentToken, trx);
        if (!ended) throw notFound(NO_SESSION);
        await audit.record(user, { action: 'account.session.end', targetType: 'session', targetId: id, after: ended }, trx);
        return { signedOut: ended.current };
      });
    },

    /**
     * "Sign out everywhere else": ends every session of the user but the one of `currentToken`, and
     * voids every pending link and hand-off code (issue 36); answers how many sessions ended.
     */
    async endOthers(user: Actor, currentToken: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const ended = await sessions.endOthers(user.id, currentToken, trx);
        await voidPendingCredentials(trx, user.id);
        await audit.record(user, { action: 'account.sessions.end_others', targetType: 'user', targetId: user.id, after: { ended } }, trx);
        return ended;
      });
    },

    /**
     * Forgets a plugin install. Its license token is the user's one token, shared by every install,
     * so this signs no plugin out: reissuing the license does (the License panel).
     */
    async forgetInstall(user: Actor, id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const forgotten = await installs.forget(user.id, id, trx);
        if (!forgotten) throw notFound(NO_INSTALL);
        await audit.record(user, { action: 'account.install.forget', targetType: 'plugin_install', targetId: id, before: forgotten }, trx);
      });
    },
  };
}

export type AccountSessionService = ReturnType<typeof createAccountSessionService>;
