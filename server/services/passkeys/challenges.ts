import type { Db } from '../../db';
import type { WebauthnChallengesTable } from '../../db/schema';
import { hashToken, newToken } from '../tokens';

/** What a challenge was made for: adding a passkey, signing in with one, or a password's second factor. */
export type ChallengePurpose = WebauthnChallengesTable['purpose'];

/** How long a ceremony may take, from its options to its answer. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export interface IssuedChallenge {
  /** The browser's handle on the challenge (its cookie); only the hash is stored. */
  token: string;
  expiresAt: number;
}

/** Stores `challenge` for one ceremony of `purpose` (for `userId`, or for whoever signs in: null). */
export async function issueChallenge(
  db: Db,
  purpose: ChallengePurpose,
  userId: string | null,
  challenge: string,
): Promise<IssuedChallenge> {
  const token = newToken();
  const now = Date.now();
  const expiresAt = now + CHALLENGE_TTL_MS;
  await db
    .insertInto('webauthn_challenges')
    .values({ id: hashToken(token), user_id: userId, purpose, challenge, created_at: now, expires_at: expiresAt, used_at: null })
    .execute();
  return { token, expiresAt };
}

/**
 * Takes the challenge of `token` for one ceremony of `purpose` (and `userId`, or none): answers it
 * once, marking it used in the same statement, so two answers sent at once cannot both pass; null
 * when it is unknown, used, expired, or made for another purpose or user.
 */
export async function takeChallenge(
  db: Db,
  token: string | undefined,
  purpose: ChallengePurpose,
  userId: string | null,
): Promise<string | null> {
  if (!token) return null;
  const id = hashToken(token);
  const now = Date.now();
  const row = await db
    .selectFrom('webauthn_challenges')
    .select(['challenge', 'user_id', 'purpose'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.purpose !== purpose || row.user_id !== userId) return null;
  const taken = await db
    .updateTable('webauthn_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? row.challenge : null;
}

/** Housekeeping: challenges that can no longer be answered. */
export async function purgeChallenges(db: Db): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', Date.now()).execute();
}
