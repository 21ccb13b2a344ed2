import type { Db } from '../db';
import { AppError, notFound } from '../errors';
import { USER_NOT_FOUND } from './licenses';
import { hashToken, newToken } from './tokens';

/** A concurrent replacement changed the token under us this many times: give up rather than loop. */
const REPLACE_ATTEMPTS = 3;

/**
 * Gives the user a new license token in the caller's transaction: the old one stops working at once,
 * and its hash is kept so that a plugin still presenting it is told to sign in again. The one path
 * of every reissue (the console's, the user's own, a password reset's).
 */
export async function replaceLicenseToken(trx: Db, userId: string): Promise<void> {
  for (let attempt = 0; attempt < REPLACE_ATTEMPTS; attempt++) {
    const before = await trx.selectFrom('users').select('license_token').where('id', '=', userId).executeTakeFirst();
    if (!before) throw notFound(USER_NOT_FOUND);
    const now = Date.now();
    // Only if the token is still the one read: a concurrent reissue makes this update nothing.
    const updated = await trx
      .updateTable('users')
      .set({ license_token: newToken(), updated_at: now })
      .where('id', '=', userId)
      .where('license_token', '=', before.license_token)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) continue;
    await trx
      .insertInto('revoked_license_tokens')
      .values({ token_hash: hashToken(before.license_token), user_id: userId, revoked_at: now })
      .onConflict((oc) => oc.column('token_hash').doNothing())
      .execute();
    return;
  }
  throw new AppError(409, 'conflict', 'The license was being reissued at the same time. Please try again.');
}
