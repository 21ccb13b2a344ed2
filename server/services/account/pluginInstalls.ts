import { randomUUID } from 'node:crypto';
import type { PluginInstall } from '../../../contract/accountSessions';
import type { Db } from '../../db';

/** An install's last use is written at most this often (per instance): token calls come in bursts. */
export const INSTALL_TOUCH_INTERVAL_MS = 60_000;
/** Installs remembered as touched, per instance, before the memory starts afresh. */
const TOUCHED_MAX = 10_000;

export interface PluginVersions {
  engineVersion: string | null;
  pluginVersion: string | null;
}

/**
 * The user's plugin installs (issue 27). Every install of a user holds the same license token, so
 * the token cannot say which install calls: the hand-off gives each install an id, which the
 * plugin sends back (X-Sage-Install) on its token calls. docs/plugin-sign-in.md says so.
 */
export function createPluginInstallService(db: Db) {
  /** `user:install` → when this instance last wrote its use. */
  const touched = new Map<string, number>();

  return {
    /**
     * Records the install a hand-off signs in and answers its id. `previousId` is the plugin's
     * install of an earlier sign-in, if it says one: when it is this user's, it stays the same
     * install (with the versions it says now) rather than becoming another. `trx`: within the caller's transaction.
     */
    async record(userId: string, versions: PluginVersions, previousId: string | undefined, trx: Db = db): Promise<string> {
      const now = Date.now();
      if (previousId) {
        const kept = await trx
          .updateTable('plugin_installs')
          .set({
            last_used_at: now,
            ...(versions.engineVersion ? { engine_version: versions.engineVersion } : {}),
            ...(versions.pluginVersion ? { plugin_version: versions.pluginVersion } : {}),
          })
          .where('id', '=', previousId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (Number(kept.numUpdatedRows) === 1) return previousId;
      }
      const id = randomUUID();
      await trx
        .insertInto('plugin_installs')
        .values({
          id,
          user_id: userId,
          engine_version: versions.engineVersion,
          plugin_version: versions.pluginVersion,
          created_at: now,
          last_used_at: now,
        })
        .execute();
      return id;
    },

    /**
     * A token call of the user named `installId`: its last use moves, at most once a minute per
     * install (this instance remembers, and the write itself skips a recent one). An id that is not
     * the user's changes nothing.
     */
    async touch(userId: string, installId: string): Promise<void> {
      const now = Date.now();
      const key = `${userId}:${installId}`;
      const last = touched.get(key);
      if (last !== undefined && now - last < INSTALL_TOUCH_INTERVAL_MS) return;
      if (touched.size >= TOUCHED_MAX) touched.clear();
      touched.set(key, now);
      await db
        .updateTable('plugin_installs')
        .set({ last_used_at: now })
        .where('id', '=', installId)
        .where('user_id', '=', userId)
        .where('last_used_at', '<=', now - INSTALL_TOUCH_INTERVAL_MS)
        .execute();
    },

    /** The user's installs, the most recently used first (their update state is the caller's). */
    async list(userId: string): Promise<Omit<PluginInstall, 'update'>[]> {
      const rows = await db
        .selectFrom('plugin_installs')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('last_used_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        engineVersion: row.engine_version,
        pluginVersion: row.plugin_version,
        createdAt: new Date(row.created_at).toISOString(),
        lastUsedAt: new Date(row.last_used_at).toISOString(),
      }));
    },

    /** Forgets the user's install `id`: its versions as they were, or null when the user has none of that id. */
    async forget(userId: string, id: string, trx: Db = db): Promise<PluginVersions | null> {
      const row = await trx
        .selectFrom('plugin_installs')
        .select(['engine_version', 'plugin_version'])
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return null;
      const gone = await trx.deleteFrom('plugin_installs').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1) return null;
      return { engineVersion: row.engine_version, pluginVersion: row.plugin_version };
    },
  };
}

export type PluginInstallService = ReturnType<typeof createPluginInstallService>;
