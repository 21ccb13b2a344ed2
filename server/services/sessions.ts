import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { withParameters } from '../db/compiledQuery';
import type { SignInMethod, UsersTable } from '../db/schema';
import { clipUserAgent, ipNetwork } from './account/sessionDevice';
import { hashToken, newToken } from './tokens';

export type { SignInMethod };

/** Sessions that have been used within this long are not written back on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionPolicy {
  /** A session unused for this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however busy. */
  absoluteMs: number;
}

export interface NewSession {
  token: string;
  expiresAt: number;
  persistent: boolean;
}

/**
 * The browser a session starts in, as its request tells (issue 27): its user agent and address.
 * Only the user agent (cut short) and the address's network are kept.
 */
export interface SessionOrigin {
  userAgent: string | undefined;
  ip: string;
}

/** One of a user's sessions as "Where you're signed in" lists it; never its token or hash. */
export interface ListedSession {
  id: string;
  userAgent: string | null;
  ipNetwork: string | null;
  createdAt: number;
  lastSeenAt: number;
  /** The session of the token the listing was asked with. */
  current: boolean;
}

export function createSessionService(db: Db, policy: SessionPolicy) {
  // Every signed-in request runs this: compiled once, bound to each token's hash (db/compiledQuery.ts).
  const lookup = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.last_seen_at as session_last_seen_at', 'sessions.expires_at as session_expires_at'])
    .where('sessions.token_hash', '=', '')
    .compile();

  /**
   * A public id for a session a previous release started without one (during a rolling restart);
   * when two listings race, the first id written stays.
   */
  async function assignId(tokenHash: string): Promise<string> {
    await db.updateTable('sessions').set({ id: randomUUID() }).where('token_hash', '=', tokenHash).where('id', 'is', null).execute();
    const row = await db.selectFrom('sessions').select('id').where('token_hash', '=', tokenHash).executeTakeFirst();
    // Ended in between: any id will do, nothing can end it again.
    return row?.id ?? randomUUID();
  }

  const service = {
    /**
     * Starts a session for the user and records it as their last sign-in, in one transaction (the
     * caller's `trx` when the sign-in writes more); the returned token goes into the cookie and
     * nowhere else. `origin`: the browser's user agent and address, kept for the user's list.
     */
    async start(userId: string, persistent: boolean, method: SignInMethod, trx?: Db, origin?: SessionOrigin): Promise<NewSession> {
      const token = newToken();
      const now = Date.now();
      const expiresAt = now + policy.absoluteMs;
      const write = async (into: Db) => {
        await into
          .insertInto('sessions')
          .values({
            token_hash: hashToken(token),
            id: randomUUID(),
            user_id: userId,
            persistent: persistent ? 1 : 0,
            created_at: now,
            last_seen_at: now,
            expires_at: expiresAt,
            user_agent: clipUserAgent(origin?.userAgent),
            ip_network: origin ? ipNetwork(origin.ip) : null,
            method,
          })
          .execute();
        await into.updateTable('users').set({ last_sign_in_at: now, last_sign_in_method: method }).where('id', '=', userId).execute();
      };
      await (trx ? write(trx) : db.transaction().execute(write));
      return { token, expiresAt, persistent };
    },

    /**
     * Signs a browser in as the user: ends the session it had (`previous`, its cookie's token: the
     * token rotates at sign-in) and starts a new one, in one transaction (the caller's `trx` when
     * the sign-in writes more).
     */
    async signIn(
      previous: string | undefined,
      userId: string,
      persistent: boolean,
      method: SignInMethod,
      trx?: Db,
      origin?: SessionOrigin,
    ): Promise<NewSession> {
      const write = async (into: Db) => {
        if (previous) await service.end(previous, into);
        return service.start(userId, persistent, method, into, origin);
      };
      return trx ? write(trx) : db.transaction().execute(write);
    },

    /** The user behind a cookie token, or null when the session is unknown, idle or expired. */
    async userFor(token: string): Promise<UsersTable | null> {
      const tokenHash = hashToken(token);
      const [row] = (await db.executeQuery(withParameters(lookup, [tokenHash]))).rows;
      if (!row) return null;
      const now = Date.now();
      if (row.session_expires_at <= now || row.session_last_seen_at + policy.idleMs <= now) {
        await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
        return null;
      }
      if (now - row.session_last_seen_at > TOUCH_INTERVAL_MS) {
        await db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
      }
      const { session_last_seen_at: _seen, session_expires_at: _expires, ...user } = row;
      return user;
    },

    /**
     * When the session of a cookie's token signed in (epoch ms); null for no such session. What the
     * one "recent sign-in" rule reads (contract/recentSignIn.ts): this browser's sign-in, never another's.
     */
    async startedAt(token: string | undefined): Promise<number | null> {
      if (!token) return null;
      const row = await db.selectFrom('sessions').select('created_at').where('token_hash', '=', hashToken(token)).executeTakeFirst();
      return row ? Number(row.created_at) : null;
    },

    /** How the session of a cookie's token was started; null for none, or one from before sessions said (a password's). */
    async methodOf(token: string): Promise<SignInMethod | null> {
      const row = await db.selectFrom('sessions').select('method').where('token_hash', '=', hashToken(token)).executeTakeFirst();
      return row?.method ?? null;
    },

    /** `trx`: within the caller's transaction. */
    async end(token: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
    },

    /** Ends every session of the user; answers how many there were. `trx`: within the caller's transaction. */
    async endAllForUser(userId: string, trx: Db = db): Promise<number> {
      const result = await trx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * The user's sessions that still sign them in: the one of `currentToken` (the asking browser's
     * cookie) first, marked `current`, then the others newest first.
     */
    async listForUser(userId: string, currentToken: string | undefined): Promise<ListedSession[]> {
      const now = Date.now();
      const rows = await db
        .selectFrom('sessions')
        .select(['token_hash', 'id', 'user_agent', 'ip_network', 'created_at', 'last_seen_at'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', now - policy.idleMs)
        .orderBy('created_at', 'desc')
        .orderBy('token_hash')
        .execute();
      const currentHash = currentToken ? hashToken(currentToken) : null;
      const listed: ListedSession[] = [];
      for (const row of rows) {
        listed.push({
          id: row.id ?? (await assignId(row.token_hash)),
          userAgent: row.user_agent,
          ipNetwork: row.ip_network,
          createdAt: row.created_at,
          lastSeenAt: row.last_seen_at,
          current: row.token_hash === currentHash,
        });
      }
      return listed.sort((x, y) => Number(y.current) - Number(x.current));
    },

    /**
     * Ends the user's session of public id `id`: null when the user has none of that id, else
     * whether it was the session of `currentToken`. `trx`: within the caller's transaction.
     */
    async endById(userId: string, id: string, currentToken: string | undefined, trx: Db = db): Promise<{ current: boolean } | null> {
      const row = await trx
        .selectFrom('sessions')
        .select('token_hash')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return null;
      const ended = await trx.deleteFrom('sessions').where('token_hash', '=', row.token_hash).executeTakeFirst();
      if (Number(ended.numDeletedRows) !== 1) return null; // Ended meanwhile, by another request.
      return { current: currentToken !== undefined && hashToken(currentToken) === row.token_hash };
    },

    /**
     * Ends every session of the user that still signs in, but the one of `keepToken`; answers how
     * many. (Sessions already past their end are left to purgeExpired.) `trx`: within the caller's transaction.
     */
    async endOthers(userId: string, keepToken: string, trx: Db = db): Promise<number> {
      const now = Date.now();
      const result = await trx
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('token_hash', '!=', hashToken(keepToken))
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', now - policy.idleMs)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Sessions of the user that still sign them in: neither past their end nor idle too long. */
    async countActiveForUser(userId: string): Promise<number> {
      const now = Date.now();
      const { total } = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', now - policy.idleMs)
        .executeTakeFirstOrThrow();
      return Number(total);
    },

    /** Housekeeping: drops sessions that can no longer be used. */
    async purgeExpired(): Promise<void> {
      const now = Date.now();
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - policy.idleMs)]))
        .execute();
    },
  };
  return service;
}

export type SessionService = ReturnType<typeof createSessionService>;
