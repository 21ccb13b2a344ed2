/**
 * The account-data tests' shared steps: rows of a user in every table that holds something about
 * them, written straight to the database (as the ingestion API, Stripe's mirror and the meter would
 * have), and the catalogue's list of tables with a `user_id` column, read from the database itself.
 */
import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../server/db';
import { hashToken, newToken } from '../../server/services/tokens';
import { subscriptionRow, uniqueTag, userRow } from './adminFlow';

export interface SeededData {
  /** A word in every free-text row of the user (messages, threads, uses): never in another user's export. */
  marker: string;
  chatSessionId: string;
  storedMessageIds: string[];
  /** A message of no user in the user's own chat session (the AI service's answer). */
  serviceMessageId: string;
  threadId: string;
  ledgerIds: string[];
  subscriptionId: string;
  auditIds: string[];
  installId: string;
  emailChangeToken: string;
  noteId: string;
}

const DAY_MS = 86_400_000;

/** Rows of `userId` in every table the export reads (`messages` stored messages in all). */
export async function seedAccountData(db: Db, userId: string, opts: { messages?: number; customerId?: string } = {}): Promise<SeededData> {
  const marker = uniqueTag('mark');
  const now = Date.now();
  const chatSessionId = `chat-${uniqueTag()}`;
  await db.insertInto('chat_sessions').values({ id: chatSessionId, user_id: userId }).execute();
  const storedMessageIds = Array.from({ length: opts.messages ?? 2 }, () => randomUUID());
  for (let i = 0; i < storedMessageIds.length; i += 250) {
    await db
      .insertInto('stored_messages')
      .values(
        storedMessageIds.slice(i, i + 250).map((id, j) => {
          const message = JSON.stringify({ role: 'user', text: `${marker} question ${i + j}` });
          return { id, session_id: chatSessionId, user_id: userId, message, message_size: message.length, created_at: now - (i + j) };
        }),
      )
      .execute();
  }
  const serviceMessageId = randomUUID();
  const answer = JSON.stringify({ role: 'assistant', text: `${marker} answer` });
  await db
    .insertInto('stored_messages')
    .values({
      id: serviceMessageId,
      session_id: chatSessionId,
      user_id: null,
      message: answer,
      message_size: answer.length,
      created_at: now,
    })
    .execute();

  const threadId = `thread-${uniqueTag()}`;
  await db.insertInto('ai_threads').values({ id: threadId, user_id: userId, created_at: now, updated_at: now }).execute();
  await db
    .insertInto('ai_thread_messages')
    .values([
      { thread_id: threadId, position: 0, role: 'user', content: `${marker} how do I make a door?` },
      { thread_id: threadId, position: 1, role: 'assistant', content: 'Use a Blueprint.' },
    ])
    .execute();

  const customerId = opts.customerId ?? `cus_${uniqueTag()}`;
  await db
    .insertInto('billing_customers')
    .values({ user_id: userId, customer_id: customerId, default_payment_method: null, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const subscription = subscriptionRow(userId, { customer_id: customerId, status: 'canceled' });
  await db.insertInto('billing_subscriptions').values(subscription).execute();

  const ledgerIds = [randomUUID(), randomUUID()];
  await db
    .insertInto('credit_ledger')
    .values([
      { id: ledgerIds[0]!, user_id: userId, amount: 500, reason: 'Credit pack', source: `checkout:cs_${uniqueTag()}`, created_at: now - 2 },
      { id: ledgerIds[1]!, user_id: userId, amount: -3, reason: 'AI use', source: `usage:${uniqueTag()}`, created_at: now - 1 },
    ])
    .execute();

  // Automatic top-up: the settings, paused, and the top-up that paused them.
  await db
    .insertInto('top_up_settings')
    .values({
      user_id: userId,
      enabled: 1,
      threshold: 100,
      price_id: 'price_pack',
      monthly_cap: 3000,
      currency: 'usd',
      paused_at: now,
      paused_reason: 'card_declined',
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('top_ups')
    .values({
      id: randomUUID(),
      user_id: userId,
      crossing: `use:${randomUUID()}`,
      month: new Date(now).toISOString().slice(0, 7),
      price_id: 'price_pack',
      credits: 500,
      amount: 999,
      currency: 'usd',
      status: 'declined',
      invoice_id: `in_${uniqueTag()}`,
      failure: 'Your card was declined.',
      created_at: now,
      updated_at: now,
    })
    .execute();

  const periodStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  await db
    .insertInto('usage_periods')
    .values({
      user_id: userId,
      period_start: periodStart,
      period_end: periodStart + 30 * DAY_MS,
      allowance_used: 4,
      credits_used: 3,
      notified_80_at: null,
      notified_100_at: null,
    })
    .execute();
  await db
    .insertInto('usage_events')
    .values({
      id: randomUUID(),
      user_id: userId,
      request_id: `req-${marker}`,
      fingerprint: 'f'.repeat(64),
      units: 1,
      from_allowance: 1,
      from_credits: 0,
      period_start: periodStart,
      occurred_at: now,
      recorded_at: now,
      project_id: `${marker}-project`,
      engine_version: '5.6',
      plugin_version: '1.2.0',
      model: 'sage-1',
      feature: 'chat',
      answer: JSON.stringify({ ok: true }),
    })
    .execute();
  await db
    .insertInto('usage_daily')
    .values({ user_id: userId, day: Math.floor(now / DAY_MS), project_id: `${marker}-project`, engine_version: '5.6', uses: 1, units: 1 })
    .execute();

  // A release e-mail (issue 41), of a build of its own, withdrawn so no page offers it (the build is nobody's: not exported).
  const buildId = randomUUID();
  await db
    .insertInto('sage_builds')
    .values({
      id: buildId,
      version: `0.0.0-${marker}`,
      ue54_url: '',
      ue55_url: '',
      ue56_url: '',
      ue57_url: '',
      released_at: 0,
      released_by: null,
      withdrawn_at: 0,
    })
    .execute();
  await db
    .insertInto('release_mails')
    .values({ build_id: buildId, user_id: userId, queued_at: now, claimed_until: now, sent_at: now })
    .execute();

  const installId = randomUUID();
  await db
    .insertInto('plugin_installs')
    .values({ id: installId, user_id: userId, engine_version: '5.6', plugin_version: '1.2.0', created_at: now, last_used_at: now })
    .execute();
  // A passkey (issue 40): its name and dates go into the file, its public key never.
  await db
    .insertInto('passkeys')
    .values({
      id: `cred-${uniqueTag()}`,
      user_id: userId,
      name: `${marker} laptop`,
      public_key: `${marker}-public-key`,
      counter: 7,
      transports: '["internal"]',
      device_type: 'multiDevice',
      backed_up: 1,
      created_at: now,
      last_used_at: null,
    })
    .execute();
  const emailChangeToken = newToken();
  await db
    .insertInto('email_changes')
    .values({
      token_hash: hashToken(emailChangeToken),
      user_id: userId,
      new_email: `${marker}@example.net`,
      created_at: now,
      expires_at: now + 3_600_000,
      used_at: null,
    })
    .execute();

  // Staff's note on the user (issue 28), written by a staff member whose e-mail the export withholds.
  const noteId = randomUUID();
  await db
    .insertInto('user_notes')
    .values({
      id: noteId,
      user_id: userId,
      author_id: null,
      author_email: 'staff@sage.test',
      text: `${marker} asked about refunds`,
      created_at: now - 6,
      updated_at: now - 6,
    })
    .execute();

  // A studio the user is a member of (issue 38), owned by someone else: their membership is theirs.
  const studioOwner = userRow();
  await db.insertInto('users').values(studioOwner).execute();
  const orgId = randomUUID();
  await db
    .insertInto('orgs')
    .values({ id: orgId, name: `${marker} studio`, created_at: now, updated_at: now })
    .execute();
  await db
    .insertInto('org_members')
    .values([
      { org_id: orgId, user_id: studioOwner.id, role: 'owner', joined_at: now },
      { org_id: orgId, user_id: userId, role: 'member', joined_at: now },
    ])
    .execute();
  // Their seat in it, and what the studio paid for them.
  await db
    .insertInto('org_seats')
    .values({ id: randomUUID(), org_id: orgId, user_id: userId, period_start: now, allowance_used: 3, assigned_at: now })
    .execute();
  await db
    .insertInto('org_member_periods')
    .values({ org_id: orgId, user_id: userId, period_start: now, seat_used: 3, pool_used: 0, last_use_at: now })
    .execute();
  await db
    .insertInto('org_usage_daily')
    .values({ org_id: orgId, day: Math.floor(now / 86_400_000), user_id: userId, project_id: '', engine_version: '5.6', uses: 1, units: 3 })
    .execute();

  const auditIds = [randomUUID(), randomUUID()];
  await db
    .insertInto('audit_log')
    .values([
      {
        id: auditIds[0]!,
        actor_id: 'staff-id',
        actor_email: 'staff@sage.test',
        action: 'user.credits.grant',
        target_type: 'user',
        target_id: userId,
        before_json: null,
        after_json: JSON.stringify({ credits: 50, reason: `${marker} goodwill` }),
        created_at: now - 5,
      },
      {
        id: auditIds[1]!,
        actor_id: userId,
        actor_email: null,
        action: 'license.reissue',
        target_type: 'user',
        target_id: userId,
        before_json: null,
        after_json: null,
        created_at: now - 4,
      },
    ])
    .execute();

  return {
    marker,
    chatSessionId,
    storedMessageIds,
    serviceMessageId,
    threadId,
    ledgerIds,
    subscriptionId: subscription.id,
    auditIds,
    installId,
    emailChangeToken,
    noteId,
  };
}

/** Every table of the database with a `user_id` column, from its own catalogue. */
export async function tablesWithUserId(db: Db): Promise<string[]> {
  const query =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<{ name: string }>`select table_name as name from information_schema.columns
          where table_schema = current_schema() and column_name = 'user_id' order by 1`
      : sql<{ name: string }>`select m.name as name from sqlite_master m join pragma_table_info(m.name) c
          where m.type = 'table' and c.name = 'user_id' order by 1`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

/** Every table of the database, from its own catalogue. */
export async function tablesOf(db: Db): Promise<string[]> {
  const query =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() order by 1`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table' order by 1`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

/**
 * Moves this browser's sign-in `ms` into the past (its session's `created_at`): what the one
 * "recent sign-in" rule reads (contract/recentSignIn.ts). Other browsers' sessions stay as they are.
 */
export async function ageSignIn(db: Db, browser: { session: string | undefined }, ms: number): Promise<void> {
  const token = browser.session;
  if (!token) throw new Error('the browser is not signed in');
  const { created_at: startedAt } = await db
    .selectFrom('sessions')
    .select('created_at')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirstOrThrow();
  await db
    .updateTable('sessions')
    .set({ created_at: Number(startedAt) - ms })
    .where('token_hash', '=', hashToken(token))
    .execute();
}
