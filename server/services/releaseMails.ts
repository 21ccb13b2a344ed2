import { sql } from 'kysely';
import { ENGINE_VERSIONS, type EngineVersion } from '../../contract/pluginVersions';
import { enginesOfInstalls, releaseMailWanted, type ReleaseEmails } from '../../contract/releaseEmails';
import { isPostgres, type Db } from '../db';
import type { SageBuildsTable } from '../db/schema';
import type { Actor, AuditService } from './audit';
import type { Mailer } from './mailer';
import { releaseMail } from './releaseMail';
import { hashToken, newToken } from './tokens';

/** Mails one instance claims at a time; the claim lasts long enough for SMTP to take a batch. */
export const RELEASE_MAIL_BATCH = 50;
export const RELEASE_MAIL_CLAIM_MS = 10 * 60_000;
/** A mail SMTP kept refusing is given up two days after its release (it stays unsent, not retried). */
const GIVE_UP_AFTER_MS = 2 * 24 * 3_600_000;
/** Batches one housekeeping run sends at most, so a run ends well before the next one starts. */
const BATCHES_PER_RUN = 20;
/** Rows per INSERT when queueing (well under either database's parameter limit). */
const INSERT_CHUNK = 500;

type BuildUrls = Pick<SageBuildsTable, 'ue54_url' | 'ue55_url' | 'ue56_url' | 'ue57_url'>;
const URL_OF: Record<EngineVersion, keyof BuildUrls> = { '5.4': 'ue54_url', '5.5': 'ue55_url', '5.6': 'ue56_url', '5.7': 'ue57_url' };
const shippedFor = (build: BuildUrls): EngineVersion[] => ENGINE_VERSIONS.filter((engine) => Boolean(build[URL_OF[engine]]));

/** Every user who may get release e-mails now, with their installs' reported engines (a row per install). */
function subscribers(trx: Db) {
  return trx
    .selectFrom('users')
    .leftJoin('plugin_installs', 'plugin_installs.user_id', 'users.id')
    .select(['users.id as userId', 'plugin_installs.engine_version as engine'])
    .where('users.release_emails', '=', 1)
    .where('users.status', '=', 'Active')
    .where('users.email', 'is not', null)
    .where('users.email_verified_at', 'is not', null);
}

/**
 * Queues the mails of a release, in its transaction (createBuildService's `onRelease`, for the
 * console and the CLI alike): one row per opted-in, active user with a verified address whose
 * installs run an engine the build ships for, or who has no install with a known engine yet.
 * The engine rule is contract/releaseEmails.ts's (engineOf reads what installs report), so the
 * candidates are read and the rows written in chunks rather than in one INSERT … SELECT. Answers
 * how many were queued; queueing twice adds nothing (the primary key).
 */
export async function queueReleaseMails(trx: Db, buildId: string): Promise<number> {
  const build = await trx
    .selectFrom('sage_builds')
    .select(['ue54_url', 'ue55_url', 'ue56_url', 'ue57_url'])
    .where('id', '=', buildId)
    .executeTakeFirstOrThrow();
  const shipped = shippedFor(build);
  const engines = new Map<string, (string | null)[]>();
  for (const row of await subscribers(trx).execute()) engines.set(row.userId, [...(engines.get(row.userId) ?? []), row.engine]);
  const users = [...engines].filter(([, reported]) => releaseMailWanted(reported, shipped)).map(([userId]) => userId);
  const now = Date.now();
  for (let start = 0; start < users.length; start += INSERT_CHUNK) {
    await trx
      .insertInto('release_mails')
      .values(
        users
          .slice(start, start + INSERT_CHUNK)
          .map((userId) => ({ build_id: buildId, user_id: userId, queued_at: now, claimed_until: 0, sent_at: null })),
      )
      .onConflict((conflict) => conflict.columns(['build_id', 'user_id']).doNothing())
      .execute();
  }
  return users.length;
}

export interface ReleaseMailDeps {
  db: Db;
  audit: AuditService;
  mailer: Mailer;
  publicUrl: string;
  /** A mail SMTP refused: logged; the mail is tried again once its claim expires. */
  onMailError: (err: unknown) => void;
}

/**
 * Release e-mails (issue 41): the user's choice, the queue a release fills (one row per user per
 * build: the primary key keeps it once however often it is queued), and housekeeping that sends the
 * queue in batches from whichever instance claims them first.
 */
export function createReleaseMailService(deps: ReleaseMailDeps) {
  const { db } = deps;
  let running: Promise<number> | null = null;

  async function enginesOf(userId: string): Promise<EngineVersion[]> {
    const installs = await db.selectFrom('plugin_installs').select('engine_version').where('user_id', '=', userId).execute();
    return enginesOfInstalls(installs.map((install) => install.engine_version));
  }

  /**
   * Claims up to a batch of due mails for this instance: the rows move their claim on in one
   * statement, so two instances never claim the same row while a claim lasts. PostgreSQL skips rows
   * another instance is claiming; SQLite has one writer at a time.
   */
  async function claim(now: number): Promise<{ build_id: string; user_id: string }[]> {
    const lock = isPostgres(db) ? sql`for update skip locked` : sql``;
    const result = await sql<{ build_id: string; user_id: string }>`
      update release_mails set claimed_until = ${now + RELEASE_MAIL_CLAIM_MS}
      where (build_id, user_id) in (
        select build_id, user_id from release_mails
        where sent_at is null and claimed_until < ${now} and queued_at > ${now - GIVE_UP_AFTER_MS}
        order by queued_at limit ${RELEASE_MAIL_BATCH} ${lock}
      )
      returning build_id, user_id`.execute(db);
    return result.rows;
  }

  /** A fresh one-click token for the user's mail: only its hash is kept, used or not (a second click answers the same), until the user is deleted. */
  async function unsubscribeToken(userId: string, now: number): Promise<string> {
    const token = newToken();
    await db
      .insertInto('release_mail_unsubscribes')
      .values({ token_hash: hashToken(token), user_id: userId, created_at: now })
      .execute();
    return token;
  }

  /**
   * Sends one claimed mail and marks it sent. A user who turned the e-mails off (or lost a verified
   * address, or was suspended) since the release is marked done without a mail. At least once: a
   * crash after SMTP took the mail and before `sent_at` is written sends it again once the claim
   * expires; without a crash the primary key and `sent_at` keep it to one.
   */
  async function sendOne(row: { build_id: string; user_id: string }, now: number): Promise<boolean> {
    const found = await db
      .selectFrom('release_mails')
      .innerJoin('users', 'users.id', 'release_mails.user_id')
      .innerJoin('sage_builds', 'sage_builds.id', 'release_mails.build_id')
      .select([
        'users.email',
        'users.email_verified_at',
        'users.status',
        'users.release_emails',
        'sage_builds.version',
        'sage_builds.notes',
        'sage_builds.withdrawn_at',
        'sage_builds.ue54_url',
        'sage_builds.ue55_url',
        'sage_builds.ue56_url',
        'sage_builds.ue57_url',
      ])
      .where('release_mails.build_id', '=', row.build_id)
      .where('release_mails.user_id', '=', row.user_id)
      .where('release_mails.sent_at', 'is', null)
      .executeTakeFirst();
    // Gone (the user or the build was deleted) or already sent: nothing to do.
    if (!found) return false;
    const wanted =
      Number(found.release_emails) === 1 &&
      found.status === 'Active' &&
      found.email !== null &&
      found.email_verified_at !== null &&
      found.withdrawn_at === null;
    if (wanted && found.email) {
      const shipped = shippedFor(found);
      const mine = (await enginesOf(row.user_id)).filter((engine) => shipped.includes(engine));
      const token = await unsubscribeToken(row.user_id, now);
      await deps.mailer.send({
        to: found.email,
        ...releaseMail({
          version: found.version,
          engines: mine.length > 0 ? mine : shipped,
          notes: found.notes ?? '',
          downloadLink: `${deps.publicUrl}/download`,
          accountLink: `${deps.publicUrl}/dashboard#account`,
          unsubscribePage: `${deps.publicUrl}/unsubscribe/release-emails?token=${token}`,
          unsubscribeUrl: `${deps.publicUrl}/api/release-emails/unsubscribe?token=${token}`,
        }),
      });
    }
    await db
      .updateTable('release_mails')
      .set({ sent_at: Date.now() })
      .where('build_id', '=', row.build_id)
      .where('user_id', '=', row.user_id)
      .execute();
    return wanted;
  }

  async function sendBatches(now: () => number): Promise<number> {
    let sent = 0;
    for (let batch = 0; batch < BATCHES_PER_RUN; batch += 1) {
      const claimed = await claim(now());
      for (const row of claimed) {
        // A refused mail stays claimed: it is tried again when the claim expires.
        if (await sendOne(row, now()).catch((err: unknown) => (deps.onMailError(err), false))) sent += 1;
      }
      if (claimed.length < RELEASE_MAIL_BATCH) break;
    }
    return sent;
  }

  return {
    /** The user's choice and the engines it covers (`GET /api/account/release-emails`). */
    async preference(userId: string): Promise<ReleaseEmails> {
      const user = await db
        .selectFrom('users')
        .select(['release_emails', 'email', 'email_verified_at'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return {
        enabled: Number(user.release_emails ?? 0) === 1,
        engines: await enginesOf(userId),
        addressVerified: user.email !== null && user.email_verified_at !== null,
      };
    },

    /** Turns the e-mails on or off (`PUT`), audited like the user's other settings when it changes. */
    async setPreference(actor: Actor, enabled: boolean): Promise<ReleaseEmails> {
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('users').select('release_emails').where('id', '=', actor.id).executeTakeFirstOrThrow();
        const was = Number(before.release_emails ?? 0) === 1;
        if (was === enabled) return;
        await trx
          .updateTable('users')
          .set({ release_emails: enabled ? 1 : 0 })
          .where('id', '=', actor.id)
          .execute();
        await deps.audit.record(
          actor,
          {
            action: 'account.release_emails.change',
            targetType: 'user',
            targetId: actor.id,
            before: { releaseEmails: was },
            after: { releaseEmails: enabled },
          },
          trx,
        );
      });
      return this.preference(actor.id);
    },

    queue: queueReleaseMails,

    /**
     * Housekeeping, on every instance: sends due mails a batch at a time; answers how many were
     * sent. One run at a time per instance (a run still going when the next tick comes is joined).
     */
    sendDue(now: () => number = Date.now): Promise<number> {
      running ??= sendBatches(now).finally(() => {
        running = null;
      });
      return running;
    },

    /** Waits for a run in progress (the app's close). */
    async settle(): Promise<void> {
      await running?.catch(() => undefined);
    },

    /**
     * The one-click unsubscribe (RFC 8058): turns the e-mails off for the token's user. True for a
     * token this site issued (used before or not: a second click says the same), false for any other.
     */
    async unsubscribe(token: string): Promise<boolean> {
      const found = await db
        .selectFrom('release_mail_unsubscribes')
        .select('user_id')
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!found) return false;
      await db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select('release_emails').where('id', '=', found.user_id).executeTakeFirst();
        if (!user || Number(user.release_emails ?? 0) === 0) return;
        await trx.updateTable('users').set({ release_emails: 0 }).where('id', '=', found.user_id).execute();
        await deps.audit.record(
          { id: found.user_id, email: null },
          {
            action: 'account.release_emails.change',
            targetType: 'user',
            targetId: found.user_id,
            before: { releaseEmails: true },
            after: { releaseEmails: false, by: 'unsubscribe link' },
          },
          trx,
        );
      });
      return true;
    },
  };
}

export type ReleaseMailService = ReturnType<typeof createReleaseMailService>;
