import type { Db } from '../db';
import { withParameters } from '../db/compiledQuery';
import type { SignInMethod, UsersTable } from '../db/schema';
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

export function createSessionService(db: Db, policy: SessionPolicy) {
  // Every signed-in request runs this: compiled once, bound to each token's hash (db/compiledQuery.ts).
  const lookup = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.last_seen_at as session_last_seen_at', 'sessions.expires_at as session_expires_at'])
    .where('sessions.token_hash', '=', '')
    .compile();

  const service = {
    /**
     * Starts a session for the user and records it as their last sign-in, in one transaction (the
     * caller's `trx` when the sign-in writes more); the returned token goes into the cookie and
     * nowhere else.
     */
    async start(userId: string, persistent: boolean, method: SignInMethod, trx?: Db): Promise<NewSession> {
      const token = newToken();
      const now = Date.now();
      const expiresAt = now + policy.absoluteMs;
      const write = async (into: Db) => {
        await into
          .insertInto('sessions')
          .values({
            token_hash: hashToken(token),
            user_id: userId,
            persistent: persistent ? 1 : 0,
            created_at: now,
            last_seen_at: now,
            expires_at: expiresAt,
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
    async signIn(previous: string | undefined, userId: string, persistent: boolean, method: SignInMethod, trx?: Db): Promise<NewSession> {
      const write = async (into: Db) => {
        if (previous) await service.end(previous, into);
        return service.start(userId, persistent, method, into);
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

    /** `trx`: within the caller's transaction. */
    async end(token: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
    },

    /** Ends every session of the user; answers how many there were. `trx`: within the caller's transaction. */
    async endAllForUser(userId: string, trx: Db = db): Promise<number> {
      const result = await trx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
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
